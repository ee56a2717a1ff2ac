package cuda

import (
	"log"
	"path"
	"sort"

	bzl "github.com/bazelbuild/buildtools/build"

	"github.com/bazelbuild/bazel-gazelle/rule"

	"github.com/rules-cuda-go/rules_cuda_go/gazelle/cuda/internal/cpp"
)

const ccBinaryKind = "cc_binary"

// requiresCuda is the symbol of rules_cuda_go's defs.bzl that new cc_binary rules use as
// target_compatible_with: a build without CUDA (--config=cpu) compiles no kernels and no main(),
// so it skips the binary instead of failing to link it.
const requiresCuda = "requires_cuda"

// program is a source defining main() that gets a cu_library and a cc_binary of its own.
type program struct {
	src string
	// engine: the source defines what the directory's shared main() reads (see engineFiles).
	engine bool
	// pair are the existing rules of the program, nil for a new one.
	pair *programPair
}

// programPair is a cc_binary with no srcs whose only dep is a cu_library of the directory that
// compiles one source and has no hdrs: the rules of one program.
type programPair struct {
	bin, lib *rule.Rule
	src      string
}

// generatedNames reports whether the pair is named as addPrograms names programs: the library
// is the binary's name with "_lib" appended.
func (pp *programPair) generatedNames() bool {
	return pp.lib.Name() == pp.bin.Name()+"_lib"
}

