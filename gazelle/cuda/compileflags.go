package cuda

import (
	"log"
	"path"
	"strings"

	bzl "github.com/bazelbuild/buildtools/build"

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

// applyCompileFlags puts the directives' macros and options on r, the rule generated for old
// (nil for a new rule): while cuda_define is in effect, the local_defines of a rule that compiles
// sources is the directives' defines followed by the elements of the existing list marked # keep;
// while cuda_copts is in effect, the copts of a rule that nvcc compiles sources of (cu_library's
// copts are nvcc's) is the directives' options, then those gazelle infers (--extended-lambda),
// then the existing elements marked # keep. Outside the directives' scope both attributes are the
// user's and are not touched.
//
// local_defines, not defines: a Makefile's -D reaches the compiles of its own sources only, and
// the directive gives the macro to every rule below it already; defines would also hand it to
// every dependent outside that tree (a Go package, another repository's rules).
//
// The attributes cannot be mergeable (outside the directives they are the user's), so an existing
// rule old gets the value directly; merging then keeps it.
func (g *generator) applyCompileFlags(r, old *rule.Rule) {
	cf := g.cc.compile
	if !cf.set() || !compilesSources(r, false, false) {
		return
	}
	if len(cf.defines) > 0 {
		g.ownList(r, old, "local_defines", cf.defines)
	}
	if len(cf.copts) > 0 && compilesSources(r, true, isTrue(r.Attr("host_srcs_as_cuda")) || old != nil && isTrue(old.Attr("host_srcs_as_cuda"))) {
		want := append([]string(nil), cf.copts...)
		for _, c := range r.AttrStrings("copts") {
			for _, x := range extendedLambdaFlags {
				if c == x {
					want = appendNew(want, c) // inferred (see inferExtendedLambda)
				}
			}
		}
		g.ownList(r, old, "copts", want)
	}
}

// ownList sets the list attribute key of r (and of the existing rule old) to want, followed by
// the elements of old's list that carry a # keep comment. An existing value that is not a plain
// list of strings is the user's: it stays, and a log line says the directive does not reach it.
func (g *generator) ownList(r, old *rule.Rule, key string, want []string) {
	list := &bzl.ListExpr{ForceMultiLine: false}
	seen := map[string]bool{}
	for _, w := range want {
		if !seen[w] {
			seen[w] = true
			list.List = append(list.List, &bzl.StringExpr{Value: w})
		}
	}
	if old != nil && old.Attr(key) != nil {
		l, ok := old.Attr(key).(*bzl.ListExpr)
		if !ok || !plainList(old, key) {
			log.Printf("%s: cu_library %s: %s is not a plain list; the values of # gazelle:%s and # gazelle:%s are not applied to it", g.buildPath(), old.Name(), key, directiveDefine, directiveCopts)
			r.SetAttr(key, old.Attr(key))
			return
		}
		for _, e := range l.List {
			if s, ok := e.(*bzl.StringExpr); ok && rule.ShouldKeep(e) && !seen[s.Value] {
				seen[s.Value] = true
				list.List = append(list.List, e)
			}
		}
	}
	r.SetAttr(key, list)
	if old != nil {
		old.SetAttr(key, list)
	}
}

// compilesSources reports whether r's srcs list a file that it compiles (not only private
// headers); with cuda, a file that nvcc compiles: a .cu file, or a C++ source when r has
// host_srcs_as_cuda = True (asCuda).
func compilesSources(r *rule.Rule, cuda, asCuda bool) bool {
	for _, f := range r.AttrStrings("srcs") {
		ext := path.Ext(f)
		if cudaSourceExts[ext] || hostSourceExts[ext] && (!cuda || asCuda && ext != ".c") {
			return true
		}
	}
	return false
}

func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// isTrue reports whether e is the literal True.
func isTrue(e bzl.Expr) bool {
	id, ok := e.(*bzl.Ident)
	return ok && id.Name == "True"
}
