package cpp

import (
	"strconv"
	"strings"
)

// Tri is a three-valued truth: a conditional group that is compiled (yes), skipped (no), or one
// whose condition gazelle cannot evaluate (maybe).
type Tri int8

// The three truths, ordered: And is the minimum, Or the maximum.
const (
	No Tri = iota
	Maybe
	Yes
)

// And is the truth of a and b.
func (a Tri) And(b Tri) Tri {
	if a < b {
		return a
	}
	return b
}

// Or is the truth of a or b.
func (a Tri) Or(b Tri) Tri {
	if a > b {
		return a
	}
	return b
}

// Not is the truth of not a.
func (a Tri) Not() Tri { return Yes - a }

// macro is what the preprocessor knows of one macro name.
type macro struct {
	// state: yes for a macro that is defined, no for one that is undefined (an #undef, or -U),
	// maybe for one that may be defined (a #define in a group gazelle cannot evaluate, a macro
	// the compiler defines in some compiles only).
	state Tri
	// value is the replacement text of an object-like macro defined for sure ("" when known
	// empty); known is false when the value is not known.
	value string
	known bool
	// function is true for a function-like macro.
	function bool
}

// Macros is the macro table of one translation unit, by name. A name it does not hold is looked
// up in the compiler's and the toolkit's (see builtinMacro).
type Macros map[string]macro

// State is yes for a macro that is defined, no for one that is not, maybe
// for one that may be.
func (m Macros) State(name string) Tri { return m.lookup(name).state }

// OwnState is a macro's state by the translation unit's own #defines and
// #undefs (and the rule's flags) alone: No when the table does not hold it.
func (m Macros) OwnState(name string) Tri { return m[name].state }

func (m Macros) lookup(name string) macro {
	if d, ok := m[name]; ok {
		return d
	}
	return builtinMacro(name)
}

// Define records #define NAME VALUE (or -DNAME=VALUE) in a group of the given state.
func (m Macros) Define(name, value string, function bool, state Tri) {
	switch state {
	case Yes:
		m[name] = macro{state: Yes, value: strings.TrimSpace(value), known: !function, function: function}
	case Maybe:
		m[name] = macro{state: Maybe}
	}
}

// Undef records #undef NAME in a group of the given state.
func (m Macros) Undef(name string, state Tri) {
	switch state {
	case Yes:
		m[name] = macro{state: No}
	case Maybe:
		if m.lookup(name).state != No {
			m[name] = macro{state: Maybe}
		}
	}
}

// DefineFlag records a -DNAME, -DNAME=VALUE or -UNAME of a rule (defines and local_defines
// entries are given without -D).
func (m Macros) DefineFlag(def string, undef bool) {
	if undef {
		m.Undef(strings.TrimSpace(def), Yes)
		return
	}
	name, value, found := strings.Cut(def, "=")
	name = strings.TrimSpace(name)
	if !found {
		value = "1"
	}
	if i := strings.IndexByte(name, '('); i >= 0 {
		m.Define(name[:i], value, true, Yes)
		return
	}
	if name != "" {
		m.Define(name, value, false, Yes)
	}
}

