package cpp

import (
	"bytes"
	"strings"
)

// SourceFacts are what the extension reads from a CUDA or C++ source besides its includes.
type SourceFacts struct {
	// DeviceLaunches are the lines of kernel launches (<<<) inside __global__ or __device__
	// functions: dynamic parallelism, which needs relocatable device code (rdc).
	DeviceLaunches []int
	// ExternDevice are the lines of declarations of __device__ functions, or of extern
	// __device__ or __constant__ variables, that the file does not define: uses of device code
	// that lives in another file, which needs rdc.
	ExternDevice []int
	// DefinesMain is true when the file defines a top-level function named main.
	DefinesMain bool
}

// scope kinds of the scanner.
const (
	scopeContainer = iota // the file, a namespace, extern "C" { }, a class body
	scopeFunction         // a function body (and blocks nested in it)
	scopeOther            // braces at container level that are not a body: initializers
)

type scope struct {
	kind   int
	device bool // inside a __global__ or __device__ function
}

// declaration is a device declaration without a definition, by name.
type declaration struct {
	name string
	line int
}

// ScanSource returns the facts of one source. Comments, string and character literals and
// preprocessor directives are skipped; the scan follows braces, so it needs no full C++ parse,
// and conditional compilation is not evaluated. Declarations of __shared__ variables (extern
// __shared__ arrays are dynamic shared memory) and of __global__ kernels (launched from host code
// through their host stubs) never count as uses of other files' device code.
func ScanSource(src []byte) SourceFacts {
	clean, starts := StripComments(src)
	text := BlankLiterals(BlankDirectives(clean))
	lineOf := func(i int) int {
		return starts[bytes.Count(text[:i], []byte("\n"))]
	}

	var facts SourceFacts
	stack := []scope{{kind: scopeContainer}}
	stmtStart := 0
	var declared []declaration
	defined := map[string]bool{}
	for i := 0; i < len(text); i++ {
		top := stack[len(stack)-1]
		switch text[i] {
		case '{':
			header := string(text[stmtStart:i])
			switch {
			case top.kind != scopeContainer:
				stack = append(stack, top)
			case isContainerHeader(header):
				stack = append(stack, scope{kind: scopeContainer})
			case strings.Contains(header, "(") && !strings.Contains(header, "="):
				words := identifiers(header)
				name := functionName(header)
				if name == "main" && len(stack) == 1 {
					facts.DefinesMain = true
				}
				device := hasWord(words, "__global__") || hasWord(words, "__device__")
				if device {
					defined[name] = true
				}
				stack = append(stack, scope{kind: scopeFunction, device: device})
			default:
				stack = append(stack, scope{kind: scopeOther})
			}
			stmtStart = i + 1
		case '}':
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
			stmtStart = i + 1
		case ';':
			if top.kind == scopeContainer {
				if d, isDef, ok := deviceDeclaration(string(text[stmtStart:i])); ok {
					if isDef {
						defined[d] = true
					} else {
						declared = append(declared, declaration{name: d, line: lineOf(stmtStart + firstNonSpace(text[stmtStart:i]))})
					}
				}
			}
			stmtStart = i + 1
		case '<':
			if top.kind == scopeFunction && top.device && bytes.HasPrefix(text[i:], []byte("<<<")) {
				facts.DeviceLaunches = append(facts.DeviceLaunches, lineOf(i))
				i += 2
			}
		}
	}
	for _, d := range declared {
		if !defined[d.name] {
			facts.ExternDevice = append(facts.ExternDevice, d.line)
		}
	}
	return facts
}

// isContainerHeader reports whether the text before a '{' at container level opens a
// namespace, a linkage block or a class body.
func isContainerHeader(header string) bool {
	words := identifiers(header)
	if len(words) == 0 {
		return false
	}
	if words[0] == "namespace" || words[0] == "inline" && len(words) > 1 && words[1] == "namespace" {
		return true
	}
	if words[0] == "extern" && !strings.Contains(header, "(") {
		return true // extern "C" {
	}
	if strings.Contains(header, "(") || strings.Contains(header, "=") {
		return false
	}
	for _, w := range words {
		switch w {
		case "struct", "class", "union", "enum":
			return true
		}
	}
	return false
}

