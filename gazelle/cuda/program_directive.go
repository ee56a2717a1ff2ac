package cuda

import (
	"log"
	"path"
	"strings"

	"github.com/bazelbuild/bazel-gazelle/rule"
)

// programDirective is a `# gazelle:cuda_program NAME FILE...` directive: a program declared by
// hand, as a Makefile's `NAME: FILE.o ... common.o` line declares it. Gazelle generates
// cc_binary NAME and cu_library NAME_lib with srcs = the FILEs and deps on what they include and
// on the directory's library (the sources no program lists), and keeps both in step with the
// directive and the files.
type programDirective struct {
	name  string
	files []string
}

// parseProgram reads a cuda_program directive; false (and a log line) when it is malformed or
// names a program that an earlier directive of the file declares.
func parseProgram(f *rule.File, d rule.Directive, seen []programDirective) (programDirective, bool) {
	fields := strings.Fields(d.Value)
	if len(fields) < 2 {
		log.Printf("%s: # gazelle:%s %q: expected NAME FILE...", f.Path, d.Key, d.Value)
		return programDirective{}, false
	}
	p := programDirective{name: fields[0]}
	if strings.ContainsAny(p.name, "/:") {
		log.Printf("%s: # gazelle:%s %q: %q is not a target name", f.Path, d.Key, d.Value, p.name)
		return programDirective{}, false
	}
	for _, s := range seen {
		if s.name == p.name {
			log.Printf("%s: # gazelle:%s %q: program %s is declared twice; the first one counts", f.Path, d.Key, d.Value, p.name)
			return programDirective{}, false
		}
	}
	for _, file := range fields[1:] {
		ext := path.Ext(file)
		if strings.Contains(file, "/") || !(cudaSourceExts[ext] || hostSourceExts[ext]) {
			log.Printf("%s: # gazelle:%s %q: %s is not a source file (.cu, .cc, .cpp, .cxx, .c) of this directory", f.Path, d.Key, d.Value, file)
			return programDirective{}, false
		}
		p.files = appendNew(p.files, file)
	}
	return p, true
}

// directivePrograms plans the cu_library and cc_binary of each cuda_program directive of the
// directory. The existing libraries are marked handled (they are not the directory's library);
// the files that exist become the library's srcs (a missing one is logged).
func (g *generator) directivePrograms(p *plan) []*libUnit {
	var units []*libUnit
	for _, d := range g.cc.programs {
		lib := d.name + "_lib"
		if !g.nameFree(p, d.name, ccBinaryKind) || !g.nameFree(p, lib, cuLibraryKind) {
			log.Printf("%s: # gazelle:%s %s: a rule named %s or %s of another kind exists; no rules generated for it", g.buildPath(), directiveProgram, d.name, d.name, lib)
			continue
		}
		var srcs []string
		for _, f := range d.files {
			if !g.exists(f) {
				log.Printf("%s: # gazelle:%s %s: %s does not exist", g.buildPath(), directiveProgram, d.name, f)
				continue
			}
			srcs = append(srcs, f)
		}
		if len(srcs) == 0 {
			continue
		}
		u := &libUnit{name: lib, srcs: srcs, private: true}
		for _, r := range g.existingCu {
			if r.Name() == lib {
				u.old = r
			}
		}
		b := rule.NewRule(ccBinaryKind, d.name)
		b.SetAttr("deps", []string{":" + lib})
		if !p.used[d.name] {
			b.SetAttr("target_compatible_with", requiresCudaCall())
		}
		u.binary = b
		p.used[d.name] = true
		p.used[lib] = true
		units = append(units, u)
	}
	return units
}

// nameFree reports whether no rule of the build file of another kind than kind has name.
func (g *generator) nameFree(p *plan, name, kind string) bool {
	if g.args.File == nil {
		return true
	}
	for _, r := range g.args.File.Rules {
		if r.Name() == name && !g.isKind(r, kind) {
			return false
		}
	}
	return true
}

// programFiles returns the files that the directory's cuda_program directives list.
func (g *generator) programFiles() map[string]bool {
	out := map[string]bool{}
	for _, d := range g.cc.programs {
		for _, f := range d.files {
			out[f] = true
		}
	}
	return out
}

// addDeclared adds the rules of the cuda_program directives (see directivePrograms): each
// program's library depends on the directory's library, and is linked whole where it defines
// what the directory's library uses (libUnit.alwayslink). It reports whether one does: the main()
// of the directory's library is then the programs', not a program of its own.
func (g *generator) addDeclared(p *plan, declared []*libUnit) bool {
	provides := false
	for _, u := range declared {
		u.deps = p.dirDeps()
		if p.dirLib != nil {
			u.alwayslink = g.usedBy(u.srcs, p.dirLib.srcs)
			provides = provides || u.alwayslink
		}
		p.libs = append(p.libs, u)
	}
	return provides
}