// Macros of the compile that cu_library runs on Linux (nvcc with gcc or clang as the host
// compiler). A name in none of these lists, that no #define of the translation unit and no
// Define of the rule gives, is undefined, as the preprocessor takes it.
var (
	// builtinDefined are defined in every compile, with these values ("" when not known).
	// __CUDACC__ depends on the file compiled (see preprocessor.unit).
	builtinDefined = map[string]string{
		"__linux__": "1", "__linux": "1", "__unix__": "1", "__unix": "1", "__ELF__": "1",
		"__NVCC__": "1", "__cplusplus": "", "__GNUC__": "", "__GNUC_MINOR__": "",
		"__STDC__": "1", "__STDC_HOSTED__": "1", "__CHAR_BIT__": "8",
	}
	// builtinUndefined are names of other platforms and compilers that a prefix below would
	// otherwise make unknown.
	builtinUndefined = setOf(
		"__APPLE__", "__MACH__", "__MINGW32__", "__MINGW64__", "__CYGWIN__", "__ANDROID__",
		"__FreeBSD__", "__OpenBSD__", "__NetBSD__", "__QNX__", "__EMSCRIPTEN__", "__HIPCC__", "__HIP__",
		"__HIP_PLATFORM_AMD__", "__HIP_PLATFORM_HCC__", "__HIP_PLATFORM_NVIDIA__", "__HIP_DEVICE_COMPILE__",
		"__INTEL_COMPILER", "__INTEL_LLVM_COMPILER", "__NVCOMPILER", "__SYCL_DEVICE_ONLY__", "__OPENCL_VERSION__",
	)
	// unknownPrefixes start the names of macros that gazelle cannot know: those the compiler
	// defines in some compiles only (__CUDA_ARCH__ in device passes, NDEBUG under -c opt,
	// __x86_64__ on one host), and those that the toolkit's or the C library's headers define
	// (CUDART_VERSION, NCCL_VERSION_CODE, __GLIBC__). Conditions on them are not evaluated. A
	// project's own macros (USE_NCCL, CUFFTDX_EXAMPLES_CUFFT_CALLBACK, NVTX_ENABLED) are not here.
	unknownPrefixes = []string{
		"__CUDA", "__NVCC", "__GNUC", "__GLIBC", "__clang", "__llvm", "__SIZEOF_", "__BYTE_ORDER",
		"__ORDER_", "__x86_64", "__amd64", "__i386", "__aarch64", "__arm", "__ARM_", "__powerpc",
		"__ppc", "__PPC", "__LP64__", "__ILP32__", "__STDC_", "__OPTIMIZE", "__FAST_MATH__", "__SSE",
		"__AVX", "__FMA", "__F16C__", "__BMI", "__POPCNT__", "__cpp_", "__has_", "__GXX_", "__EXCEPTIONS",
		"__SANITIZE_", "__CHAR_", "__INT", "__UINT", "__WCHAR", "__FLT", "__DBL", "__LDBL", "__VERSION__",
		"_GLIBCXX", "_LIBCPP", "_LIBCUDACXX", "_OPENMP", "_POSIX", "_XOPEN", "_GNU_SOURCE",
		"_DEFAULT_SOURCE", "_FILE_OFFSET_BITS", "_REENTRANT", "_LP64", "NDEBUG",
		// The version macros of the toolkit's headers, and CCCL's configuration.
		"CUDA_VERSION", "CUDART_VERSION", "CUBLAS_VER", "CUDNN_MAJOR", "CUDNN_MINOR", "CUDNN_PATCHLEVEL",
		"CUDNN_VERSION", "CUFFT_VER", "CURAND_VER", "CUSPARSE_VER", "CUSOLVER_VER", "NCCL_MAJOR",
		"NCCL_MINOR", "NCCL_PATCH", "NCCL_SUFFIX", "NCCL_VERSION", "NVTX_VERSION", "NVJITLINK_VERSION",
		"THRUST_", "CUB_", "CCCL_", "_CCCL", "LIBCUDACXX",
	}
)

// builtinMacro returns what gazelle knows of a macro that the translation unit does not define.
func builtinMacro(name string) macro {
	if v, ok := builtinDefined[name]; ok {
		return macro{state: Yes, value: v, known: v != ""}
	}
	if builtinUndefined[name] {
		return macro{state: No}
	}
	for _, p := range unknownPrefixes {
		if strings.HasPrefix(name, p) {
			return macro{state: Maybe}
		}
	}
	return macro{state: No}
}

// ppToken is a token of a #if expression.
type ppToken struct {
	kind byte // 'n' number, 'i' identifier, 'o' operator or punctuator, '?' a value not known
	text string
	num  int64
}

