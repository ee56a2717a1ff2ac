package cuda

import (
	"log"
	"sort"
	"strings"
)

// Benchmark suites and test drivers are often one program per file around a shared main(): a
// common.cu defines main() and reads a global (an engine struct, a function table) that each
// benchmark file defines, and the Makefile links each benchmark file with the common ones into a
// program of its own. Linking them all into one program would link one definition per symbol
// and drop the others (silently, when they are weak or come from an archive).

// duplicates returns, for each symbol that two or more of files define (by cpp.Symbol.Key: a
// function's overloads are other symbols), the files that define it, sorted.
func duplicates(d *dirInput, files []string) map[string][]string {
	by := map[string][]string{}
	for _, f := range files {
		seen := map[string]bool{}
		for _, s := range d.srcs.file(f).definitions() {
			if !seen[s.Key] {
				seen[s.Key] = true
				by[s.Key] = append(by[s.Key], f)
			}
		}
	}
	for name, fs := range by {
		if len(fs) < 2 {
			delete(by, name)
		} else {
			sort.Strings(fs)
		}
	}
	return by
}

// engineFiles returns the sources of the directory that are programs around the directory's
// shared main(): with binaries on, when exactly one source (main) defines main(), two or more
// others define the same symbols (at file scope, with external linkage, outside #if groups),
// main does not, a source that defines none of them uses each (main reads the engine), and no
// definer defines a symbol that a shared source defines too. srcs are the directory's sources
// that are not already another program's. It returns nil when the directory is not of that shape.
func engineFiles(d *dirInput, srcs, mains []string) []string {
	if !d.cc.binaries || !d.wanted || len(mains) != 1 {
		return nil
	}
	dups := duplicates(d, srcs)
	if len(dups) == 0 {
		return nil
	}
	definer := map[string]bool{}
	for _, fs := range dups {
		for _, f := range fs {
			definer[f] = true
		}
	}
	if definer[mains[0]] {
		return nil
	}
	var shared []string
	sharedDefs := map[string]bool{}
	for _, f := range srcs {
		if !definer[f] {
			shared = append(shared, f)
			for _, s := range d.srcs.file(f).definitions() {
				sharedDefs[s.Key] = true
			}
		}
	}
	for key := range dups {
		name, _, _ := strings.Cut(key, "(")
		used := false
		for _, f := range shared {
			used = used || d.srcs.file(f).mentions(name)
		}
		if !used {
			return nil
		}
	}
	var out []string
	for f := range definer {
		for _, s := range d.srcs.file(f).definitions() {
			if sharedDefs[s.Key] {
				return nil
			}
		}
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// dropDuplicates returns the sources of pool (what one rule would compile) without those that
// define a symbol another source of pool defines, and logs each such symbol with its files: a
// rule that compiled them would link two definitions of one symbol, and gazelle cannot tell which
// program each belongs to. A directory that gets no CUDA rules keeps its pool (and logs nothing).
func dropDuplicates(d *dirInput, pool []string) []string {
	if !d.wanted {
		return pool
	}
	dups := duplicates(d, pool)
	if len(dups) == 0 {
		return pool
	}
	names := make([]string, 0, len(dups))
	drop := map[string]bool{}
	for name, fs := range dups {
		names = append(names, name)
		for _, f := range fs {
			drop[f] = true
		}
	}
	sort.Strings(names)
	for _, name := range names {
		log.Printf("%s: %s each define %s: no rule compiles them, since one that did would link two definitions of it; declare the programs with # gazelle:%s NAME FILE...", d.buildPath(), strings.Join(dups[name], ", "), name, directiveProgram)
	}
	var out []string
	for _, f := range pool {
		if !drop[f] {
			out = append(out, f)
		}
	}
	return out
}

// usedBy reports whether a source of shared uses a symbol that a source of own defines.
func usedBy(d *dirInput, own, shared []string) bool {
	for _, f := range own {
		for _, s := range d.srcs.file(f).definitions() {
			for _, sf := range shared {
				if d.srcs.file(sf).mentions(s.Name) {
					return true
				}
			}
		}
	}
	return false
}
