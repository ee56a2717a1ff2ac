package cuda

import (
	"log"
	"path"
	"strings"

	bzl "github.com/bazelbuild/buildtools/build"

	"github.com/bazelbuild/bazel-gazelle/rule"
)

// libraryRule emits the cu_library of unit u of the plan (see settleFiles for its files, and
// inferNeeds for its needs). The attributes of the existing rule that gazelle does not own carry
// over as merging keeps them; those it sets only on new rules (visibility, alwayslink,
// includes, rdc, host_srcs_as_cuda) stay the user's once the rule exists.
func libraryRule(d *dirInput, u *libUnit) *rule.Rule {
	old := u.old
	r := rule.NewRule(cuLibraryKind, u.name)
	r.SetSortedAttrs([]string{"srcs", "hdrs", "textual_hdrs", "deps"})
	if u.inherit != nil {
		for _, key := range inheritedAttrs {
			if v := u.inherit.Attr(key); v != nil {
				r.SetAttr(key, v)
			}
		}
	}
	if u.renamedFrom != nil {
		for _, key := range u.renamedFrom.AttrKeys() {
			switch key {
			case "name", "srcs", "hdrs", "textual_hdrs", "deps":
			default:
				r.SetAttr(key, u.renamedFrom.Attr(key))
			}
		}
	}
	if len(u.srcs) > 0 {
		r.SetAttr("srcs", u.srcs)
	}
	if len(u.hdrs) > 0 {
		r.SetAttr("hdrs", u.hdrs)
	}
	if len(u.textual) > 0 {
		r.SetAttr("textual_hdrs", u.textual)
	}
	if old == nil && !u.private && !hasDefaultVisibility(d) {
		// New rules are public, like the Go extension's libraries; the user owns visibility
		// afterwards.
		r.SetAttr("visibility", []string{"//visibility:public"})
	}
	switch {
	case d.cc.archs != "":
		r.SetAttr("archs", d.cc.archs)
	case old != nil && old.Attr("archs") != nil:
		// Not gazelle's to change without the directive: carry the value over.
		r.SetAttr("archs", old.Attr("archs"))
	}
	if u.alwayslink && (old == nil || old.Attr("alwayslink") == nil) {
		r.SetAttr("alwayslink", true)
	}
	if u.includeDir && len(u.hdrs) > 0 && (old == nil || old.Attr("includes") == nil) {
		// Dependents include these headers by their names alone (-I here). Set only where the
		// rule has no includes attribute: the attribute is the user's afterwards.
		r.SetAttr("includes", []string{"."})
	}
	applyNeeds(d, r, old, u.needs)
	applyCompileFlags(d, r, old)
	return r
}

// binaryRule emits the cc_binary of unit u, which links u's library.
func binaryRule(u *libUnit) *rule.Rule {
	b := rule.NewRule(ccBinaryKind, u.binary.name)
	b.SetAttr("deps", []string{":" + u.name})
	if u.binary.requiresCuda {
		b.SetAttr("target_compatible_with", &bzl.CallExpr{X: &bzl.Ident{Name: requiresCuda}})
	}
	return b
}

// hasDefaultVisibility reports whether the build file sets package(default_visibility).
func hasDefaultVisibility(d *dirInput) bool {
	for _, r := range d.rules() {
		if r.Kind() == "package" && r.Attr("default_visibility") != nil {
			return true
		}
	}
	return false
}

// extendedLambdaFlags are the nvcc flags that allow __device__ lambdas.
var extendedLambdaFlags = []string{"--extended-lambda", "--expt-extended-lambda", "-extended-lambda", "-expt-extended-lambda"}

// applyNeeds puts on r, the rule generated for old (nil for a new rule), what its compiles need:
// rdc = True, host_srcs_as_cuda = True, --extended-lambda in copts. An attribute of old is the
// user's and stays; a log line says when it contradicts the code.
func applyNeeds(d *dirInput, r, old *rule.Rule, n compileNeeds) {
	if len(n.rdc) > 0 {
		if old != nil && old.Attr("rdc") != nil {
			if isFalse(old.Attr("rdc")) {
				log.Printf("%s: cu_library %s has rdc = False, but %s: nvcc needs relocatable device code (rdc = True) for that", d.buildPath(), r.Name(), strings.Join(n.rdc, "; "))
			}
		} else {
			r.SetAttr("rdc", true)
		}
	}
	if n.asCuda != "" {
		if old == nil || old.Attr("host_srcs_as_cuda") == nil {
			r.SetAttr("host_srcs_as_cuda", true)
		} else if isFalse(old.Attr("host_srcs_as_cuda")) {
			log.Printf("%s: cu_library %s has host_srcs_as_cuda = False, but %s: only nvcc compiles that (host_srcs_as_cuda = True)", d.buildPath(), r.Name(), n.asCuda)
		}
	}
	if n.lambda != "" {
		setExtendedLambda(d, r, old, n.lambda)
	}
}

// setExtendedLambda adds --extended-lambda to r's copts for the __device__ lambda at where,
// unless the existing rule old has copts of its own (then a log line says what is missing).
func setExtendedLambda(d *dirInput, r, old *rule.Rule, where string) {
	has := func(copts []string) bool {
		for _, c := range copts {
			if contains(extendedLambdaFlags, c) {
				return true
			}
		}
		return false
	}
	if old != nil && old.Attr("copts") != nil && len(d.cc.compile.copts) == 0 {
		if !has(old.AttrStrings("copts")) {
			log.Printf("%s: cu_library %s compiles a __device__ lambda (%s), but its copts lack --extended-lambda: nvcc rejects it without", d.buildPath(), r.Name(), where)
		}
		return
	}
	copts := r.AttrStrings("copts")
	if len(d.cc.compile.copts) > 0 {
		copts = nil // the directive's copts replace inherited ones (see applyCompileFlags)
	}
	if has(copts) || (r.Attr("copts") != nil && copts == nil && len(d.cc.compile.copts) == 0) {
		return // there already, or copts inherited as an expression gazelle does not edit
	}
	r.SetAttr("copts", append(copts, "--extended-lambda"))
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
func applyCompileFlags(d *dirInput, r, old *rule.Rule) {
	cf := d.cc.compile
	if !cf.set() || !compilesSources(r, false, false) {
		return
	}
	if len(cf.defines) > 0 {
		ownList(d, r, old, "local_defines", cf.defines)
	}
	if len(cf.copts) > 0 && compilesSources(r, true, isTrue(r.Attr("host_srcs_as_cuda")) || old != nil && isTrue(old.Attr("host_srcs_as_cuda"))) {
		want := append([]string(nil), cf.copts...)
		for _, c := range r.AttrStrings("copts") {
			for _, x := range extendedLambdaFlags {
				if c == x {
					want = appendNew(want, c) // inferred (see setExtendedLambda)
				}
			}
		}
		ownList(d, r, old, "copts", want)
	}
}

// ownList sets the list attribute key of r (and of the existing rule old) to want, followed by
// the elements of old's list that carry a # keep comment. An existing value that is not a plain
// list of strings is the user's: it stays, and a log line says the directive does not reach it.
func ownList(d *dirInput, r, old *rule.Rule, key string, want []string) {
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
			log.Printf("%s: cu_library %s: %s is not a plain list; the values of # gazelle:%s and # gazelle:%s are not applied to it", d.buildPath(), old.Name(), key, directiveDefine, directiveCopts)
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