// tokenize splits a #if expression; ok is false when it holds something gazelle does not
// evaluate (a character or string literal, a stray character).
func tokenize(s string) (toks []ppToken, ok bool) {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r' || c == '\n':
			i++
		case isDigit(c) || c == '.' && i+1 < len(s) && isDigit(s[i+1]):
			j := i
			for j < len(s) && (isIdentChar(s[j]) || s[j] == '.' || s[j] == '\'' ||
				(s[j] == '+' || s[j] == '-') && j > i && strings.ContainsRune("eEpP", rune(s[j-1]))) {
				j++
			}
			n, good := parseNumber(s[i:j])
			if !good {
				toks = append(toks, ppToken{kind: '?'})
			} else {
				toks = append(toks, ppToken{kind: 'n', num: n})
			}
			i = j
		case isIdentChar(c):
			j := i
			for j < len(s) && isIdentChar(s[j]) {
				j++
			}
			toks = append(toks, ppToken{kind: 'i', text: s[i:j]})
			i = j
		default:
			op := ""
			for _, o := range []string{"&&", "||", "==", "!=", "<=", ">=", "<<", ">>"} {
				if strings.HasPrefix(s[i:], o) {
					op = o
					break
				}
			}
			if op == "" {
				if !strings.ContainsRune("()!~-+*/%<>&^|?:,", rune(c)) {
					return nil, false
				}
				op = s[i : i+1]
			}
			toks = append(toks, ppToken{kind: 'o', text: op})
			i += len(op)
		}
	}
	return toks, true
}

// parseNumber reads an integer literal of the preprocessor (decimal, octal, hexadecimal or binary,
// with digit separators and u/l suffixes).
func parseNumber(s string) (int64, bool) {
	s = strings.ReplaceAll(s, "'", "")
	s = strings.TrimRight(s, "uUlL")
	base := 10
	switch {
	case strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X"):
		base, s = 16, s[2:]
	case strings.HasPrefix(s, "0b") || strings.HasPrefix(s, "0B"):
		base, s = 2, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, s = 8, s[1:]
	}
	u, err := strconv.ParseUint(s, base, 64)
	if err != nil {
		return 0, false
	}
	return int64(u), true
}

// EvalCondition evaluates the expression of #if or #elif: yes when it is not zero, no when it is,
// maybe when it needs something gazelle does not know (a macro it cannot know, a function-like
// macro, a construct the evaluator does not handle). has tells whether the compile finds a header,
// for __has_include.
func EvalCondition(expr string, m Macros, has func(Include) Tri) Tri {
	expr, ok := replaceHasInclude(expr, has)
	if !ok {
		return Maybe
	}
	toks, ok := tokenize(expr)
	if !ok {
		return Maybe
	}
	toks, ok = expand(toks, m, map[string]bool{}, 0)
	if !ok {
		return Maybe
	}
	p := &exprParser{toks: toks}
	v := p.ternary()
	if p.bad || p.pos != len(p.toks) || !v.known {
		return Maybe
	}
	if v.n != 0 {
		return Yes
	}
	return No
}

// replaceHasInclude replaces each __has_include("h") and __has_include(<h>) of expr by 1 or 0,
// or by a name whose value is not known; ok is false for a malformed one. __has_include_next is
// not known.
func replaceHasInclude(expr string, has func(Include) Tri) (string, bool) {
	const name = "__has_include"
	var b strings.Builder
	for {
		i := strings.Index(expr, name)
		if i < 0 {
			b.WriteString(expr)
			return b.String(), true
		}
		b.WriteString(expr[:i])
		rest := expr[i+len(name):]
		if rest != "" && isIdentChar(rest[0]) || i > 0 && isIdentChar(expr[i-1]) {
			// __has_include_next, or a longer name: left to the evaluator.
			b.WriteString(name)
			expr = rest
			continue
		}
		rest = strings.TrimLeft(rest, spaces)
		if !strings.HasPrefix(rest, "(") {
			return "", false
		}
		end := strings.IndexByte(rest, ')')
		if end < 0 {
			return "", false
		}
		inc, ok := parseIncludeArg(strings.TrimSpace(rest[1:end]))
		if !ok {
			return "", false
		}
		switch has(inc) {
		case Yes:
			b.WriteString(" 1 ")
		case No:
			b.WriteString(" 0 ")
		default:
			b.WriteString(" __has_include_unknown ")
		}
		expr = rest[end+1:]
	}
}

