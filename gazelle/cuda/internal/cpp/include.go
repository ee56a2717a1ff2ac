package cpp

import (
	"bytes"
	"strings"
)

// Include is one #include directive found in a C, C++ or CUDA source.
type Include struct {
	// Path is the header name as written, without the quotes or angle brackets.
	Path string
	// Quoted is true for #include "path" and false for #include <path>.
	Quoted bool
	// Line is the 1-based line of the directive.
	Line int
}

// ParseIncludes returns the #include directives of a C, C++ or CUDA source, in order.
//
// Comments (// and /* */, also spanning lines), string, character and raw string literals are
// understood, so an #include inside a comment or a string is not one; line continuations
// (backslash-newline) join lines, and the directive may have spaces around '#'. #include_next,
// #import and computed includes (#include MACRO) are not reported. Conditional compilation is not
// evaluated here: an #include inside #if 0 is reported (see preprocess for the evaluation).
func ParseIncludes(src []byte) []Include {
	var out []Include
	for _, d := range ParseDirectives(src) {
		if d.Included != nil {
			out = append(out, *d.Included)
		}
	}
	return out
}

// Directive is one preprocessor directive: its name (include, if, ifdef, define, ...) and the rest
// of its logical line, comments blanked and spaces trimmed.
type Directive struct {
	Name string
	Arg  string
	Line int
	// Included is set for a well-formed #include "path" or #include <path>.
	Included *Include
}

// ParseDirectives returns the preprocessor directives of a source, in order, with the lexical
// rules of ParseIncludes.
func ParseDirectives(src []byte) []Directive {
	clean, starts := StripComments(src)
	lines := bytes.Split(clean, []byte("\n"))
	var out []Directive
	for k := 0; k < len(lines); k++ {
		// A logical line: physical lines joined by backslash-newline.
		start := starts[k]
		var logical []byte
		for {
			phys := bytes.TrimSuffix(lines[k], []byte("\r"))
			if bytes.HasSuffix(phys, []byte("\\")) && k+1 < len(lines) {
				logical = append(logical, phys[:len(phys)-1]...)
				k++
				continue
			}
			logical = append(logical, phys...)
			break
		}
		s := strings.TrimLeft(string(logical), spaces)
		if !strings.HasPrefix(s, "#") {
			continue
		}
		s = strings.TrimLeft(s[1:], spaces)
		n := 0
		for n < len(s) && isIdentChar(s[n]) {
			n++
		}
		if n == 0 {
			continue // the null directive, or "# 12" line markers
		}
		d := Directive{Name: s[:n], Arg: strings.Trim(s[n:], spaces), Line: start}
		if d.Name == "include" && (n == len(s) || strings.ContainsRune(spaces+"\"<", rune(s[n]))) {
			if inc, ok := parseIncludeArg(d.Arg); ok {
				inc.Line = start
				d.Included = &inc
			}
		}
		out = append(out, d)
	}
	return out
}

// spaces are the horizontal white-space characters of the preprocessor.
const spaces = " \t\f\v"

// parseIncludeArg parses what follows #include: "path" or <path>.
func parseIncludeArg(s string) (Include, bool) {
	if s == "" {
		return Include{}, false
	}
	var closing byte
	switch s[0] {
	case '"':
		closing = '"'
	case '<':
		closing = '>'
	default:
		return Include{}, false // computed include
	}
	end := strings.IndexByte(s[1:], closing)
	if end <= 0 {
		return Include{}, false
	}
	return Include{Path: s[1 : 1+end], Quoted: closing == '"'}, true
}

// StripComments replaces each comment with one space and each raw string literal with R"", as
// the preprocessor sees them (a comment or raw string spanning lines joins them), and keeps other
// literals as they are. starts[k] is the source line (1-based) where line k of clean begins.
func StripComments(src []byte) (clean []byte, starts []int) {
	clean = make([]byte, 0, len(src))
	starts = []int{1}
	line := 1
	n := len(src)
	for i := 0; i < n; {
		c := src[i]
		switch {
		case c == '\n':
			line++
			clean = append(clean, c)
			starts = append(starts, line)
			i++
		case c == '/' && i+1 < n && src[i+1] == '/':
			// Line comment, continued by a trailing backslash.
			clean = append(clean, ' ')
			i += 2
			for i < n && src[i] != '\n' {
				if src[i] == '\\' && i+1 < n && src[i+1] == '\n' {
					line++
					i++
				}
				i++
			}
		case c == '/' && i+1 < n && src[i+1] == '*':
			clean = append(clean, ' ')
			i += 2
			for i < n && !(src[i] == '*' && i+1 < n && src[i+1] == '/') {
				if src[i] == '\n' {
					line++
				}
				i++
			}
			i += 2
		case c == 'R' && i+1 < n && src[i+1] == '"' && !rawPrefixBlocked(src, i):
			stop := rawStringEnd(src, i)
			if stop < 0 {
				clean = append(clean, c)
				i++
				continue
			}
			line += bytes.Count(src[i:stop], []byte("\n"))
			clean = append(clean, 'R', '"', '"')
			i = stop
		case c == '"' || (c == '\'' && !(i > 0 && isDigit(src[i-1]))):
			// String or character literal (a quote after a digit is a C++14 digit separator).
			clean = append(clean, c)
			i++
			for i < n && src[i] != c && src[i] != '\n' {
				if src[i] == '\\' && i+1 < n && src[i+1] != '\n' {
					clean = append(clean, src[i], src[i+1])
					i += 2
					continue
				}
				clean = append(clean, src[i])
				i++
			}
			if i < n && src[i] == c {
				clean = append(clean, c)
				i++
			}
		default:
			clean = append(clean, c)
			i++
		}
	}
	return clean, starts
}

// rawPrefixBlocked reports whether the R at src[i] is part of a longer identifier (fooR"..."),
// so not a raw string prefix. u8R, uR, UR and LR are raw string prefixes.
func rawPrefixBlocked(src []byte, i int) bool {
	j := i
	for j > 0 && isIdentChar(src[j-1]) {
		j--
	}
	switch string(src[j:i]) {
	case "", "u8", "u", "U", "L":
		return false
	}
	return true
}

// rawStringEnd returns the index after the raw string literal R"delim(...)delim" starting at
// src[i], or -1 when src[i] does not start a well-formed one. An unterminated raw string runs to
// the end of src.
func rawStringEnd(src []byte, i int) int {
	open := bytes.IndexByte(src[i+2:], '(')
	if open < 0 || open > 16 {
		return -1
	}
	delim := src[i+2 : i+2+open]
	if bytes.ContainsAny(delim, " ()\\\t\v\f\n\"") {
		return -1
	}
	body := i + 2 + open + 1
	closing := append(append([]byte(")"), delim...), '"')
	end := bytes.Index(src[body:], closing)
	if end < 0 {
		return len(src)
	}
	return body + end + len(closing)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isIdentChar(c byte) bool {
	return c == '_' || isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}
