package cuda

import (
	"log"
	"path"
	"sort"
	"strings"

	"github.com/bazelbuild/bazel-gazelle/rule"
)

// plan is what GenerateRules writes for one directory: the cu_library rules (the directory's
// library, the rules of a header collection, the libraries of programs), each with the cc_binary
// that links it, if any, and the rules to delete.
type plan struct {
	libs []*libUnit
	// empty are the rules to delete; deleted are their names.
	empty   []*rule.Rule
	deleted map[string]bool
	// pairBinaries are the names of the cc_binary rules of existing program pairs.
	pairBinaries map[string]bool
	// dirLib is the directory's library, nil when there is none (a header collection, a
	// directory of programs only, a hand-written directory).
	dirLib *libUnit
	// used are the names of the build file's rules that stay, of the rules other extensions
	// generate and of the rules planned so far: a new rule must have another name.
	used map[string]bool
	// handWritten: the directory's cu_library rules are the user's (see pickName); nothing is
	// generated, only rules none of whose files exists are deleted.
	handWritten bool
}

// libUnit is one cu_library to generate.
type libUnit struct {
	name string
	// old is the existing rule it updates (its private headers, archs, includes and rdc carry
	// over); renamedFrom is an existing rule whose attributes move to this name.
	old, renamedFrom *rule.Rule
	srcs, hdrs       []string
	// textual are the .cu files that sources include (textual_hdrs).
	textual []string
	// includeDir: dependents include the headers by their names alone (includes = ["."]).
	includeDir bool
	// private: no visibility attribute on a new rule (a program's library).
	private bool
	// deps are labels that deps always lists (see ruleIncludes.deps).
	deps []string
	// binary is the cc_binary that links the library, nil for none.
	binary *rule.Rule
	// inherit is an existing rule whose compile settings (inheritedAttrs) a new rule starts with.
	inherit *rule.Rule
	// alwayslink is set on a program's library that defines what the directory's library (with
	// main()) uses: it comes before that library on the link line, so the linker would not take its
	// object from the archive otherwise.
	alwayslink bool
}

// inheritedAttrs are the attributes of a directory's library that a new program's library
// starts with.
var inheritedAttrs = []string{"copts", "host_copts", "local_defines"}

func (p *plan) remove(kind, name string) {
	p.empty = append(p.empty, rule.NewRule(kind, name))
	p.deleted[name] = true
	delete(p.used, name)
}

// freeName returns the first of the names that no rule uses, or "".
func (p *plan) freeName(names ...string) string {
	for _, n := range names {
		if !p.used[n] {
			return n
		}
	}
	return ""
}

// plan decides the rules of the directory:
//   - programs: with binaries enabled, each source defining main() in a directory with several
//     of them, each source that defines what the directory's only main() reads (see
//     engineFiles), or one that an existing program pair (see programPairs) compiles, gets its
//     own cu_library and cc_binary (see addPrograms); so does each cuda_program directive (see
//     directivePrograms);
//   - sources that would define one symbol twice in one rule are left out (see dropDuplicates);
//   - the other files form a header collection (see planCollection) when they are two or more
//     headers and host sources without a .cu file or a main(), else the directory's library
//     (planLibrary), with a cc_binary when one of its sources defines main(). With one header
//     and no .cu file, the library compiles only the host sources that include nothing missing
//     (see compilable).
func (g *generator) plan() *plan {
	p := &plan{deleted: map[string]bool{}, used: map[string]bool{}, pairBinaries: map[string]bool{}}
	if g.args.File != nil {
		for _, r := range g.args.File.Rules {
			p.used[r.Name()] = true
		}
	}
	for _, r := range g.args.OtherGen {
		p.used[r.Name()] = true
	}

	mains := g.mains()
	isMain := setOf(mains...)
	handled := map[*rule.Rule]bool{}
	taken := map[string]bool{}
	declared := g.directivePrograms(p)
	for _, u := range declared {
		if u.old != nil {
			handled[u.old] = true
		}
	}
	engines := g.engineFiles(append(append([]string(nil), g.cuSrcs...), g.hostSrcs...), mains)
	isProgramSrc := setOf(append(append([]string(nil), mains...), engines...)...)
	programs := g.selectPrograms(p, mains, isProgramSrc, engines, handled, taken)
	isProgram := map[string]bool{}
	for _, pr := range programs {
		isProgram[pr.src] = true
	}

	var pool []string
	for _, f := range append(append([]string(nil), g.cuSrcs...), g.hostSrcs...) {
		if isProgram[f] || taken[f] {
			continue
		}
		pool = append(pool, f)
	}
	sort.Strings(pool)
	poolMains := func(pool []string) (out []string, hasCu bool) {
		for _, f := range pool {
			if isMain[f] {
				out = append(out, f)
			}
			hasCu = hasCu || cudaSourceExts[path.Ext(f)]
		}
		return out, hasCu
	}

	// Rules none of whose files exists any more are deleted, whatever else happens.
	var rest []*rule.Rule
	for _, r := range g.existingCu {
		switch {
		case handled[r]:
		case !r.ShouldKeep() && g.allFilesGone(r):
			p.remove(cuLibraryKind, r.Name())
		default:
			rest = append(rest, r)
		}
	}

	mainsLeft, poolHasCu := poolMains(pool)
	switch headersOnly := g.wanted && len(g.headers) > 0 && len(g.textualSrcs) == 0 && !poolHasCu && len(mainsLeft) == 0; {
	case headersOnly && len(g.headers) > 1:
		g.planCollection(p, g.dropDuplicates(g.compilable(pool)), rest)
	case headersOnly:
		g.planLibrary(p, g.dropDuplicates(g.compilable(pool)), rest)
	default:
		pool = g.dropDuplicates(pool)
		mainsLeft, _ = poolMains(pool)
		g.planLibrary(p, pool, rest)
	}
	if p.handWritten {
		return p
	}
	g.addPrograms(p, programs)
	if g.addDeclared(p, declared) || len(engines) > 0 {
		mainsLeft = nil // main() is the programs', not a program of the directory's library
	}
	g.addBinary(p, mainsLeft)
	return p
}

