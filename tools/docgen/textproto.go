package main

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// Msg is a protocol buffer message read from the text format, without its schema: each field name
// maps to its values in order, each a string (a string literal, unquoted), an identifier (an enum
// value, true or false) or a number, as written, or a *Msg.
type Msg struct {
	Fields map[string][]any
}

// Str returns the first value of field as a string ("" if absent or a message).
func (m *Msg) Str(field string) string {
	if m == nil {
		return ""
	}
	for _, v := range m.Fields[field] {
		if s, ok := v.(string); ok {
			return s
		}
	}
	return ""
}

// Bool reports whether field's first value is true.
func (m *Msg) Bool(field string) bool { return m.Str(field) == "true" }

// Msgs returns field's message values.
func (m *Msg) Msgs(field string) []*Msg {
	if m == nil {
		return nil
	}
	var out []*Msg
	for _, v := range m.Fields[field] {
		if s, ok := v.(*Msg); ok {
			out = append(out, s)
		}
	}
	return out
}

// Sub returns field's first message value, or nil.
func (m *Msg) Sub(field string) *Msg {
	if ms := m.Msgs(field); len(ms) > 0 {
		return ms[0]
	}
	return nil
}

// Strs returns field's string values.
func (m *Msg) Strs(field string) []string {
	if m == nil {
		return nil
	}
	var out []string
	for _, v := range m.Fields[field] {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// parseText parses the protocol buffer text format (what starlark_doc_extract writes as
// NAME.textproto): `name: value`, `name { ... }` or `name: { ... }`, `#` comments, string literals
// with C escapes (adjacent ones concatenated), identifiers and numbers.
func parseText(src string) (*Msg, error) {
	p := &parser{src: src}
	m, err := p.message(false)
	if err != nil {
		line := 1 + strings.Count(src[:p.pos], "\n")
		return nil, fmt.Errorf("textproto line %d: %w", line, err)
	}
	return m, nil
}

type parser struct {
	src string
	pos int
}

func (p *parser) skip() {
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == '#':
			for p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.pos++
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ';':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) ident() string {
	start := p.pos
	for p.pos < len(p.src) {
		r := rune(p.src[p.pos])
		if r == '_' || r == '.' || r == '-' || r == '+' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			p.pos++
			continue
		}
		break
	}
	return p.src[start:p.pos]
}

func (p *parser) message(braced bool) (*Msg, error) {
	m := &Msg{Fields: map[string][]any{}}
	for {
		p.skip()
		if p.pos >= len(p.src) {
			if braced {
				return nil, fmt.Errorf("missing }")
			}
			return m, nil
		}
		if p.src[p.pos] == '}' {
			if !braced {
				return nil, fmt.Errorf("unexpected }")
			}
			p.pos++
			return m, nil
		}
		name := p.ident()
		if name == "" {
			return nil, fmt.Errorf("expected a field name, found %q", p.src[p.pos:min(p.pos+10, len(p.src))])
		}
		p.skip()
		colon := false
		if p.pos < len(p.src) && p.src[p.pos] == ':' {
			colon = true
			p.pos++
			p.skip()
		}
		if p.pos >= len(p.src) {
			return nil, fmt.Errorf("field %s has no value", name)
		}
		switch c := p.src[p.pos]; {
		case c == '{':
			p.pos++
			sub, err := p.message(true)
			if err != nil {
				return nil, fmt.Errorf("in %s: %w", name, err)
			}
			m.Fields[name] = append(m.Fields[name], sub)
		case !colon:
			return nil, fmt.Errorf("field %s: expected : or {", name)
		case c == '"' || c == '\'':
			var b strings.Builder
			for p.pos < len(p.src) && (p.src[p.pos] == '"' || p.src[p.pos] == '\'') {
				s, err := p.str()
				if err != nil {
					return nil, fmt.Errorf("field %s: %w", name, err)
				}
				b.WriteString(s)
				p.skip()
			}
			m.Fields[name] = append(m.Fields[name], b.String())
		default:
			v := p.ident()
			if v == "" {
				return nil, fmt.Errorf("field %s: unexpected %q", name, c)
			}
			m.Fields[name] = append(m.Fields[name], v)
		}
	}
}

// str reads one string literal at p.pos.
func (p *parser) str() (string, error) {
	quote := p.src[p.pos]
	p.pos++
	var b []byte
	for {
		if p.pos >= len(p.src) {
			return "", fmt.Errorf("unterminated string")
		}
		c := p.src[p.pos]
		p.pos++
		if c == quote {
			return string(b), nil
		}
		if c != '\\' {
			b = append(b, c)
			continue
		}
		if p.pos >= len(p.src) {
			return "", fmt.Errorf("unterminated string")
		}
		e := p.src[p.pos]
		p.pos++
		switch e {
		case 'n':
			b = append(b, '\n')
		case 't':
			b = append(b, '\t')
		case 'r':
			b = append(b, '\r')
		case 'a':
			b = append(b, '\a')
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'v':
			b = append(b, '\v')
		case '\\', '\'', '"', '?':
			b = append(b, e)
		case 'x', 'X':
			n, used := digits(p.src[p.pos:], 16, 2)
			if used == 0 {
				return "", fmt.Errorf("\\x without hex digits")
			}
			b = append(b, byte(n))
			p.pos += used
		case 'u', 'U':
			size := 4
			if e == 'U' {
				size = 8
			}
			n, used := digits(p.src[p.pos:], 16, size)
			if used != size {
				return "", fmt.Errorf("\\%c needs %d hex digits", e, size)
			}
			b = append(b, string(rune(n))...)
			p.pos += used
		default:
			if e < '0' || e > '7' {
				return "", fmt.Errorf("unknown escape \\%c", e)
			}
			n, used := digits(p.src[p.pos-1:], 8, 3)
			b = append(b, byte(n))
			p.pos += used - 1
		}
	}
}

// digits reads up to max digits of base at the start of s; it returns their value and how many.
func digits(s string, base, max int) (int, int) {
	n, i := 0, 0
	for ; i < max && i < len(s); i++ {
		d, err := strconv.ParseInt(s[i:i+1], base, 8)
		if err != nil {
			break
		}
		n = n*base + int(d)
	}
	return n, i
}
