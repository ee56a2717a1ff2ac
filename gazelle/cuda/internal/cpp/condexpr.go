package cpp

// The #if expression evaluator: C preprocessor arithmetic over macro-expanded tokens, where an
// operand gazelle cannot know makes the result unknown.

// value is the result of a subexpression: n when known.
type value struct {
	n     int64
	known bool
}

func known(n int64) value { return value{n: n, known: true} }

func boolValue(b bool) value {
	if b {
		return known(1)
	}
	return known(0)
}

// exprParser evaluates an expanded #if expression by precedence climbing. Unknown operands make
// the result unknown, except where && and || and ?: decide without them.
type exprParser struct {
	toks []ppToken
	pos  int
	bad  bool
}

func (p *exprParser) peek() string {
	if p.pos < len(p.toks) && p.toks[p.pos].kind == 'o' {
		return p.toks[p.pos].text
	}
	return ""
}

func (p *exprParser) ternary() value {
	c := p.binary(0)
	if p.peek() != "?" {
		return c
	}
	p.pos++
	a := p.ternary()
	if p.peek() != ":" {
		p.bad = true
		return value{}
	}
	p.pos++
	b := p.ternary()
	switch {
	case !c.known:
		if a.known && b.known && a.n == b.n {
			return a
		}
		return value{}
	case c.n != 0:
		return a
	default:
		return b
	}
}

// binaryPrecedence are the binary operators of #if expressions, loosest first.
var binaryPrecedence = map[string]int{
	"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6, "<": 7, ">": 7, "<=": 7, ">=": 7,
	"<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10,
}

func (p *exprParser) binary(min int) value {
	left := p.unary()
	for {
		op := p.peek()
		prec, ok := binaryPrecedence[op]
		if !ok || prec <= min {
			return left
		}
		p.pos++
		right := p.binary(prec)
		left = apply(op, left, right)
	}
}

func apply(op string, a, b value) value {
	switch op {
	case "&&":
		if a.known && a.n == 0 || b.known && b.n == 0 {
			return known(0)
		}
		if a.known && b.known {
			return known(1)
		}
		return value{}
	case "||":
		if a.known && a.n != 0 || b.known && b.n != 0 {
			return known(1)
		}
		if a.known && b.known {
			return known(0)
		}
		return value{}
	}
	if !a.known || !b.known {
		return value{}
	}
	x, y := a.n, b.n
	switch op {
	case "|":
		return known(x | y)
	case "^":
		return known(x ^ y)
	case "&":
		return known(x & y)
	case "==":
		return boolValue(x == y)
	case "!=":
		return boolValue(x != y)
	case "<":
		return boolValue(x < y)
	case ">":
		return boolValue(x > y)
	case "<=":
		return boolValue(x <= y)
	case ">=":
		return boolValue(x >= y)
	case "<<":
		if y < 0 || y > 63 {
			return value{}
		}
		return known(x << uint(y))
	case ">>":
		if y < 0 || y > 63 {
			return value{}
		}
		return known(x >> uint(y))
	case "+":
		return known(x + y)
	case "-":
		return known(x - y)
	case "*":
		return known(x * y)
	case "/", "%":
		if y == 0 {
			return value{}
		}
		if op == "/" {
			return known(x / y)
		}
		return known(x % y)
	}
	return value{}
}

func (p *exprParser) unary() value {
	if p.pos >= len(p.toks) {
		p.bad = true
		return value{}
	}
	t := p.toks[p.pos]
	p.pos++
	switch t.kind {
	case 'n':
		return known(t.num)
	case '?':
		return value{}
	case 'o':
		switch t.text {
		case "(":
			v := p.ternary()
			if p.peek() != ")" {
				p.bad = true
				return value{}
			}
			p.pos++
			return v
		case "!", "~", "-", "+":
			v := p.unary()
			if !v.known {
				return v
			}
			switch t.text {
			case "!":
				return boolValue(v.n == 0)
			case "~":
				return known(^v.n)
			case "-":
				return known(-v.n)
			}
			return v
		}
	}
	p.bad = true
	return value{}
}