// expand replaces defined X and defined(X) by their values and macro names by their replacement
// (or a value not known); other identifiers are 0 (true and false are 1 and 0). ok is false when
// the expression cannot be expanded (a malformed defined, a recursion too deep).
func expand(toks []ppToken, m Macros, active map[string]bool, depth int) ([]ppToken, bool) {
	if depth > 32 {
		return nil, false
	}
	var out []ppToken
	unknown := ppToken{kind: '?'}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.kind != 'i' {
			out = append(out, t)
			continue
		}
		call := i+1 < len(toks) && toks[i+1].kind == 'o' && toks[i+1].text == "("
		switch {
		case t.text == "defined":
			name, next := "", i+1
			switch {
			case next < len(toks) && toks[next].kind == 'i':
				name = toks[next].text
				i = next
			case next+2 < len(toks) && toks[next].text == "(" && toks[next+1].kind == 'i' && toks[next+2].text == ")":
				name = toks[next+1].text
				i = next + 2
			default:
				return nil, false
			}
			switch m.lookup(name).state {
			case Yes:
				out = append(out, ppToken{kind: 'n', num: 1})
			case No:
				out = append(out, ppToken{kind: 'n', num: 0})
			default:
				out = append(out, unknown)
			}
		case t.text == "true" || t.text == "false":
			n := int64(0)
			if t.text == "true" {
				n = 1
			}
			out = append(out, ppToken{kind: 'n', num: n})
		default:
			d := m.lookup(t.text)
			switch {
			case call && (d.state != No || strings.HasPrefix(t.text, "__has_")):
				// A function-like macro (or __has_include, __has_builtin, ...): its call is a
				// value gazelle does not know.
				end := closingParen(toks, i+1)
				if end < 0 {
					return nil, false
				}
				out = append(out, unknown)
				i = end
			case d.state == No || d.state == Yes && d.function:
				out = append(out, ppToken{kind: 'n', num: 0})
			case d.state == Maybe || !d.known || active[t.text]:
				out = append(out, unknown)
			default:
				repl, ok := tokenize(d.value)
				if !ok || len(repl) == 0 {
					out = append(out, unknown)
					continue
				}
				active[t.text] = true
				sub, ok := expand(repl, m, active, depth+1)
				delete(active, t.text)
				if !ok {
					return nil, false
				}
				out = append(out, ppToken{kind: 'o', text: "("})
				out = append(out, sub...)
				out = append(out, ppToken{kind: 'o', text: ")"})
			}
		}
	}
	return out, true
}

// closingParen returns the index of the ")" matching the "(" at toks[open], or -1.
func closingParen(toks []ppToken, open int) int {
	depth := 0
	for i := open; i < len(toks); i++ {
		if toks[i].kind != 'o' {
			continue
		}
		switch toks[i].text {
		case "(":
			depth++
		case ")":
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// ParseDefine reads what follows #define: NAME, NAME VALUE or NAME(PARAMS) BODY.
func ParseDefine(arg string) (name, value string, function, ok bool) {
	name = FirstIdentifier(arg)
	if name == "" || !strings.HasPrefix(arg, name) {
		return "", "", false, false
	}
	rest := arg[len(name):]
	if strings.HasPrefix(rest, "(") {
		return name, "", true, true
	}
	return name, strings.TrimSpace(rest), false, true
}

// FirstIdentifier returns the identifier that s starts with (after spaces), or "".
func FirstIdentifier(s string) string {
	s = strings.TrimLeft(s, spaces)
	n := 0
	for n < len(s) && isIdentChar(s[n]) {
		n++
	}
	if n == 0 || isDigit(s[0]) {
		return ""
	}
	return s[:n]
}
