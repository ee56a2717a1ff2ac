package cpp

import (
	"bytes"
	"strings"
)

// Symbol is a definition with external linkage at file or namespace scope: a function with a
// body, or a variable (with or without an initializer). Two objects that define the same Symbol
// cannot both be linked into one program (or one would be picked silently, when the definitions
// are weak or come from an archive).
type Symbol struct {
	// Name is the identifier as written.
	Name string
	// Key tells definitions of one symbol apart from overloads: the name of a variable; the name
	// and the parameter list (its text with blanks collapsed) of a function, so that print(int)
	// and print(float) in two files are two symbols (and the same function with differently named
	// parameters is not recognised as one).
	Key string
	// Line is the line of the definition.
	Line int
	// Function is true for a function definition, false for a variable.
	Function bool
	// Conditional is true when the definition is inside an #if, #ifdef or #ifndef group: it may
	// be compiled only on some platforms or configurations.
	Conditional bool
}

// ScanDefinitions returns the definitions with external linkage of one source, in order.
// Comments, string and character literals and preprocessor directives are skipped; the scan
// follows braces and statements like ScanSource. Not counted: static, inline, constexpr and const
// definitions, templates, typedefs, definitions in an anonymous namespace or a class body, members
// defined out of line (a::b), main, and __device__, __constant__, __managed__ and __shared__
// variables (device code: separate per file unless compiled with rdc).
func ScanDefinitions(src []byte) []Symbol {
	clean, starts := StripComments(src)
	text := BlankLiterals(BlankDirectives(clean))
	lineOf := func(i int) int {
		return starts[bytes.Count(text[:i], []byte("\n"))]
	}
	conditional := conditionalLines(src)

	type defScope struct {
		kind     int
		internal bool // an anonymous namespace, or a class body: nothing inside counts
	}
	stack := []defScope{{kind: scopeContainer}}
	var out []Symbol
	add := func(name, params string, at int, function bool) {
		if name == "" || name == "main" || name == "operator" {
			return
		}
		line := lineOf(at)
		s := Symbol{Name: name, Key: name, Line: line, Function: function, Conditional: conditional(line)}
		if function {
			s.Key = name + "(" + strings.Join(strings.Fields(params), " ") + ")"
		}
		out = append(out, s)
	}
	stmtStart := 0
	pending := "" // a declaration whose initializer braces just closed: T x = { ... };
	pendingAt := 0
	for i := 0; i < len(text); i++ {
		top := stack[len(stack)-1]
		switch text[i] {
		case '{':
			header := string(text[stmtStart:i])
			words := identifiers(header)
			switch {
			case top.kind != scopeContainer:
				stack = append(stack, defScope{kind: top.kind, internal: top.internal})
			case isContainerHeader(header):
				s := defScope{kind: scopeContainer, internal: top.internal}
				switch {
				case hasWord(words, "namespace"):
					// Only an anonymous namespace's names are internal.
					s.internal = s.internal || words[len(words)-1] == "namespace"
				case words[0] == "extern":
					// extern "C" { }: its names count like the file scope's.
				default:
					s.internal = true // a class, struct, union or enum body
				}
				stack = append(stack, s)
			case strings.Contains(header, "(") && !strings.Contains(header, "="):
				if !top.internal && !internalLinkage(words) && !qualified(header) {
					add(functionName(header), parameters(header), stmtStart+firstNonSpace(text[stmtStart:i]), true)
				}
				stack = append(stack, defScope{kind: scopeFunction, internal: true})
			default:
				if strings.Contains(header, "=") {
					pending, pendingAt = header, stmtStart+firstNonSpace(text[stmtStart:i])
				}
				stack = append(stack, defScope{kind: scopeOther, internal: true})
			}
			stmtStart = i + 1
		case '}':
			// The closing brace of an initializer keeps pending for the ';' that follows it.
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
			stmtStart = i + 1
		case ';':
			if top.kind == scopeContainer && !top.internal {
				stmt := string(text[stmtStart:i])
				at := stmtStart + firstNonSpace(text[stmtStart:i])
				if pending != "" && strings.TrimSpace(stmt) == "" {
					stmt, at = pending, pendingAt
				}
				if name, ok := variableDefinition(stmt); ok {
					add(name, "", at, false)
				}
			}
			pending = ""
			stmtStart = i + 1
		}
	}
	return out
}

