package cuda

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/rules-cuda-go/rules_cuda_go/gazelle/cuda/internal/cpp"
)

// reached is an #include directive that a translation unit compiles, or may compile.
type reached struct {
	// from is the workspace-relative path of the file that holds the directive.
	from string
	inc  cpp.Include
	// state is yes, or maybe when the directive is in a conditional group gazelle cannot
	// evaluate; why then names the condition.
	state cpp.Tri
	why   string
}

// Limits of one translation unit's walk through the repository's headers: the nesting of
// includes (gcc stops at 200) and the number of files entered.
const (
	maxIncludeDepth = 64
	maxUnitFiles    = 20000
)

// preprocessor evaluates the conditional compilation of the repository's sources, enough to tell
// which #include directives a compile reaches: #if, #ifdef, #ifndef, #elif, #elifdef, #elifndef,
// #else and #endif, with #define and #undef (see cpp.EvalCondition for the expressions). It follows
// includes that name files of the repository (as found on the search path of searchPaths), so
// that include guards, #pragma once and macros a header of the repository defines take effect;
// headers of the toolkit and the system are not read.
type preprocessor struct {
	root string
	// files are the directives of the files read, by workspace-relative path; a nil entry is a
	// file that cannot be read.
	files map[string][]cpp.Directive
	// alone are, for each header entered, the indexes of its #include directives that it
	// reaches compiled on its own (yes or maybe), with the compiler's macros only.
	alone map[string]map[int]bool
}

// newPreprocessor returns a preprocessor of the repository at root, with nothing read yet.
func newPreprocessor(root string) *preprocessor {
	return &preprocessor{root: root, files: map[string][]cpp.Directive{}, alone: map[string]map[int]bool{}}
}

// seed gives the source of a file that the caller has read already.
func (pp *preprocessor) seed(rel string, src []byte) {
	if _, ok := pp.files[rel]; !ok {
		pp.files[rel] = cpp.ParseDirectives(src)
	}
}

// directives returns the directives of the repository file rel; false when it is not a
// readable regular file.
func (pp *preprocessor) directives(rel string) ([]cpp.Directive, bool) {
	if ds, ok := pp.files[rel]; ok {
		return ds, ds != nil
	}
	var ds []cpp.Directive
	p := filepath.Join(pp.root, filepath.FromSlash(rel))
	if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
		if src, err := os.ReadFile(p); err == nil {
			ds = cpp.ParseDirectives(src)
			if ds == nil {
				ds = []cpp.Directive{}
			}
		}
	}
	pp.files[rel] = ds
	return ds, ds != nil
}

// locate returns the repository file that an include of file from names, searched as
// searchPaths says with the directives cc; false when it names no file of the repository.
func (pp *preprocessor) locate(cc *cudaConfig, from string, inc cpp.Include) (string, bool) {
	for _, d := range searchPaths(cc, path.Dir(from), inc.Quoted) {
		p := path.Join(d, inc.Path)
		if p == ".." || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") {
			continue
		}
		if _, ok := pp.directives(p); ok {
			return p, true
		}
	}
	return "", false
}

// unit walks the translation unit of file rel compiled with the macros defs (-DNAME[=VALUE] and
// -UNAME flags), with the include directories of cc (known tells whether a header that is not a
// file of the repository, the toolkit's or the system's is provided, for __has_include), and
// calls visit for each #include directive it reaches that belongs to it: the
// directives of rel itself, and those of the repository headers it includes that a compile of
// the header on its own does not reach (includes that the unit's macros turn on).
func (pp *preprocessor) unit(cc *cudaConfig, rel string, defs []string, known func(cpp.Include) bool, visit func(reached)) {
	pp.walkUnit(cc, rel, defs, known, func(file string, depth, idx int, r reached) {
		if depth == 0 || !pp.reachedAlone(cc, known, file)[idx] {
			visit(r)
		}
	})
}

