package cuda

import (
	"path"

	"github.com/bazelbuild/bazel-gazelle/rule"
)

// ruleIncludes is what GenerateRules passes to Resolve for a cu_library: the sources of its
// files, the headers the rule itself provides, the macros its compiles define, and deps it always
// has.
type ruleIncludes struct {
	// files are the rule's sources and headers that could be read, in order.
	files []fileIncludes
	// own are the workspace-relative paths of the rule's own headers (hdrs and private ones).
	own map[string]bool
	// defines are the existing rule's macros, as ruleDefines returns them.
	defines []string
	// deps are labels (relative to the rule's package) that deps lists whatever the includes
	// say: a program's library depends on the directory's library, whose functions it may call
	// through declarations of its own.
	deps []string
}

// fileIncludes is one file of a rule, with its content.
type fileIncludes struct {
	// path is workspace-relative.
	path string
	src  []byte
}

// ruleImports reads the #include lines of r's files, for Resolve; deps are labels r depends on
// whatever they say.
func ruleImports(d *dirInput, r *rule.Rule, deps []string) *ruleIncludes {
	ri := &ruleIncludes{own: map[string]bool{}, deps: deps}
	// The directives' macros, then the rule's own: the existing rule's (its defines are the
	// user's), else the new rule's (local_defines and copts inherited or from the directives).
	ri.defines = d.cc.compile.flags()
	existing := r
	for _, e := range d.rules() {
		if e.Name() == r.Name() && d.isKind(e, cuLibraryKind) {
			existing = e
		}
	}
	ri.defines = append(ri.defines, ruleDefines(existing)...)
	textual := map[string]bool{}
	for _, f := range r.AttrStrings("textual_hdrs") {
		textual[f] = true
	}
	files := concat(r.AttrStrings("srcs"), r.AttrStrings("hdrs"), r.AttrStrings("textual_hdrs"))
	seen := map[string]bool{}
	for _, f := range files {
		if seen[f] {
			continue // a .cu in srcs and textual_hdrs
		}
		seen[f] = true
		p := path.Join(d.rel, f)
		if headerExts[path.Ext(f)] || textual[f] {
			ri.own[p] = true
		}
		src, ok := d.srcs.read(f)
		if !ok {
			continue // a generated file: nothing to read yet
		}
		ri.files = append(ri.files, fileIncludes{path: p, src: src})
	}
	return ri
}
