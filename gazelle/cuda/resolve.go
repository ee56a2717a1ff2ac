package cuda

import (
	"fmt"
	"log"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bazelbuild/bazel-gazelle/config"
	"github.com/bazelbuild/bazel-gazelle/label"
	"github.com/bazelbuild/bazel-gazelle/repo"
	"github.com/bazelbuild/bazel-gazelle/resolve"
	"github.com/bazelbuild/bazel-gazelle/rule"

	"github.com/rules-cuda-go/rules_cuda_go/gazelle/cuda/internal/cpp"
)

// Imports implements resolve.Resolver: a cu_library or cc_library is indexed under the
// workspace-relative paths of its public headers (hdrs and textual_hdrs), plus
// the shorter paths its includes attribute (and a cc_library's strip_include_prefix and
// include_prefix) make them includable by. Headers listed with glob() are found by expanding the
// glob against the package's files; a select() or another expression gazelle cannot evaluate is
// logged, and those headers are not indexed.
func (*cudaLang) Imports(c *config.Config, r *rule.Rule, f *rule.File) []resolve.ImportSpec {
	keys := []string{"hdrs", "textual_hdrs"}
	switch r.Kind() {
	case cuLibraryKind, ccLibraryKind:
	default:
		return nil
	}
	var specs []resolve.ImportSpec
	seen := map[string]bool{}
	add := func(p string) {
		if p != "" && p != "." && !seen[p] {
			seen[p] = true
			specs = append(specs, resolve.ImportSpec{Lang: languageName, Imp: p})
		}
	}
	for _, key := range keys {
		hdrs, err := attrFiles(r, key, filepath.Dir(f.Path), c.ValidBuildFileNames)
		if err != nil {
			log.Printf("%s: %s %s: its headers are not indexed: %v; map its includes with # gazelle:resolve cuda HEADER LABEL", f.Path, r.Kind(), r.Name(), err)
		}
		for _, h := range hdrs {
			p, ok := headerPath(h, f.Pkg)
			if !ok {
				continue
			}
			add(p)
			for _, inc := range r.AttrStrings("includes") {
				if rest, ok := under(p, path.Join(f.Pkg, inc)); ok {
					add(rest)
				}
			}
			if r.Kind() == ccLibraryKind {
				strip, prefix := r.AttrString("strip_include_prefix"), r.AttrString("include_prefix")
				if strip == "" && prefix == "" {
					continue
				}
				base := f.Pkg
				switch {
				case strings.HasPrefix(strip, "/"):
					base = strings.TrimPrefix(strip, "/")
				case strip != "":
					base = path.Join(f.Pkg, strip)
				}
				if rest, ok := under(p, base); ok {
					add(path.Join(prefix, rest))
				}
			}
		}
	}
	return specs
}

// headerPath returns the workspace-relative path of a header named in a rule of package pkg:
// "a.h", ":a.h", "sub/a.h" or "//other:a.h". Labels of other repositories give false.
func headerPath(h, pkg string) (string, bool) {
	switch {
	case h == "" || strings.HasPrefix(h, "@"):
		return "", false
	case strings.HasPrefix(h, "//"):
		l, err := label.Parse(h)
		if err != nil {
			return "", false
		}
		return path.Join(l.Pkg, l.Name), true
	default:
		return path.Join(pkg, strings.TrimPrefix(h, ":")), true
	}
}

// under returns p relative to the directory base ("" is the repository root).
func under(p, base string) (string, bool) {
	base = path.Clean(base)
	if base == "." || base == "" {
		return p, true
	}
	if strings.HasPrefix(p, base+"/") {
		return p[len(base)+1:], true
	}
	return "", false
}

// Embeds implements resolve.Resolver; CUDA rules embed nothing.
func (*cudaLang) Embeds(r *rule.Rule, from label.Label) []label.Label { return nil }