// mains returns the sources of the directory (not another rule's) that define a top-level
// main(), sorted.
func (g *generator) mains() []string {
	var out []string
	for _, f := range append(append([]string(nil), g.cuSrcs...), g.hostSrcs...) {
		if src, ok := g.read(f); ok && cpp.ScanSource(src).DefinesMain {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

// programPairs returns the program pairs of the build file; the directory's library (the
// naming pattern's name) is in none.
func (g *generator) programPairs() []*programPair {
	if g.args.File == nil {
		return nil
	}
	libs := map[string]*rule.Rule{}
	for _, r := range g.existingCu {
		libs[r.Name()] = r
	}
	// The directory's library is no program's, even with one source: its binary is addBinary's.
	delete(libs, g.wantedName())
	var out []*programPair
	seen := map[*rule.Rule]bool{}
	declared := map[string]bool{}
	for _, d := range g.cc.programs {
		declared[d.name] = true
	}
	for _, b := range g.args.File.Rules {
		if declared[b.Name()] || !g.isKind(b, ccBinaryKind) || b.Attr("srcs") != nil || !plainList(b, "deps") {
			continue
		}
		deps := b.AttrStrings("deps")
		if len(deps) != 1 {
			continue
		}
		n, ok := localName(deps[0], g.args.Rel)
		lib := libs[n]
		if !ok || lib == nil || seen[lib] || handWritten(lib) || lib.Attr("hdrs") != nil || lib.Attr("textual_hdrs") != nil {
			continue
		}
		srcs := lib.AttrStrings("srcs")
		if len(srcs) != 1 {
			continue
		}
		f := localFiles(srcs)
		if len(f) != 1 || path.Dir(f[0]) != "." || !(cudaSourceExts[path.Ext(f[0])] || hostSourceExts[path.Ext(f[0])]) {
			continue
		}
		seen[lib] = true
		out = append(out, &programPair{bin: b, lib: lib, src: f[0]})
	}
	return out
}

// selectPrograms returns the programs of the directory. With binaries enabled, in a directory
// that gets CUDA rules: every source defining main() when there are several, the engines (the
// sources that define what the directory's shared main() reads, see engineFiles), and any such
// source that an existing program pair compiles (isMain says which sources are programs). A pair
// named as addPrograms names them whose source is a program no more (or is gone) is deleted; any
// other pair is left alone, and its source is taken (no other rule lists it). handled gets the
// pairs' libraries.
func (g *generator) selectPrograms(p *plan, mains []string, isMain map[string]bool, engines []string, handled map[*rule.Rule]bool, taken map[string]bool) []*program {
	on := g.cc.binaries && g.wanted
	var programs []*program
	bySrc := map[string]*program{}
	add := func(src string) *program {
		pr := &program{src: src}
		programs = append(programs, pr)
		bySrc[src] = pr
		return pr
	}
	if on && len(mains) >= 2 {
		for _, m := range mains {
			add(m)
		}
	}
	for _, e := range engines {
		add(e).engine = true
	}
	for _, pp := range g.programPairs() {
		handled[pp.lib] = true
		p.pairBinaries[pp.bin.Name()] = true
		pr := bySrc[pp.src]
		switch {
		case on && isMain[pp.src] && (pr == nil || pr.pair == nil):
			if pr == nil {
				pr = add(pp.src)
			}
			pr.pair = pp
		case on && !isMain[pp.src] && pp.generatedNames() && !pp.bin.ShouldKeep() && !pp.lib.ShouldKeep():
			p.remove(ccBinaryKind, pp.bin.Name())
			p.remove(cuLibraryKind, pp.lib.Name())
		default:
			taken[pp.src] = true
		}
	}
	sort.Slice(programs, func(i, j int) bool { return programs[i].src < programs[j].src })
	return programs
}

// addPrograms adds, for each program, a cu_library compiling its source and a cc_binary linking
// that library. An existing pair keeps its names; a new program's binary is named after its
// source (gelu.cu: gelu), or with "_bin" appended when another rule has that name, and its
// library is the binary's name with "_lib" appended. The library depends on what its includes
// resolve to and on the directory's library when that compiles sources (the program may call
// their functions through declarations of its own); a new one starts with the compile settings
// (inheritedAttrs) of the directory's existing library.
func (g *generator) addPrograms(p *plan, programs []*program) {
	dirDeps := p.dirDeps()
	for _, pr := range programs {
		var bin, lib string
		var old *rule.Rule
		if pr.pair != nil {
			bin, lib, old = pr.pair.bin.Name(), pr.pair.lib.Name(), pr.pair.lib
		} else {
			s := stem(pr.src)
			for _, b := range []string{s, s + "_bin"} {
				if !p.used[b] && !p.used[b+"_lib"] {
					bin, lib = b, b+"_lib"
					break
				}
			}
			if bin == "" {
				log.Printf("%s: %s defines main(), but the rules %s and %s_bin (and their libraries with _lib) have other rules' names: no cc_binary generated; rename the file or those rules", g.buildPath(), pr.src, s, s)
				continue
			}
		}
		p.used[bin] = true
		p.used[lib] = true
		b := rule.NewRule(ccBinaryKind, bin)
		b.SetAttr("deps", []string{":" + lib})
		if pr.pair == nil {
			b.SetAttr("target_compatible_with", requiresCudaCall())
		}
		u := &libUnit{name: lib, old: old, srcs: []string{pr.src}, private: true, deps: dirDeps, binary: b}
		if pr.engine && p.dirLib != nil {
			u.alwayslink = g.usedBy(u.srcs, p.dirLib.srcs)
		}
		if pr.pair == nil && p.dirLib != nil && p.dirLib.old != nil {
			// A new program's compiles start with the settings of the directory's library,
			// which compiled its source before (or compiles its neighbours).
			u.inherit = p.dirLib.old
		}
		p.libs = append(p.libs, u)
	}
}

// dirDeps returns the deps of a program's library on the directory's library: none when there
// is none or it compiles no sources (its headers are found through includes).
func (p *plan) dirDeps() []string {
	if p.dirLib != nil {
		for _, f := range p.dirLib.srcs {
			if !headerExts[path.Ext(f)] {
				return []string{":" + p.dirLib.name}
			}
		}
	}
	return nil
}

func requiresCudaCall() bzl.Expr {
	return &bzl.CallExpr{X: &bzl.Ident{Name: requiresCuda}}
}

// addBinary adds, with binaries enabled, the cc_binary of the directory's library when exactly
// one of its sources defines main() (mains), named by the cuda_binary_naming pattern, unless
// another cc_binary or cc_test of the build file links the library already. A cc_binary of that
// name whose deps are only a cu_library of the directory is deleted when the library has no
// main() any more.
func (g *generator) addBinary(p *plan, mains []string) {
	if !g.cc.binaries {
		return
	}
	name := g.cc.binaryName(g.dirname())
	var existing *rule.Rule
	if g.args.File != nil {
		for _, r := range g.args.File.Rules {
			if r.Name() == name {
				existing = r
			}
		}
	}
	if existing != nil && (!g.isKind(existing, ccBinaryKind) || existing.ShouldKeep() || p.deleted[name] || p.pairBinaries[name]) {
		return
	}
	lib := p.dirLib
	switch {
	case len(mains) == 1 && lib != nil && name == lib.name:
		log.Printf("%s: %s defines main(), but the cc_binary would have the cu_library's name %s; set # gazelle:%s to another pattern", g.buildPath(), mains[0], name, directiveBinNaming)
	case len(mains) == 1 && lib != nil:
		for _, r := range g.args.OtherGen {
			if r.Name() == name {
				log.Printf("%s: %s defines main(), but the %s generated for this directory is named %s; set # gazelle:%s to another pattern", g.buildPath(), mains[0], r.Kind(), name, directiveBinNaming)
				return
			}
		}
		if g.linkedElsewhere(lib.name, name) {
			return
		}
		if existing == nil && p.used[name] {
			log.Printf("%s: %s defines main(), but a rule generated for this directory is named %s; set # gazelle:%s to another pattern", g.buildPath(), mains[0], name, directiveBinNaming)
			return
		}
		b := rule.NewRule(ccBinaryKind, name)
		b.SetAttr("deps", []string{":" + lib.name})
		if existing == nil {
			b.SetAttr("target_compatible_with", requiresCudaCall())
		}
		lib.binary = b
		p.used[name] = true
	case len(mains) > 1:
		// Binaries enabled but the directory gets no programs: it is not CUDA code.
	case existing != nil && g.linksOnlyLocalLibrary(existing):
		p.remove(ccBinaryKind, name)
	}
}

// linkedElsewhere reports whether a cc_binary or cc_test of the build file other than the one
// named bin lists the cu_library lib in deps: the program has a hand-written binary.
func (g *generator) linkedElsewhere(lib, bin string) bool {
	if g.args.File == nil {
		return false
	}
	for _, r := range g.args.File.Rules {
		if r.Name() == bin || !(g.isKind(r, ccBinaryKind) || g.isKind(r, "cc_test")) {
			continue
		}
		for _, dep := range r.AttrStrings("deps") {
			if n, ok := localName(dep, g.args.Rel); ok && n == lib {
				return true
			}
		}
	}
	return false
}

// linksOnlyLocalLibrary reports whether binary b has no srcs and its deps are one cu_library of
// this directory (or a rule that no longer exists): the shape addBinary writes.
func (g *generator) linksOnlyLocalLibrary(b *rule.Rule) bool {
	deps := b.AttrStrings("deps")
	if b.Attr("srcs") != nil || len(deps) != 1 {
		return false
	}
	n, ok := localName(deps[0], g.args.Rel)
	if !ok {
		return false
	}
	for _, r := range g.args.File.Rules {
		if r.Name() == n {
			return g.isKind(r, cuLibraryKind)
		}
	}
	return true
}

// dirname is the base name of the directory ({dirname} of the naming patterns); the repository's
// name at the root.
func (g *generator) dirname() string {
	if g.args.Rel == "" {
		if g.c.RepoName != "" {
			return g.c.RepoName
		}
		return path.Base(g.c.RepoRoot)
	}
	return path.Base(g.args.Rel)
}