// parameters returns the text between the parentheses of a function definition's header (the
// last parenthesised group: attributes come before the name).
func parameters(header string) string {
	d := stripAttributes(header)
	open := strings.IndexByte(d, '(')
	if open < 0 {
		return ""
	}
	end := matchingParen(d, open)
	if end < 0 {
		return ""
	}
	return d[open+1 : end]
}

// variableDefinition returns the name a statement at namespace scope defines when it is a
// variable definition with external linkage: `T name;`, `T name = ...;`, `T name[N] = {...};`.
func variableDefinition(stmt string) (string, bool) {
	decl := stripAttributes(stmt)
	if k := strings.IndexAny(decl, "=["); k >= 0 {
		decl = decl[:k]
	}
	if strings.ContainsAny(decl, "()") {
		return "", false // a function prototype, a macro call, a constructor call, a function pointer
	}
	decl = stripAngles(decl)
	if k := strings.IndexByte(decl, ','); k >= 0 {
		decl = decl[:k]
	}
	words := identifiers(decl)
	if len(words) < 2 || internalLinkage(words) || qualified(decl) {
		return "", false
	}
	for _, w := range words {
		switch w {
		case "extern", "typedef", "using", "friend", "namespace", "return", "operator", "template",
			"__device__", "__constant__", "__managed__", "__shared__", "asm", "__asm__", "static_assert":
			return "", false
		}
	}
	switch words[0] {
	case "struct", "class", "union", "enum":
		if len(words) == 2 {
			return "", false // a forward declaration
		}
	}
	return words[len(words)-1], true
}

// internalLinkage reports whether the words of a declaration give it internal or vague linkage
// (or make it a template): such definitions may appear in several objects.
func internalLinkage(words []string) bool {
	for _, w := range words {
		switch w {
		case "static", "inline", "__inline__", "__forceinline__", "constexpr", "const", "template", "typedef":
			return true
		}
	}
	return false
}

// qualified reports whether the declared name is qualified (a::b): a member or a namespace member
// defined out of line.
func qualified(decl string) bool {
	d := decl
	if k := strings.IndexByte(d, '('); k >= 0 {
		d = d[:k]
	}
	d = strings.TrimRight(stripAngles(d), " \t\n\r")
	words := identifiers(d)
	if len(words) == 0 {
		return false
	}
	last := words[len(words)-1]
	k := strings.LastIndex(d, last)
	return k >= 2 && strings.HasSuffix(strings.TrimRight(d[:k], " \t"), "::")
}

// stripAttributes removes __attribute__((...)), __declspec(...), alignas(...) and __align__(...)
// from a declaration.
func stripAttributes(s string) string {
	for _, kw := range []string{"__attribute__", "__declspec", "alignas", "__align__"} {
		for {
			k := strings.Index(s, kw)
			if k < 0 {
				break
			}
			open := strings.IndexByte(s[k:], '(')
			if open < 0 {
				break
			}
			end := matchingParen(s, k+open)
			if end < 0 {
				break
			}
			s = s[:k] + " " + s[end+1:]
		}
	}
	return s
}

// stripAngles removes template argument lists (<...>, nested) from s.
func stripAngles(s string) string {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '<':
			depth++
		case c == '>' && depth > 0:
			depth--
			if depth == 0 {
				b.WriteByte(' ')
			}
		case depth == 0:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// conditionalLines returns a function telling whether a line of src is inside an #if, #ifdef or
// #ifndef group.
func conditionalLines(src []byte) func(line int) bool {
	type span struct{ from, to int }
	var spans []span
	depth, from := 0, 0
	for _, d := range ParseDirectives(src) {
		switch d.Name {
		case "if", "ifdef", "ifndef":
			if depth == 0 {
				from = d.Line
			}
			depth++
		case "endif":
			if depth > 0 {
				depth--
				if depth == 0 {
					spans = append(spans, span{from, d.Line})
				}
			}
		}
	}
	if depth > 0 {
		spans = append(spans, span{from, int(^uint(0) >> 1)})
	}
	return func(line int) bool {
		for _, s := range spans {
			if line > s.from && line < s.to {
				return true
			}
		}
		return false
	}
}

// Identifiers returns the identifiers of the code of src (not of comments, literals or
// preprocessor directives).
func Identifiers(src []byte) map[string]bool {
	clean, _ := StripComments(src)
	out := map[string]bool{}
	for _, w := range identifiers(string(BlankLiterals(BlankDirectives(clean)))) {
		out[w] = true
	}
	return out
}