// deviceDeclaration reads a statement at container level. It returns the declared name of a
// __device__ function prototype (not __global__) or of a __device__ or __constant__ variable,
// and whether the statement defines it (a variable without extern); ok is false for anything
// else.
func deviceDeclaration(stmt string) (name string, isDef, ok bool) {
	words := identifiers(stmt)
	if !hasWord(words, "__device__") && !hasWord(words, "__constant__") {
		return "", false, false
	}
	if hasWord(words, "__shared__") || hasWord(words, "__global__") || hasWord(words, "typedef") || hasWord(words, "using") {
		return "", false, false
	}
	if open := strings.IndexByte(stmt, '('); open >= 0 && !strings.Contains(stmt[:open], "=") {
		if !hasWord(words, "__device__") {
			return "", false, false
		}
		return functionName(stmt), false, true // a prototype: defined elsewhere
	}
	end := len(stmt)
	if k := strings.IndexAny(stmt, "=["); k >= 0 {
		end = k
	}
	vars := identifiers(stmt[:end])
	if len(vars) == 0 {
		return "", false, false
	}
	return vars[len(vars)-1], !hasWord(words, "extern"), true
}

// functionName returns the identifier right before the first '(' of a declaration that is not
// an attribute-like qualifier (__launch_bounds__(...), __attribute__((...)), alignas(...)).
func functionName(header string) string {
	rest := header
	for {
		open := strings.IndexByte(rest, '(')
		if open < 0 {
			return ""
		}
		words := identifiers(rest[:open])
		if len(words) == 0 {
			return ""
		}
		name := words[len(words)-1]
		switch name {
		case "__launch_bounds__", "__attribute__", "alignas", "__align__", "__declspec", "__maxnreg__", "__cluster_dims__":
			close := matchingParen(rest, open)
			if close < 0 {
				return ""
			}
			rest = rest[close+1:]
			continue
		}
		return name
	}
}

// matchingParen returns the index of the ')' that closes the '(' at s[open], or -1.
func matchingParen(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// identifiers returns the identifiers and keywords of s, in order.
func identifiers(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		c := s[i]
		if isIdentChar(c) && !isDigit(c) {
			j := i
			for j < len(s) && isIdentChar(s[j]) {
				j++
			}
			out = append(out, s[i:j])
			i = j
			continue
		}
		if isDigit(c) {
			for i < len(s) && isIdentChar(s[i]) {
				i++
			}
			continue
		}
		i++
	}
	return out
}

func hasWord(words []string, w string) bool {
	for _, x := range words {
		if x == w {
			return true
		}
	}
	return false
}

func firstNonSpace(b []byte) int {
	for i, c := range b {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return i
		}
	}
	return 0
}

// BlankDirectives replaces preprocessor directives (with their continuation lines) by spaces,
// keeping newlines, so that macros and #include lines do not look like code.
func BlankDirectives(src []byte) []byte {
	out := append([]byte(nil), src...)
	atLineStart := true
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case c == '\n':
			atLineStart = true
		case c == ' ' || c == '\t' || c == '\r':
		case c == '#' && atLineStart:
			for ; i < len(out) && out[i] != '\n'; i++ {
				if out[i] == '\\' && i+1 < len(out) && out[i+1] == '\n' {
					out[i] = ' '
					i++ // keep the newline, stay in the directive
					continue
				}
				out[i] = ' '
			}
			i-- // let the loop see the newline
		default:
			atLineStart = false
		}
	}
	return out
}

// BlankLiterals replaces the contents of string and character literals by spaces (stripComments
// has already reduced raw strings to R"").
func BlankLiterals(src []byte) []byte {
	out := append([]byte(nil), src...)
	for i := 0; i < len(out); i++ {
		c := out[i]
		if c != '"' && (c != '\'' || (i > 0 && isDigit(out[i-1]))) {
			continue
		}
		for i++; i < len(out) && out[i] != c && out[i] != '\n'; i++ {
			if out[i] == '\\' && i+1 < len(out) && out[i+1] != '\n' {
				out[i] = ' '
				i++
			}
			out[i] = ' '
		}
	}
	return out
}
