package cuda

import (
	"log"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bazelbuild/bazel-gazelle/config"
	"github.com/bazelbuild/bazel-gazelle/language"
	"github.com/bazelbuild/bazel-gazelle/rule"
)

// File kinds by extension: what cu_library compiles, and the headers it accepts.
var (
	cudaSourceExts = map[string]bool{".cu": true}
	hostSourceExts = map[string]bool{".cc": true, ".cpp": true, ".cxx": true}
	headerExts     = map[string]bool{".cuh": true, ".h": true, ".hh": true, ".hpp": true, ".inc": true}
)

// ruleIncludes is what GenerateRules passes to Resolve for a cu_library: the sources of its
// files, the headers the rule itself provides, and the macros its compiles define.
type ruleIncludes struct {
	// files are the rule's sources and headers that could be read, in order.
	files []fileIncludes
	// own are the workspace-relative paths of the rule's own headers (hdrs and private ones).
	own map[string]bool
	// defines are the existing rule's macros, as ruleDefines returns them.
	defines []string
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
	g := newGenerator(args, cc)
	g.splitTextual(l.includedCu(args.Config, cc))

	name, adopted, renamedFrom := g.pickName()
	var gen *rule.Rule
	if name != "" && g.wanted {
		gen = g.generateLibrary(name, adopted, renamedFrom)
		res.Gen = append(res.Gen, gen)
		res.Imports = append(res.Imports, g.includes(gen))
	}
	g.generateBinary(gen, &res)

	// Empty rules: gazelle deletes each one that ends up with no srcs and no hdrs.
	deleted := map[string]bool{}
	for _, e := range g.existingCu {
		if e.ShouldKeep() || (gen != nil && e.Name() == gen.Name()) {
			continue
		}
		var empty bool
		switch {
		case renamedFrom != nil && e == renamedFrom:
			empty = true
		case name != "" && e.Name() == name:
			// The directory's library, without CUDA sources (or any of its files) now.
			empty = g.cudaSourcesGone(e) || (!g.wanted && g.allFilesGone(e))
		default:
			empty = g.allFilesGone(e)
		}
		if empty {
			res.Empty = append(res.Empty, rule.NewRule(cuLibraryKind, e.Name()))
			deleted[e.Name()] = true
		}
	}

	if cc.goWiring {
		g.wireGo(gen, deleted)
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
	// wanted: the directory gets a cu_library (see wantsLibrary).
	wanted bool
	// contents caches the files read, by name in the directory.
	contents map[string][]byte
}

func newGenerator(args language.GenerateArgs, cc *cudaConfig) *generator {
	g := &generator{
		args:        args,
		c:           args.Config,
		cc:          cc,
		claimedSrcs: map[string]bool{},
		claimedHdrs: map[string]bool{},
		contents:    map[string][]byte{},
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
	return g
}

// isKind reports whether r is a rule of the given kind, directly or through # gazelle:alias_kind.
func (g *generator) isKind(r *rule.Rule, kind string) bool {
	return r.Kind() == kind || g.c.AliasMap[r.Kind()] == kind
}

func (g *generator) isGoLibrary(r *rule.Rule) bool {
	return g.isKind(r, "go_library") || r.Kind() == goCudaLibraryKind
}

// pickName chooses the cu_library of the directory: the one the naming pattern gives (with
// "_cu" appended when another rule of the directory, such as the Go library, has that name),
// else the only cu_library that the directory's go_cuda_library lists in cu_deps, else the only
// cu_library of the build file. With several cu_library rules and none of those, the directory
// is hand-written and name is "". adopted is the existing rule chosen, if any; renamedFrom is set
// when the only existing cu_library must give its name up to a rule another extension generates.
func (g *generator) pickName() (name string, adopted, renamedFrom *rule.Rule) {
	rel := g.args.Rel
	dirname := g.dirname()
	taken := map[string]bool{}
	for _, r := range g.args.OtherGen {
		taken[r.Name()] = true
	}
	if g.args.File != nil {
		for _, r := range g.args.File.Rules {
			if !g.isKind(r, cuLibraryKind) {
				taken[r.Name()] = true
			}
		}
	}
	want := g.cc.libraryName(dirname)
	if taken[want] {
		want += "_cu"
	}

	byName := map[string]*rule.Rule{}
	for _, r := range g.existingCu {
		byName[r.Name()] = r
	}
	handWritten := func(r *rule.Rule) bool {
		return !plainList(r, "srcs") || !plainList(r, "hdrs")
	}
	choose := func(r *rule.Rule) (string, *rule.Rule, *rule.Rule) {
		if handWritten(r) {
			return "", nil, nil
		}
		return r.Name(), r, nil
	}

	if r := byName[want]; r != nil {
		return choose(r)
	}
	referenced := map[string]bool{}
	if g.args.File != nil {
		for _, r := range g.args.File.Rules {
			if !g.isGoLibrary(r) {
				continue
			}
			for _, dep := range r.AttrStrings("cu_deps") {
				if n, ok := localName(dep, rel); ok && byName[n] != nil {
					referenced[n] = true
				}
			}
		}
	}
	if len(referenced) == 1 {
		for n := range referenced {
			return choose(byName[n])
		}
	}
	switch len(g.existingCu) {
	case 0:
		return want, nil, nil
	case 1:
		r := g.existingCu[0]
		if handWritten(r) {
			return "", nil, nil
		}
		for _, o := range g.args.OtherGen {
			if o.Name() == r.Name() {
				// Another extension generates a rule of this name (a Go library added to the
				// directory): the cu_library moves to the pattern's name.
				if byName[want] == nil && g.wanted {
					log.Printf("%s: renaming cu_library %s to %s: the %s generated for this directory has its name", g.buildPath(), r.Name(), want, o.Kind())
					return want, nil, r
				}
				return "", nil, nil
			}
		}
		return r.Name(), r, nil
	}
	return "", nil, nil
}

func (g *generator) buildPath() string {
	if g.args.File != nil {
		return g.args.File.Path
	}
	return filepath.Join(g.args.Dir, g.c.DefaultBuildFileName())
}

// generateLibrary builds the directory's cu_library.
func (g *generator) generateLibrary(name string, adopted, renamedFrom *rule.Rule) *rule.Rule {
	old := adopted
	if renamedFrom != nil {
		old = renamedFrom
	}
	// Headers that the existing rule lists in srcs stay there (private).
	private := map[string]bool{}
	if old != nil {
		for _, f := range localFiles(old.AttrStrings("srcs")) {
			if headerExts[path.Ext(f)] {
				private[f] = true
			}
		}
	}
	srcs := append(append([]string(nil), g.cuSrcs...), g.hostSrcs...)
	var hdrs []string
	for _, h := range g.headers {
		if private[h] {
			srcs = append(srcs, h)
		} else {
			hdrs = append(hdrs, h)
		}
	}
	sort.Strings(srcs)

	r := rule.NewRule(cuLibraryKind, name)
	r.SetSortedAttrs([]string{"srcs", "hdrs", "textual_hdrs", "deps"})
	if renamedFrom != nil {
		for _, key := range renamedFrom.AttrKeys() {
			switch key {
			case "name", "srcs", "hdrs", "textual_hdrs", "deps":
			default:
				r.SetAttr(key, renamedFrom.Attr(key))
			}
		}
	}
	if len(srcs) > 0 {
		r.SetAttr("srcs", srcs)
	}
	if len(hdrs) > 0 {
		r.SetAttr("hdrs", hdrs)
	}
	if len(g.textualSrcs) > 0 {
		r.SetAttr("textual_hdrs", g.textualSrcs)
	}
	if old == nil && !g.hasDefaultVisibility() {
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
	if g.isIncludeDir() && (old == nil || old.Attr("includes") == nil) {
		// Dependents include these headers by their names alone (-I here). Set only where the
		// rule has no includes attribute: the attribute is the user's afterwards.
		r.SetAttr("includes", []string{"."})
	}
	g.inferRdc(r, old)
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

// includes reads the #include lines of r's files.
func (g *generator) includes(r *rule.Rule) *ruleIncludes {
	ri := &ruleIncludes{own: map[string]bool{}}
	if g.args.File != nil {
		for _, e := range g.args.File.Rules {
			if e.Name() == r.Name() {
				ri.defines = ruleDefines(e)
			}
		}
	}
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
