package cuda

import (
	"log"
	"path"
	"sort"

	"github.com/bazelbuild/bazel-gazelle/rule"
)

// The programs of a directory: sources defining main() that get a cu_library and a cc_binary of
// their own (several mains, engines around a shared main(), existing program pairs, cuda_program
// directives), and the cc_binary of the directory's library when it has the only main().

// mainSources returns the sources of the directory (not another rule's) that define a top-level
// main(), sorted.
func mainSources(d *dirInput) []string {
	var out []string
	for _, f := range concat(d.cuSrcs, d.hostSrcs) {
		if d.srcs.file(f).definesMain() {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

// programPairs returns the program pairs of the build file; the directory's library (the
// naming pattern's name) is in none.
func programPairs(d *dirInput) []*programPair {
	if d.file == nil {
		return nil
	}
	libs := map[string]*rule.Rule{}
	for _, r := range d.existingCu {
		libs[r.Name()] = r
	}
	// The directory's library is no program's, even with one source: its binary is addBinary's.
	delete(libs, d.wantedName())
	var out []*programPair
	seen := map[*rule.Rule]bool{}
	declared := map[string]bool{}
	for _, p := range d.cc.programs {
		declared[p.name] = true
	}
	for _, b := range d.file.Rules {
		if declared[b.Name()] || !d.isKind(b, ccBinaryKind) || b.Attr("srcs") != nil || !plainList(b, "deps") {
			continue
		}
		deps := b.AttrStrings("deps")
		if len(deps) != 1 {
			continue
		}
		n, ok := localName(deps[0], d.rel)
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
func selectPrograms(d *dirInput, p *plan, mains []string, isMain map[string]bool, engines []string, handled map[*rule.Rule]bool, taken map[string]bool) []*plannedProgram {
	on := d.cc.binaries && d.wanted
	var programs []*plannedProgram
	bySrc := map[string]*plannedProgram{}
	add := func(src string) *plannedProgram {
		pr := &plannedProgram{src: src}
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
	for _, pp := range programPairs(d) {
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
func addPrograms(d *dirInput, p *plan, programs []*plannedProgram) {
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
				log.Printf("%s: %s defines main(), but the rules %s and %s_bin (and their libraries with _lib) have other rules' names: no cc_binary generated; rename the file or those rules", d.buildPath(), pr.src, s, s)
				continue
			}
		}
		p.used[bin] = true
		p.used[lib] = true
		b := &binaryUnit{name: bin, requiresCuda: pr.pair == nil}
		u := &libUnit{name: lib, old: old, srcs: []string{pr.src}, private: true, deps: dirDeps, binary: b}
		if pr.engine && p.dirLib != nil {
			u.alwayslink = usedBy(d, u.srcs, p.dirLib.srcs)
		}
		if pr.pair == nil && p.dirLib != nil && p.dirLib.old != nil {
			// A new program's compiles start with the settings of the directory's library,
			// which compiled its source before (or compiles its neighbours).
			u.inherit = p.dirLib.old
		}
		p.libs = append(p.libs, u)
	}
}

// addBinary adds, with binaries enabled, the cc_binary of the directory's library when exactly
// one of its sources defines main() (mains), named by the cuda_binary_naming pattern, unless
// another cc_binary or cc_test of the build file links the library already. A cc_binary of that
// name whose deps are only a cu_library of the directory is deleted when the library has no
// main() any more.
func addBinary(d *dirInput, p *plan, mains []string) {
	if !d.cc.binaries {
		return
	}
	name := d.cc.binaryName(d.dirname())
	var existing *rule.Rule
	for _, r := range d.rules() {
		if r.Name() == name {
			existing = r
		}
	}
	if existing != nil && (!d.isKind(existing, ccBinaryKind) || existing.ShouldKeep() || p.deleted[name] || p.pairBinaries[name]) {
		return
	}
	lib := p.dirLib
	switch {
	case len(mains) == 1 && lib != nil && name == lib.name:
		log.Printf("%s: %s defines main(), but the cc_binary would have the cu_library's name %s; set # gazelle:%s to another pattern", d.buildPath(), mains[0], name, directiveBinNaming)
	case len(mains) == 1 && lib != nil:
		for _, r := range d.otherGen {
			if r.Name() == name {
				log.Printf("%s: %s defines main(), but the %s generated for this directory is named %s; set # gazelle:%s to another pattern", d.buildPath(), mains[0], r.Kind(), name, directiveBinNaming)
				return
			}
		}
		if linkedElsewhere(d, lib.name, name) {
			return
		}
		if existing == nil && p.used[name] {
			log.Printf("%s: %s defines main(), but a rule generated for this directory is named %s; set # gazelle:%s to another pattern", d.buildPath(), mains[0], name, directiveBinNaming)
			return
		}
		lib.binary = &binaryUnit{name: name, requiresCuda: existing == nil}
		p.used[name] = true
	case len(mains) > 1:
		// Binaries enabled but the directory gets no programs: it is not CUDA code.
	case existing != nil && linksOnlyLocalLibrary(d, existing):
		p.remove(ccBinaryKind, name)
	}
}

// linkedElsewhere reports whether a cc_binary or cc_test of the build file other than the one
// named bin lists the cu_library lib in deps: the program has a hand-written binary.
func linkedElsewhere(d *dirInput, lib, bin string) bool {
	for _, r := range d.rules() {
		if r.Name() == bin || !(d.isKind(r, ccBinaryKind) || d.isKind(r, "cc_test")) {
			continue
		}
		for _, dep := range r.AttrStrings("deps") {
			if n, ok := localName(dep, d.rel); ok && n == lib {
				return true
			}
		}
	}
	return false
}

// linksOnlyLocalLibrary reports whether binary b has no srcs and its deps are one cu_library of
// this directory (or a rule that no longer exists): the shape addBinary writes.
func linksOnlyLocalLibrary(d *dirInput, b *rule.Rule) bool {
	deps := b.AttrStrings("deps")
	if b.Attr("srcs") != nil || len(deps) != 1 {
		return false
	}
	n, ok := localName(deps[0], d.rel)
	if !ok {
		return false
	}
	for _, r := range d.rules() {
		if r.Name() == n {
			return d.isKind(r, cuLibraryKind)
		}
	}
	return true
}

// directivePrograms plans the cu_library and cc_binary of each cuda_program directive of the
// directory. The existing libraries are marked handled (they are not the directory's library);
// the files that exist become the library's srcs (a missing one is logged).
func directivePrograms(d *dirInput, p *plan) []*libUnit {
	var units []*libUnit
	for _, pd := range d.cc.programs {
		lib := pd.name + "_lib"
		if !nameFree(d, pd.name, ccBinaryKind) || !nameFree(d, lib, cuLibraryKind) {
			log.Printf("%s: # gazelle:%s %s: a rule named %s or %s of another kind exists; no rules generated for it", d.buildPath(), directiveProgram, pd.name, pd.name, lib)
			continue
		}
		var srcs []string
		for _, f := range pd.files {
			if !d.exists(f) {
				log.Printf("%s: # gazelle:%s %s: %s does not exist", d.buildPath(), directiveProgram, pd.name, f)
				continue
			}
			srcs = append(srcs, f)
		}
		if len(srcs) == 0 {
			continue
		}
		u := &libUnit{name: lib, srcs: srcs, private: true}
		for _, r := range d.existingCu {
			if r.Name() == lib {
				u.old = r
			}
		}
		u.binary = &binaryUnit{name: pd.name, requiresCuda: !p.used[pd.name]}
		p.used[pd.name] = true
		p.used[lib] = true
		units = append(units, u)
	}
	return units
}

// nameFree reports whether no rule of the build file of another kind than kind has name.
func nameFree(d *dirInput, name, kind string) bool {
	for _, r := range d.rules() {
		if r.Name() == name && !d.isKind(r, kind) {
			return false
		}
	}
	return true
}

// addDeclared adds the rules of the cuda_program directives (see directivePrograms): each
// program's library depends on the directory's library, and is linked whole where it defines
// what the directory's library uses (libUnit.alwayslink). It reports whether one does: the main()
// of the directory's library is then the programs', not a program of its own.
func addDeclared(d *dirInput, p *plan, declared []*libUnit) bool {
	provides := false
	for _, u := range declared {
		u.deps = p.dirDeps()
		if p.dirLib != nil {
			u.alwayslink = usedBy(d, u.srcs, p.dirLib.srcs)
			provides = provides || u.alwayslink
		}
		p.libs = append(p.libs, u)
	}
	return provides
}
