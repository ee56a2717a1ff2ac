package cuda

import (
	"path"
	"sort"

	"github.com/bazelbuild/bazel-gazelle/rule"
)

// plan is the model of one directory's rules, plain data that the planning functions fill and
// the emitters turn into rules: the cu_library rules (the directory's library, the rules of a
// header collection, the libraries of programs), each with the cc_binary that links it, if any,
// and the rules to delete.
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
	// handWritten: the directory's cu_library rules are the user's (several, none of which is
	// the directory's library); nothing is generated, only rules none of whose files exists are
	// deleted.
	handWritten bool
}

// libUnit is one cu_library to generate.
type libUnit struct {
	name string
	// old is the existing rule it updates (its private headers, archs, includes and rdc carry
	// over); renamedFrom is an existing rule whose attributes move to this name.
	old, renamedFrom *rule.Rule
	// srcs and hdrs are the files the rule compiles and provides; once the plan is settled (see
	// settle), srcs also holds the headers that old lists in srcs (private ones), and both are
	// sorted.
	srcs, hdrs []string
	// textual are the .cu files that sources include (textual_hdrs).
	textual []string
	// includeDir: dependents include the headers by their names alone (includes = ["."]).
	includeDir bool
	// private: no visibility attribute on a new rule (a program's library).
	private bool
	// deps are labels that deps always lists (see ruleIncludes.deps).
	deps []string
	// binary is the cc_binary that links the library, nil for none.
	binary *binaryUnit
	// inherit is an existing rule whose compile settings (inheritedAttrs) a new rule starts with.
	inherit *rule.Rule
	// alwayslink is set on a program's library that defines what the directory's library (with
	// main()) uses: it comes before that library on the link line, so the linker would not take its
	// object from the archive otherwise.
	alwayslink bool
	// needs are what the rule's compiles need, from the code (see inferNeeds).
	needs compileNeeds
}

// binaryUnit is one cc_binary to generate: it links its libUnit's library and nothing else.
type binaryUnit struct {
	name string
	// requiresCuda: the rule gets target_compatible_with = requires_cuda() (new rules only; an
	// existing rule's value is the user's).
	requiresCuda bool
}

// inheritedAttrs are the attributes of a directory's library that a new program's library
// starts with.
var inheritedAttrs = []string{"copts", "host_copts", "local_defines"}

// plannedProgram is a source defining main() that gets a cu_library and a cc_binary of its own.
type plannedProgram struct {
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

// generatedNames reports whether the pair is named as gazelle names new programs: the library is
// the binary's name with "_lib" appended.
func (pp *programPair) generatedNames() bool {
	return pp.lib.Name() == pp.bin.Name()+"_lib"
}

// newPlan returns an empty plan in which the names of the rules are taken.
func newPlan(rules ...[]*rule.Rule) *plan {
	p := &plan{deleted: map[string]bool{}, used: map[string]bool{}, pairBinaries: map[string]bool{}}
	for _, rs := range rules {
		for _, r := range rs {
			p.used[r.Name()] = true
		}
	}
	return p
}

// remove plans the deletion of rule name of the given kind.
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

// settleFiles sorts u's files and moves to srcs the headers that the existing rule lists in srcs:
// they stay there (private headers).
func settleFiles(u *libUnit) {
	private := map[string]bool{}
	if u.old != nil {
		for _, f := range localFiles(u.old.AttrStrings("srcs")) {
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
	u.srcs, u.hdrs = srcs, hdrs
}
