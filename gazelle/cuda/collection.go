package cuda

import (
	"log"
	"path"
	"strings"

	"github.com/bazelbuild/bazel-gazelle/rule"

	"github.com/rules-cuda-go/rules_cuda_go/gazelle/cuda/internal/cpp"
)

// planCollection plans a header collection: a directory whose files (programs' aside) are headers
// and host sources, without a .cu file or a main(), such as a shared Common/ folder of helper
// headers. Each header gets a cu_library of its own, named after it (helper_cuda.h:
// helper_cuda; with "_" and the extension appended, helper_hpp, when another rule has that name),
// so that a program depends on the headers it includes and on their deps only, not on every
// library that some header of the folder needs. A host source joins the rule of the header with
// its name, else of the first header of the directory it includes, and only when nothing it
// includes is missing (see missingInclude): a helper for another platform (one that includes
// d3d11.h) is compiled by no rule, and logged. The directory's library of an earlier run is
// replaced; two or more other cu_library rules make the directory hand-written. pool are the host
// sources that compile (see compilable).
func planCollection(d *dirInput, p *plan, pool []string, rest []*rule.Rule) {
	includeDir := d.isIncludeDir()
	units := map[string]*libUnit{}
	var leftover []*rule.Rule
	for _, r := range rest {
		if h := perHeaderShaped(d, r); h != "" && units[h] == nil {
			units[h] = &libUnit{name: r.Name(), old: r, hdrs: []string{h}, includeDir: includeDir}
			continue
		}
		leftover = append(leftover, r)
	}
	if len(leftover) > 1 || (len(leftover) == 1 && (handWritten(leftover[0]) || leftover[0].ShouldKeep())) {
		p.handWritten = true
		return
	}
	var former *rule.Rule
	if len(leftover) == 1 {
		former = leftover[0]
		delete(p.used, former.Name()) // a header's rule may take its name
	}
	for _, h := range d.headers {
		if units[h] != nil {
			continue
		}
		s := stem(h)
		name := p.freeName(s, s+"_"+strings.TrimPrefix(path.Ext(h), "."))
		if name == "" {
			log.Printf("%s: %s gets no cu_library: the rules %s and %s_%s have other rules' names; rename the header or those rules", d.buildPath(), h, s, s, strings.TrimPrefix(path.Ext(h), "."))
			continue
		}
		u := &libUnit{name: name, hdrs: []string{h}, includeDir: includeDir}
		if former != nil && name == former.Name() {
			u.old = former
			former = nil
		}
		units[h] = u
		p.used[name] = true
	}
	if former != nil {
		p.remove(cuLibraryKind, former.Name())
	}

	for _, f := range pool {
		h := headerOf(d, f, units)
		if h == "" {
			log.Printf("%s: %s is compiled by no rule: in a directory of headers, a source joins the rule of the header with its name or of the first header of the directory it includes, and it has neither", d.buildPath(), f)
			continue
		}
		units[h].srcs = append(units[h].srcs, f)
	}
	for _, h := range d.headers {
		if u := units[h]; u != nil {
			p.libs = append(p.libs, u)
		}
	}
}

// perHeaderShaped returns the header of r when r is a per-header rule of a header collection:
// its hdrs is one header of the directory, its srcs are host sources of the directory, and it is
// named as planCollection names new rules.
func perHeaderShaped(d *dirInput, r *rule.Rule) string {
	if handWritten(r) || r.Attr("textual_hdrs") != nil {
		return ""
	}
	hdrs := localFiles(r.AttrStrings("hdrs"))
	if len(hdrs) != 1 || !setOf(d.headers...)[hdrs[0]] {
		return ""
	}
	h := hdrs[0]
	host := setOf(d.hostSrcs...)
	for _, f := range localFiles(r.AttrStrings("srcs")) {
		if !host[f] {
			return ""
		}
	}
	if r.Name() != stem(h) && r.Name() != stem(h)+"_"+strings.TrimPrefix(path.Ext(h), ".") {
		return ""
	}
	return h
}

// headerOf returns the header whose rule host source f joins: the one with f's name, else the
// first header of the directory that f includes; "" when there is none.
func headerOf(d *dirInput, f string, units map[string]*libUnit) string {
	for _, h := range d.headers {
		if units[h] != nil && stem(h) == stem(f) {
			return h
		}
	}
	for _, inc := range d.srcs.file(f).includes() {
		if h := path.Clean(inc.Path); units[h] != nil {
			return h
		}
	}
	return ""
}

// compilable returns the sources of srcs that include nothing missing (see missingInclude), and
// logs the others: a helper for another platform (one that includes d3d11.h) is compiled by no
// rule.
func compilable(d *dirInput, srcs []string) []string {
	var out []string
	for _, f := range srcs {
		if inc, ok := missingInclude(d, f); ok {
			log.Printf("%s: %s is compiled by no rule: it includes %s, which neither the repository, the CUDA toolkit nor the system provides", d.buildPath(), f, inc)
			continue
		}
		out = append(out, f)
	}
	return out
}

// missingInclude returns the first #include that a compile of file f of the directory reaches
// and nothing provides: not a file of the repository where the compiler looks for it (see
// searchPaths), not a CUDA toolkit header (toolkitHeader), not a system header (cpp.SystemHeader).
// The includes of the repository's headers that f includes count too; the description names the
// header that holds the include.
func missingInclude(d *dirInput, f string) (string, bool) {
	var missing string
	self := path.Join(d.rel, f)
	d.walkIncludes(f, func(from string, inc cpp.Include, _ string, found bool) bool {
		if found || cpp.SystemHeader(inc.Path) {
			return true
		}
		if _, ok := toolkitHeader(inc.Path); ok {
			return true
		}
		missing = writtenInclude(inc)
		if from != self {
			missing += " (in " + from + ")"
		}
		return false
	})
	return missing, missing != ""
}