// Resolve implements resolve.Resolver: it sets the deps of a generated cu_library from the
// #include lines of its files (see searchPaths for where each include is looked for). Only the
// includes that a compile reaches count: conditional compilation is evaluated with the rule's
// macros (see preprocessor and ruleDefines). For each include, in order: the rule's own headers
// (no dep); a `# gazelle:resolve cuda HEADER LABEL` directive for the include as written; the
// index of cu_library and cc_library headers, path by path; the CUDA toolkit's headers (a library
// header gives its @cuda target, the runtime and CCCL headers nothing); the system's headers
// (SystemHeader: nothing). An include that none of these resolve, or that several rules provide,
// is left out of deps and logged, once per file; so is a dep kept for an include under a
// condition gazelle cannot evaluate.
func (l *cudaLang) Resolve(c *config.Config, ix *resolve.RuleIndex, rc *repo.RemoteCache, r *rule.Rule, imports interface{}, from label.Label) {
	ri, ok := imports.(*ruleIncludes)
	if !ok {
		return
	}
	cc := getCudaConfig(c)
	pp, _ := l.sources(c.RepoRoot)
	r.DelAttr("deps")
	known := func(inc cpp.Include) bool {
		_, ok := resolve.FindRuleWithOverride(c, resolve.ImportSpec{Lang: languageName, Imp: inc.Path}, languageName)
		return ok
	}
	deps := map[string]bool{}
	for _, d := range ri.deps {
		deps[d] = true
	}
	for _, fi := range ri.files {
		pp.seed(fi.path, fi.src)
		var problems, unsure []string
		seen := map[string]bool{}
		note := func(list *[]string, msg string) {
			if !seen[msg] {
				seen[msg] = true
				*list = append(*list, msg)
			}
		}
		pp.unit(cc, fi.path, ri.defines, known, func(inc reached) {
			dirs := searchPaths(cc, path.Dir(inc.from), inc.inc.Quoted)
			dep, problem := resolveInclude(c, ix, ri.own, from, dirs, inc.inc)
			written := writtenInclude(inc.inc)
			if inc.from != fi.path {
				written += " of " + inc.from
			}
			switch {
			case problem != "":
				if inc.state == cpp.Maybe {
					problem += "; under " + inc.why
				}
				note(&problems, fmt.Sprintf("%s (%s)", written, problem))
			case dep != label.NoLabel:
				if dep.Repo == "" {
					dep.Repo = c.RepoName
				}
				rel := dep.Rel(from.Repo, from.Pkg).String()
				deps[rel] = true
				if inc.state == cpp.Maybe {
					note(&unsure, fmt.Sprintf("%s (%s, under %s)", written, rel, inc.why))
				}
			}
		})
		if len(problems) > 0 {
			log.Printf("%s: includes left out of deps: %s; add them by hand (with # keep) or with # gazelle:resolve cuda HEADER LABEL", fi.path, strings.Join(problems, ", "))
		}
		if len(unsure) > 0 {
			log.Printf("%s: deps kept for includes under conditions gazelle cannot evaluate: %s; define or undefine the macros in the rule's defines or copts (-D, -U) to decide", fi.path, strings.Join(unsure, ", "))
		}
	}
	if len(deps) > 0 {
		list := make([]string, 0, len(deps))
		for d := range deps {
			list = append(list, d)
		}
		sort.Strings(list)
		r.SetAttr("deps", list)
	}
}

// resolveInclude resolves one include, looked up in the directories dirs. It returns
// label.NoLabel and no problem for the rule's own headers, toolkit headers that every compile
// sees and system headers, and what is wrong when the include does not resolve to exactly one
// rule.
func resolveInclude(c *config.Config, ix *resolve.RuleIndex, own map[string]bool, from label.Label, dirs []string, inc cpp.Include) (label.Label, string) {
	var candidates []string
	for _, d := range dirs {
		p := path.Join(d, inc.Path)
		if p == ".." || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") {
			continue
		}
		candidates = append(candidates, p)
	}
	for _, p := range candidates {
		if own[p] {
			return label.NoLabel, ""
		}
	}
	for _, p := range append([]string{inc.Path}, candidates...) {
		spec := resolve.ImportSpec{Lang: languageName, Imp: p}
		if l, ok := resolve.FindRuleWithOverride(c, spec, languageName); ok {
			return l, ""
		}
	}
	if ix != nil {
		for _, p := range candidates {
			spec := resolve.ImportSpec{Lang: languageName, Imp: p}
			var found []label.Label
			for _, m := range ix.FindRulesByImportWithConfig(c, spec, languageName) {
				if m.IsSelfImport(from) {
					return label.NoLabel, ""
				}
				found = append(found, m.Label)
			}
			switch len(found) {
			case 0:
				continue
			case 1:
				return found[0], ""
			default:
				names := make([]string, len(found))
				for i, l := range found {
					names[i] = l.Rel(from.Repo, from.Pkg).String()
				}
				sort.Strings(names)
				return label.NoLabel, fmt.Sprintf("provided by several rules: %s", strings.Join(names, " "))
			}
		}
	}
	if target, ok := toolkitHeader(inc.Path); ok {
		if target == "" {
			return label.NoLabel, ""
		}
		l, err := label.Parse(target)
		if err != nil {
			return label.NoLabel, fmt.Sprintf("toolkit target %s: %v", target, err)
		}
		return l, ""
	}
	for _, p := range candidates {
		if info, err := os.Stat(filepath.Join(c.RepoRoot, filepath.FromSlash(p))); err == nil && !info.IsDir() {
			return label.NoLabel, fmt.Sprintf("%s exists but is in no rule's hdrs", p)
		}
	}
	if cpp.SystemHeader(inc.Path) {
		return label.NoLabel, ""
	}
	return label.NoLabel, "not found in the repository, the CUDA toolkit or the system headers"
}
