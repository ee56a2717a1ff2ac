package cuda

import (
	"log"
	"strings"

	"github.com/bazelbuild/bazel-gazelle/rule"
)

// compileFlags are what a Makefile or CMakeLists passes to every compile of a tree of sources,
// declared with directives: the macros of `# gazelle:cuda_define NAME[=VALUE]` (-DNAME[=VALUE],
// CMake's add_compile_definitions) and the nvcc options of `# gazelle:cuda_copts FLAGS`
// (NVCCFLAGS, CMAKE_CUDA_FLAGS). Both are inherited by subdirectories; an empty value clears
// what the parent directories set. The slices are never modified in place: a subdirectory's
// configuration shares them with its parent's until it changes them.
type compileFlags struct {
	// defines are NAME or NAME=VALUE, in order; a later directive for the same NAME replaces
	// the earlier one in place.
	defines []string
	// copts are nvcc options, in order.
	copts []string
}

// set reports whether a directive gives macros or options to this directory.
func (cf compileFlags) set() bool { return len(cf.defines) > 0 || len(cf.copts) > 0 }

// flags returns the macros the directives give a compile, as the -DNAME[=VALUE] and -UNAME flags
// that ruleDefines returns: the defines, then the -D and -U options of the copts.
func (cf compileFlags) flags() []string {
	out := make([]string, 0, len(cf.defines))
	for _, d := range cf.defines {
		out = append(out, "-D"+d)
	}
	for i := 0; i < len(cf.copts); i++ {
		o := cf.copts[i]
		switch {
		case (o == "-D" || o == "-U") && i+1 < len(cf.copts):
			out = append(out, o+cf.copts[i+1])
			i++
		case strings.HasPrefix(o, "-D") && len(o) > 2, strings.HasPrefix(o, "-U") && len(o) > 2:
			out = append(out, o)
		}
	}
	return out
}

// withDefine returns cf with the macros of a cuda_define directive added: each
// whitespace-separated NAME or NAME=VALUE of its value; an empty value clears the defines.
func (cf compileFlags) withDefine(f *rule.File, d rule.Directive) compileFlags {
	fields := strings.Fields(d.Value)
	if len(fields) == 0 {
		cf.defines = nil
		return cf
	}
	defines := append([]string(nil), cf.defines...)
	for _, def := range fields {
		name, _, _ := strings.Cut(def, "=")
		if !isIdentifier(name) {
			log.Printf("%s: # gazelle:%s %q: %q is not NAME or NAME=VALUE", f.Path, d.Key, d.Value, def)
			continue
		}
		replaced := false
		for i, old := range defines {
			if n, _, _ := strings.Cut(old, "="); n == name {
				defines[i], replaced = def, true
			}
		}
		if !replaced {
			defines = append(defines, def)
		}
	}
	cf.defines = defines
	return cf
}

// withCopts returns cf with the options of a cuda_copts directive appended (split at whitespace;
// single or double quotes keep an option with spaces together); an empty value clears them.
func (cf compileFlags) withCopts(f *rule.File, d rule.Directive) compileFlags {
	opts, ok := splitFlags(d.Value)
	if !ok {
		log.Printf("%s: # gazelle:%s %q: unterminated quote; ignored", f.Path, d.Key, d.Value)
		return cf
	}
	if len(opts) == 0 {
		cf.copts = nil
		return cf
	}
	cf.copts = append(append([]string(nil), cf.copts...), opts...)
	return cf
}

// splitFlags splits s at whitespace outside single and double quotes, and removes the quotes.
func splitFlags(s string) ([]string, bool) {
	var out []string
	var cur strings.Builder
	inWord := false
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			cur.WriteByte(c)
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == ' ' || c == '\t':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, false
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out, true
}

// isIdentifier reports whether s is a C identifier.
func isIdentifier(s string) bool {
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// ruleDefines returns the macros a rule's compiles get from its own attributes, as -DNAME[=VALUE]
// and -UNAME flags, in order: defines and local_defines, then -D and -U options of copts and
// host_copts. Values that are not plain lists of strings (a select()) are not read.
func ruleDefines(r *rule.Rule) []string {
	if r == nil {
		return nil
	}
	var out []string
	for _, key := range []string{"defines", "local_defines"} {
		for _, d := range r.AttrStrings(key) {
			out = append(out, "-D"+d)
		}
	}
	for _, key := range []string{"copts", "host_copts"} {
		opts := r.AttrStrings(key)
		for i := 0; i < len(opts); i++ {
			o := opts[i]
			if o != "-D" && o != "-U" {
				if strings.HasPrefix(o, "-D") || strings.HasPrefix(o, "-U") {
					out = append(out, o)
				}
				continue
			}
			if i+1 < len(opts) {
				out = append(out, o+opts[i+1])
				i++
			}
		}
	}
	return out
}