// walkUnit walks the translation unit of file rel as unit does, and calls visit for every
// #include directive it reaches, in rel and in the repository headers it includes (at depth 1 and
// more).
func (pp *preprocessor) walkUnit(cc *cudaConfig, rel string, defs []string, known func(cpp.Include) bool, visit func(file string, depth, idx int, r reached)) {
	m := cpp.Macros{}
	// nvcc defines __CUDACC__ for CUDA sources only; a header may be included by both kinds.
	switch ext := path.Ext(rel); {
	case cudaSourceExts[ext]:
		m.Define("__CUDACC__", "1", false, cpp.Yes)
	case hostSourceExts[ext]:
		// The C++ toolchain compiles host sources (cu_library's host_srcs_as_cuda aside).
		m.Undef("__CUDACC__", cpp.Yes)
		m.Undef("__NVCC__", cpp.Yes)
	default:
		m.Define("__CUDACC__", "", false, cpp.Maybe)
	}
	for _, d := range defs {
		switch {
		case strings.HasPrefix(d, "-D"):
			m.DefineFlag(d[2:], false)
		case strings.HasPrefix(d, "-U"):
			m.DefineFlag(d[2:], true)
		}
	}
	w := &unitWalk{pp: pp, cc: cc, known: known, m: m, once: map[string]bool{}}
	w.file(rel, cpp.Yes, 0, visit)
}

// reachedAlone returns the indexes of the #include directives of header rel that a compile of it
// on its own reaches (computed once, with the first caller's cc and known).
func (pp *preprocessor) reachedAlone(cc *cudaConfig, known func(cpp.Include) bool, rel string) map[int]bool {
	if s, ok := pp.alone[rel]; ok {
		return s
	}
	s := map[int]bool{}
	pp.alone[rel] = s
	w := &unitWalk{pp: pp, cc: cc, known: known, m: cpp.Macros{}, once: map[string]bool{}}
	w.file(rel, cpp.Yes, 0, func(file string, depth, idx int, r reached) {
		if depth == 0 {
			s[idx] = true
		}
	})
	return s
}

// unitWalk is the state of one translation unit.
type unitWalk struct {
	pp      *preprocessor
	cc      *cudaConfig
	known   func(cpp.Include) bool
	m       cpp.Macros
	once    map[string]bool // files with #pragma once entered
	entered int
}

// group is an open #if, #ifdef or #ifndef.
type group struct {
	parent cpp.Tri // the state of the enclosing group
	taken  cpp.Tri // whether a branch of the chain so far is compiled
	own    cpp.Tri // the state of the current branch's own condition
	why    string  // the directive of the current branch, when own is maybe
	open   string  // the #if, #ifdef or #ifndef that opened the chain
}

