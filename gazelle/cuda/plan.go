package cuda

import (
	"log"
	"path"
	"sort"

	"github.com/bazelbuild/bazel-gazelle/rule"
)

// planDirectory decides the rules of the directory, as a plan:
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
//
// Once the rules are decided, each library's files are settled (see settleFiles) and what its
// compiles need is inferred (see inferNeeds).
func planDirectory(d *dirInput) *plan {
	p := newPlan(d.rules(), d.otherGen)
	decide(d, p)
	for _, u := range p.libs {
		settleFiles(u)
		u.needs = inferNeeds(d, u.srcs, u.hdrs)
		if u.needs.driver != "" {
			u.deps = append(append([]string(nil), u.deps...), driverLazyTarget)
		}
	}
	return p
}

// decide fills p with the directory's rules (see planDirectory).
func decide(d *dirInput, p *plan) {
	mains := mainSources(d)
	isMain := setOf(mains...)
	handled := map[*rule.Rule]bool{}
	taken := map[string]bool{}
	declared := directivePrograms(d, p)
	for _, u := range declared {
		if u.old != nil {
			handled[u.old] = true
		}
	}
	engines := engineFiles(d, concat(d.cuSrcs, d.hostSrcs), mains)
	isProgramSrc := setOf(concat(mains, engines)...)
	programs := selectPrograms(d, p, mains, isProgramSrc, engines, handled, taken)
	isProgram := map[string]bool{}
	for _, pr := range programs {
		isProgram[pr.src] = true
	}

	var pool []string
	for _, f := range concat(d.cuSrcs, d.hostSrcs) {
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
	for _, r := range d.existingCu {
		switch {
		case handled[r]:
		case !r.ShouldKeep() && allFilesGone(d, r):
			p.remove(cuLibraryKind, r.Name())
		default:
			rest = append(rest, r)
		}
	}

	mainsLeft, poolHasCu := poolMains(pool)
	switch headersOnly := d.wanted && len(d.headers) > 0 && len(d.textualSrcs) == 0 && !poolHasCu && len(mainsLeft) == 0; {
	case headersOnly && len(d.headers) > 1:
		planCollection(d, p, dropDuplicates(d, compilable(d, pool)), rest)
	case headersOnly:
		planLibrary(d, p, dropDuplicates(d, compilable(d, pool)), rest)
	default:
		pool = dropDuplicates(d, pool)
		mainsLeft, _ = poolMains(pool)
		planLibrary(d, p, pool, rest)
	}
	if p.handWritten {
		return
	}
	addPrograms(d, p, programs)
	if addDeclared(d, p, declared) || len(engines) > 0 {
		mainsLeft = nil // main() is the programs', not a program of the directory's library
	}
	addBinary(d, p, mainsLeft)
}

// planLibrary plans the directory's library: the pool's sources and the directory's headers,
// named by pickName.
func planLibrary(d *dirInput, p *plan, pool []string, rest []*rule.Rule) {
	want := d.wantedName()
	// The per-header rules of a header collection that is one no more (it has a .cu file or a
	// main() now): when they are all the directory has, the directory's library replaces them.
	var perHeader, others []*rule.Rule
	for _, r := range rest {
		if r.Name() != want && !r.ShouldKeep() && perHeaderShaped(d, r) != "" {
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

	name, adopted, renamedFrom := pickName(d, rest, want)
	if name == "" {
		p.handWritten = true
		return
	}
	if renamedFrom != nil {
		p.remove(cuLibraryKind, renamedFrom.Name())
	}
	if d.wanted && len(pool)+len(d.headers)+len(d.textualSrcs) > 0 {
		old := adopted
		if renamedFrom != nil {
			old = renamedFrom
		}
		u := &libUnit{
			name:        name,
			old:         old,
			renamedFrom: renamedFrom,
			srcs:        pool,
			hdrs:        d.headers,
			textual:     d.textualSrcs,
			includeDir:  d.isIncludeDir(),
		}
		p.libs = append(p.libs, u)
		p.dirLib = u
		p.used[name] = true
		return
	}
	// No library this time: the existing one goes when its CUDA sources are gone, or when its
	// files moved to the rules of programs.
	for _, r := range rest {
		if r.Name() == name && !r.ShouldKeep() && (cudaSourcesGone(d, r) || d.wanted) {
			p.remove(cuLibraryKind, r.Name())
		}
	}
}

// pickName chooses the directory's library among the existing cu_library rules rest: the one
// named want, else the only one that the directory's go_cuda_library lists in cu_deps, else the
// only one. With several and none of those, the directory is hand-written and name is "".
// adopted is the existing rule chosen, if any; renamedFrom is set when the only existing
// cu_library must give its name up to a rule another extension generates.
func pickName(d *dirInput, rest []*rule.Rule, want string) (name string, adopted, renamedFrom *rule.Rule) {
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
	for _, r := range d.rules() {
		if !d.isGoLibrary(r) {
			continue
		}
		for _, dep := range r.AttrStrings("cu_deps") {
			if n, ok := localName(dep, d.rel); ok && byName[n] != nil {
				referenced[n] = true
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
		for _, o := range d.otherGen {
			if o.Name() == r.Name() {
				// Another extension generates a rule of this name (a Go library added to the
				// directory): the cu_library moves to the pattern's name.
				if d.wanted {
					log.Printf("%s: renaming cu_library %s to %s: the %s generated for this directory has its name", d.buildPath(), r.Name(), want, o.Kind())
					return want, nil, r
				}
				return "", nil, nil
			}
		}
		return r.Name(), r, nil
	}
	return "", nil, nil
}

// cudaSourcesGone reports whether r lists .cu or .cuh files of this directory and none of them
// exists any more.
func cudaSourcesGone(d *dirInput, r *rule.Rule) bool {
	listed := false
	for _, key := range []string{"srcs", "hdrs", "textual_hdrs"} {
		for _, f := range localFiles(r.AttrStrings(key)) {
			if ext := path.Ext(f); ext != ".cu" && ext != ".cuh" {
				continue
			}
			listed = true
			if d.exists(f) {
				return false
			}
		}
	}
	return listed
}

// allFilesGone reports whether r lists files of this directory and none of them exists.
func allFilesGone(d *dirInput, r *rule.Rule) bool {
	if !plainList(r, "srcs") || !plainList(r, "hdrs") {
		return false
	}
	listed := false
	for _, key := range []string{"srcs", "hdrs", "textual_hdrs"} {
		for _, f := range localFiles(r.AttrStrings(key)) {
			listed = true
			if d.exists(f) {
				return false
			}
		}
	}
	return listed
}