// planLibrary plans the directory's library: the pool's sources and the directory's headers,
// named by pickName.
func (g *generator) planLibrary(p *plan, pool []string, rest []*rule.Rule) {
	want := g.wantedName()
	// The per-header rules of a header collection that is one no more (it has a .cu file or a
	// main() now): when they are all the directory has, the directory's library replaces them.
	var perHeader, others []*rule.Rule
	for _, r := range rest {
		if r.Name() != want && !r.ShouldKeep() && g.perHeaderShaped(r) != "" {
			perHeader = append(perHeader, r)
		} else {
			others = append(others, r)
		}
	}
	if len(others) == 0 && len(perHeader) > 0 {
		for _, r := range perHeader {
			p.remove(cuLibraryKind, r.Name())
		}
		rest = nil
	}

	name, adopted, renamedFrom := g.pickName(rest, want)
	if name == "" {
		p.handWritten = true
		return
	}
	if renamedFrom != nil {
		p.remove(cuLibraryKind, renamedFrom.Name())
	}
	if g.wanted && len(pool)+len(g.headers)+len(g.textualSrcs) > 0 {
		old := adopted
		if renamedFrom != nil {
			old = renamedFrom
		}
		u := &libUnit{
			name:        name,
			old:         old,
			renamedFrom: renamedFrom,
			srcs:        pool,
			hdrs:        g.headers,
			textual:     g.textualSrcs,
			includeDir:  g.isIncludeDir(),
		}
		p.libs = append(p.libs, u)
		p.dirLib = u
		p.used[name] = true
		return
	}
	// No library this time: the existing one goes when its CUDA sources are gone, or when its
	// files moved to the rules of programs.
	for _, r := range rest {
		if r.Name() == name && !r.ShouldKeep() && (g.cudaSourcesGone(r) || g.wanted) {
			p.remove(cuLibraryKind, r.Name())
		}
	}
}

// wantedName returns the name the naming pattern gives the directory's library, with "_cu"
// appended when another rule of the directory (the Go library) has that name.
func (g *generator) wantedName() string {
	want := g.cc.libraryName(g.dirname())
	for _, r := range g.args.OtherGen {
		if r.Name() == want {
			return want + "_cu"
		}
	}
	if g.args.File != nil {
		for _, r := range g.args.File.Rules {
			if r.Name() == want && !g.isKind(r, cuLibraryKind) {
				return want + "_cu"
			}
		}
	}
	return want
}

// pickName chooses the directory's library among the existing cu_library rules rest: the one
// named want, else the only one that the directory's go_cuda_library lists in cu_deps, else the
// only one. With several and none of those, the directory is hand-written and name is "".
// adopted is the existing rule chosen, if any; renamedFrom is set when the only existing
// cu_library must give its name up to a rule another extension generates.
func (g *generator) pickName(rest []*rule.Rule, want string) (name string, adopted, renamedFrom *rule.Rule) {
	byName := map[string]*rule.Rule{}
	for _, r := range rest {
		byName[r.Name()] = r
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
				if n, ok := localName(dep, g.args.Rel); ok && byName[n] != nil {
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
	switch len(rest) {
	case 0:
		return want, nil, nil
	case 1:
		r := rest[0]
		if handWritten(r) {
			return "", nil, nil
		}
		for _, o := range g.args.OtherGen {
			if o.Name() == r.Name() {
				// Another extension generates a rule of this name (a Go library added to the
				// directory): the cu_library moves to the pattern's name.
				if g.wanted {
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

// handWritten reports whether r's srcs or hdrs is something gazelle does not merge (a glob, a
// select, a concatenation).
func handWritten(r *rule.Rule) bool {
	return !plainList(r, "srcs") || !plainList(r, "hdrs")
}

// stem returns a file name without its extension.
func stem(f string) string {
	return strings.TrimSuffix(f, path.Ext(f))
}