// file walks the directives of file rel, entered in a group of state base, at include depth
// depth; it calls visit for each include directive in a group that is compiled or may be.
func (w *unitWalk) file(rel string, base cpp.Tri, depth int, visit func(file string, depth, idx int, r reached)) {
	ds, ok := w.pp.directives(rel)
	if !ok || w.once[rel] || depth > maxIncludeDepth || w.entered >= maxUnitFiles {
		return
	}
	w.entered++
	var stack []group
	cur := base
	why := func() string {
		for i := len(stack) - 1; i >= 0; i-- {
			if stack[i].own == cpp.Maybe {
				return stack[i].why
			}
		}
		return ""
	}
	for idx, d := range ds {
		where := func() string { return strings.TrimSpace(fmt.Sprintf("%s:%d: #%s %s", rel, d.Line, d.Name, d.Arg)) }
		switch d.Name {
		case "if", "ifdef", "ifndef":
			guard := d.Name == "ifndef" && idx+1 < len(ds) && ds[idx+1].Name == "define" && cpp.FirstIdentifier(ds[idx+1].Arg) == cpp.FirstIdentifier(d.Arg)
			c := w.condition(rel, d.Name, d.Arg, cur, guard)
			stack = append(stack, group{parent: cur, taken: c, own: c, why: where(), open: fmt.Sprintf("#%s %s (line %d)", d.Name, d.Arg, d.Line)})
			cur = cur.And(c)
			continue
		case "elif", "elifdef", "elifndef", "else":
			if len(stack) == 0 {
				continue
			}
			g := &stack[len(stack)-1]
			c := cpp.Yes
			if d.Name != "else" {
				c = w.condition(rel, strings.TrimPrefix(d.Name, "el"), d.Arg, g.parent.And(g.taken.Not()), false)
			}
			g.own = g.taken.Not().And(c)
			g.why = where() + " of " + g.open
			g.taken = g.taken.Or(c)
			cur = g.parent.And(g.own)
			continue
		case "endif":
			if len(stack) > 0 {
				cur = stack[len(stack)-1].parent
				stack = stack[:len(stack)-1]
			}
			continue
		}
		if cur == cpp.No {
			continue
		}
		switch d.Name {
		case "define":
			if name, value, function, ok := cpp.ParseDefine(d.Arg); ok {
				w.m.Define(name, value, function, cur)
			}
		case "undef":
			if name := cpp.FirstIdentifier(d.Arg); name != "" {
				w.m.Undef(name, cur)
			}
		case "pragma":
			if cur == cpp.Yes && strings.TrimSpace(d.Arg) == "once" {
				w.once[rel] = true
			}
		case "include":
			if d.Included == nil {
				continue
			}
			r := reached{from: rel, inc: *d.Included, state: cur}
			if cur == cpp.Maybe {
				r.why = why()
			}
			visit(rel, depth, idx, r)
			if p, ok := w.pp.locate(w.cc, rel, *d.Included); ok {
				w.file(p, cur, depth+1, visit)
			}
		}
	}
}

// condition evaluates the condition of #if (expression), #ifdef or #ifndef (name) in a group of
// state cur; a condition in a group that is not compiled is not evaluated.
func (w *unitWalk) condition(rel, kind, arg string, cur cpp.Tri, guard bool) cpp.Tri {
	if cur == cpp.No {
		return cpp.No
	}
	if kind == "if" {
		return cpp.EvalCondition(arg, w.m, func(inc cpp.Include) cpp.Tri { return w.has(rel, inc) })
	}
	name := cpp.FirstIdentifier(arg)
	if name == "" {
		return cpp.Maybe
	}
	s := w.m.State(name)
	if guard {
		// An include guard is the file's own name: defined only by the file.
		s = w.m.OwnState(name)
	}
	if kind == "ifndef" {
		return s.Not()
	}
	return s
}

// has tells whether an include of file from finds a header: a file of the repository, a header of
// the toolkit (those of its libraries included: a dep provides them) or of the system, or one
// that known says is provided.
func (w *unitWalk) has(from string, inc cpp.Include) cpp.Tri {
	if _, ok := w.pp.locate(w.cc, from, inc); ok {
		return cpp.Yes
	}
	if _, ok := toolkitHeader(inc.Path); ok || cpp.SystemHeader(inc.Path) || w.known != nil && w.known(inc) {
		return cpp.Yes
	}
	return cpp.No
}

// walkIncludes calls visit for each #include that a compile of file rel (whose content is src)
// reaches, with the macros of cc's directives, in rel and in the repository's headers it
// includes: from is the workspace-relative path of the file holding the include, located the
// repository file it names where the compiler looks for it (found is false when there is none).
// The walk stops calling visit once it returns false.
func (pp *preprocessor) walkIncludes(cc *cudaConfig, rel string, src []byte, visit func(from string, inc cpp.Include, located string, found bool) bool) {
	pp.seed(rel, src)
	stop := false
	pp.walkUnit(cc, rel, cc.compile.flags(), nil, func(_ string, _, _ int, r reached) {
		if stop {
			return
		}
		p, found := pp.locate(cc, r.from, r.inc)
		stop = !visit(r.from, r.inc, p, found)
	})
}
