package cuda

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bazelbuild/bazel-gazelle/config"
	"github.com/bazelbuild/bazel-gazelle/language"
	"github.com/bazelbuild/bazel-gazelle/rule"

	"github.com/rules-cuda-go/rules_cuda_go/gazelle/cuda/internal/cpp"
)

// File kinds by extension: what cu_library compiles (.cu with nvcc; .cc, .cpp, .cxx and .c with
// the C++ toolchain), and the headers it accepts.
var (
	cudaSourceExts = map[string]bool{".cu": true}
	hostSourceExts = map[string]bool{".cc": true, ".cpp": true, ".cxx": true, ".c": true}
	// cc_library's header extensions, and .cuh.
	headerExts = map[string]bool{
		".cuh": true, ".h": true, ".hh": true, ".hpp": true, ".hxx": true, ".h++": true, ".H": true,
		".inc": true, ".inl": true, ".ipp": true, ".tcc": true, ".tlh": true, ".tli": true,
	}
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

type fileIncludes struct {
	// path is workspace-relative.
	path string
	src  []byte
}

// GenerateRules implements language.Language. See the package documentation for the rules.
func (l *cudaLang) GenerateRules(args language.GenerateArgs) language.GenerateResult {
	var res language.GenerateResult
	cc := getCudaConfig(args.Config)
	if !cc.enabled || (args.File == nil && cc.ownedByAncestor(args.Rel)) {
		return res
	}
	l.impliedIncludeDirs(args.Config, cc)
	g := newGenerator(args, cc, l.preprocessor(args.Config.RepoRoot))
	g.splitTextual(l.includedCu(args.Config, cc))
	p := g.plan()

	// The rules a Go library of the directory may include headers of: not programs' libraries.
	var shared []*rule.Rule
	for _, u := range p.libs {
		r := g.libraryRule(u)
		res.Gen = append(res.Gen, r)
		res.Imports = append(res.Imports, g.includes(r, u.deps))
		if !u.private {
			shared = append(shared, r)
		}
		if u.binary != nil {
			res.Gen = append(res.Gen, u.binary)
			res.Imports = append(res.Imports, nil)
		}
	}
	res.Empty = append(res.Empty, p.empty...)
	if cc.goWiring {
		g.wireGo(shared, p.deleted)
	}
	return res
}

// generator holds what GenerateRules knows about one directory.
type generator struct {
	args language.GenerateArgs
	c    *config.Config
	cc   *cudaConfig

	// existingCu are the cu_library rules of the existing build file.
	existingCu []*rule.Rule
	// claimedSrcs are files that rules other than cu_library list (Go rules included: cgo
	// compiles the .cc files of its package); claimedHdrs are headers that a cc_library lists
	// (only a library provides headers: not a Go rule, which lists every header of its cgo
	// directory, nor a cu_device_image, whose hdrs are just its inputs).
	claimedSrcs, claimedHdrs map[string]bool

	cuSrcs, hostSrcs, headers []string
	// textualSrcs are .cu files that a source includes (see splitTextual): textual_hdrs.
	textualSrcs []string
	// hasCuda: the directory has .cu or .cuh files that are not another rule's.
	hasCuda bool
	// wanted: the directory gets CUDA rules (see wantsLibrary).
	wanted bool
	// contents caches the files read, by name in the directory.
	contents map[string][]byte
	// pp reads the includes that compiles of the directory's files reach (see walkIncludes).
	pp *preprocessor
	// defs and idents cache the definitions and the identifiers of the directory's sources (see
	// definitions and mentions).
	defs   map[string][]cpp.Symbol
	idents map[string]map[string]bool
}

func newGenerator(args language.GenerateArgs, cc *cudaConfig, pp *preprocessor) *generator {
	g := &generator{
		args:        args,
		c:           args.Config,
		cc:          cc,
		claimedSrcs: map[string]bool{},
		claimedHdrs: map[string]bool{},
		contents:    map[string][]byte{},
		pp:          pp,
		defs:        map[string][]cpp.Symbol{},
		idents:      map[string]map[string]bool{},
	}
	claim := func(r *rule.Rule) {
		if g.isKind(r, cuLibraryKind) {
			return
		}
		// Only a library provides its headers: a header that a cc_library lists is that
		// library's, while one that another rule lists (a cu_device_image's or a cc_binary's
		// hdrs, a Go rule's srcs) is just an input of it, and the directory's cu_library still
		// provides it. Imports indexes the headers of the same two kinds.
		providesHdrs := g.isKind(r, ccLibraryKind)
		for _, key := range []string{"srcs", "hdrs", "textual_hdrs"} {
			// Files listed with glob() are claimed too; what cannot be evaluated is not.
			files, _ := attrFiles(r, key, args.Dir, args.Config.ValidBuildFileNames)
			for _, f := range localFiles(files) {
				if headerExts[path.Ext(f)] {
					if providesHdrs {
						g.claimedHdrs[f] = true
					}
				} else {
					g.claimedSrcs[f] = true
				}
			}
		}
	}
	if args.File != nil {
		for _, r := range args.File.Rules {
			if g.isKind(r, cuLibraryKind) {
				g.existingCu = append(g.existingCu, r)
			}
			claim(r)
		}
	}
	for _, r := range args.OtherGen {
		claim(r)
	}

	seen := map[string]bool{}
	files := append(append([]string(nil), args.RegularFiles...), args.GenFiles...)
	sort.Strings(files)
	for _, f := range files {
		if seen[f] || strings.Contains(f, "/") {
			continue
		}
		seen[f] = true
		ext := path.Ext(f)
		switch {
		case cudaSourceExts[ext] && !g.claimedSrcs[f]:
			g.cuSrcs = append(g.cuSrcs, f)
			g.hasCuda = true
		case hostSourceExts[ext] && !g.claimedSrcs[f]:
			g.hostSrcs = append(g.hostSrcs, f)
		case headerExts[ext] && !g.claimedHdrs[f]:
			g.headers = append(g.headers, f)
			if ext == ".cuh" {
				g.hasCuda = true
			}
		}
	}
	g.wanted = g.wantsLibrary()
	// The sources of cuda_program directives are their programs' (see directivePrograms).
	if listed := g.programFiles(); len(listed) > 0 {
		g.cuSrcs = without(g.cuSrcs, listed)
		g.hostSrcs = without(g.hostSrcs, listed)
	}
	return g
}

// without returns the elements of list that are not in drop.
func without(list []string, drop map[string]bool) []string {
	var out []string
	for _, x := range list {
		if !drop[x] {
			out = append(out, x)
		}
	}
	return out
}

// isKind reports whether r is a rule of the given kind, directly or through # gazelle:alias_kind.
func (g *generator) isKind(r *rule.Rule, kind string) bool {
	return r.Kind() == kind || g.c.AliasMap[r.Kind()] == kind
}

func (g *generator) isGoLibrary(r *rule.Rule) bool {
	return g.isKind(r, "go_library") || r.Kind() == goCudaLibraryKind
}

func (g *generator) buildPath() string {
	if g.args.File != nil {
		return g.args.File.Path
	}
	return filepath.Join(g.args.Dir, g.c.DefaultBuildFileName())
}

// libraryRule builds the cu_library of unit u.
func (g *generator) libraryRule(u *libUnit) *rule.Rule {
	old := u.old
	// Headers that the existing rule lists in srcs stay there (private).
	private := map[string]bool{}
	if old != nil {
		for _, f := range localFiles(old.AttrStrings("srcs")) {
			if headerExts[path.Ext(f)] {
				private[f] = true
			}
		}
	}
	srcs := append([]string(nil), u.srcs...)
	var hdrs []string
	for _, h := range u.hdrs {
		if private[h] {
			srcs = append(srcs, h)
		} else {
			hdrs = append(hdrs, h)
		}
	}
	sort.Strings(srcs)
	sort.Strings(hdrs)

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
	if len(srcs) > 0 {
		r.SetAttr("srcs", srcs)
	}
	if len(hdrs) > 0 {
		r.SetAttr("hdrs", hdrs)
	}
	if len(u.textual) > 0 {
		r.SetAttr("textual_hdrs", u.textual)
	}
	if old == nil && !u.private && !g.hasDefaultVisibility() {
		// New rules are public, like the Go extension's libraries; the user owns visibility
		// afterwards.
		r.SetAttr("visibility", []string{"//visibility:public"})
	}
	switch {
	case g.cc.archs != "":
		r.SetAttr("archs", g.cc.archs)
	case old != nil && old.Attr("archs") != nil:
		// Not gazelle's to change without the directive: carry the value over.
		r.SetAttr("archs", old.Attr("archs"))
	}
	if u.alwayslink && (old == nil || old.Attr("alwayslink") == nil) {
		r.SetAttr("alwayslink", true)
	}
	if u.includeDir && len(hdrs) > 0 && (old == nil || old.Attr("includes") == nil) {
		// Dependents include these headers by their names alone (-I here). Set only where the
		// rule has no includes attribute: the attribute is the user's afterwards.
		r.SetAttr("includes", []string{"."})
	}
	g.inferRdc(r, old)
	g.inferCompile(r, old, u)
	g.applyCompileFlags(r, old)
	return r
}

// hasDefaultVisibility reports whether the build file sets package(default_visibility).
func (g *generator) hasDefaultVisibility() bool {
	if g.args.File == nil {
		return false
	}
	for _, r := range g.args.File.Rules {
		if r.Kind() == "package" && r.Attr("default_visibility") != nil {
			return true
		}
	}
	return false
}

// includes reads the #include lines of r's files; deps are labels r depends on whatever they say.
func (g *generator) includes(r *rule.Rule, deps []string) *ruleIncludes {
	ri := &ruleIncludes{own: map[string]bool{}, deps: deps}
	// The directives' macros, then the rule's own: the existing rule's (its defines are the
	// user's), else the new rule's (local_defines and copts inherited or from the directives).
	ri.defines = g.cc.compile.flags()
	existing := r
	if g.args.File != nil {
		for _, e := range g.args.File.Rules {
			if e.Name() == r.Name() && g.isKind(e, cuLibraryKind) {
				existing = e
			}
		}
	}
	ri.defines = append(ri.defines, ruleDefines(existing)...)
	textual := map[string]bool{}
	for _, f := range r.AttrStrings("textual_hdrs") {
		textual[f] = true
	}
	files := append(append(r.AttrStrings("srcs"), r.AttrStrings("hdrs")...), r.AttrStrings("textual_hdrs")...)
	seen := map[string]bool{}
	for _, f := range files {
		if seen[f] {
			continue // a .cu in srcs and textual_hdrs
		}
		seen[f] = true
		p := path.Join(g.args.Rel, f)
		if headerExts[path.Ext(f)] || textual[f] {
			ri.own[p] = true
		}
		src, ok := g.read(f)
		if !ok {
			continue // a generated file: nothing to read yet
		}
		ri.files = append(ri.files, fileIncludes{path: p, src: src})
	}
	return ri
}

// read returns the content of file f of the directory; false when it cannot be read (a file
// that another rule generates).
func (g *generator) read(f string) ([]byte, bool) {
	if src, ok := g.contents[f]; ok {
		return src, src != nil
	}
	src, err := os.ReadFile(filepath.Join(g.args.Dir, filepath.FromSlash(f)))
	if err != nil {
		src = nil
	}
	g.contents[f] = src
	return src, src != nil
}

// cudaSourcesGone reports whether r lists .cu or .cuh files of this directory and none of them
// exists any more.
func (g *generator) cudaSourcesGone(r *rule.Rule) bool {
	listed := false
	for _, key := range []string{"srcs", "hdrs", "textual_hdrs"} {
		for _, f := range localFiles(r.AttrStrings(key)) {
			if ext := path.Ext(f); ext != ".cu" && ext != ".cuh" {
				continue
			}
			listed = true
			if g.exists(f) {
				return false
			}
		}
	}
	return listed
}

// allFilesGone reports whether r lists files of this directory and none of them exists.
func (g *generator) allFilesGone(r *rule.Rule) bool {
	if !plainList(r, "srcs") || !plainList(r, "hdrs") {
		return false
	}
	listed := false
	for _, key := range []string{"srcs", "hdrs", "textual_hdrs"} {
		for _, f := range localFiles(r.AttrStrings(key)) {
			listed = true
			if g.exists(f) {
				return false
			}
		}
	}
	return listed
}

func (g *generator) exists(f string) bool {
	for _, gf := range g.args.GenFiles {
		if gf == f {
			return true
		}
	}
	_, err := os.Stat(filepath.Join(g.args.Dir, filepath.FromSlash(f)))
	return err == nil
}
