package cuda

import (
	"fmt"
	"log"
	"path"
	"sort"
	"strings"

	"github.com/bazelbuild/bazel-gazelle/config"
	"github.com/bazelbuild/bazel-gazelle/label"
	"github.com/bazelbuild/bazel-gazelle/repo"
	"github.com/bazelbuild/bazel-gazelle/resolve"
	"github.com/bazelbuild/bazel-gazelle/rule"
)

// Imports implements resolve.Resolver: a cu_library or cc_library is indexed under the
// workspace-relative paths of its public headers (hdrs, and textual_hdrs of a cc_library), plus
// the shorter paths its includes attribute (and a cc_library's strip_include_prefix and
// include_prefix) make them includable by.
func (*cudaLang) Imports(c *config.Config, r *rule.Rule, f *rule.File) []resolve.ImportSpec {
	keys := []string{"hdrs"}
	switch r.Kind() {
	case cuLibraryKind:
	case ccLibraryKind:
		keys = append(keys, "textual_hdrs")
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
		for _, h := range r.AttrStrings(key) {
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

// Resolve implements resolve.Resolver: it sets the deps of a generated cu_library from the quoted
// #include lines of its files. Each include is looked up relative to the including file's
// directory, then relative to the repository root (the order of a quoted include's search):
// first among the rule's own headers, then in `# gazelle:resolve cuda <path> <label>` directives,
// then in the index of cu_library and cc_library headers. Includes that none of these resolve,
// or that several rules provide, are left out of deps and logged, once per file.
func (*cudaLang) Resolve(c *config.Config, ix *resolve.RuleIndex, rc *repo.RemoteCache, r *rule.Rule, imports interface{}, from label.Label) {
	ri, ok := imports.(*ruleIncludes)
	if !ok {
		return
	}
	r.DelAttr("deps")
	deps := map[string]bool{}
	for _, fi := range ri.files {
		var problems []string
		for _, inc := range fi.includes {
			l, problem := resolveInclude(c, ix, ri.own, from, path.Dir(fi.path), inc)
			switch {
			case problem != "":
				problems = append(problems, problem)
			case l != label.NoLabel:
				if l.Repo == "" {
					l.Repo = c.RepoName
				}
				deps[l.Rel(from.Repo, from.Pkg).String()] = true
			}
		}
		if len(problems) > 0 {
			log.Printf("%s: includes left out of deps: %s; add them by hand (with # keep) or with # gazelle:resolve cuda cuda HEADER LABEL", fi.path, strings.Join(problems, ", "))
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

// resolveInclude resolves one quoted include of a file in dir. It returns label.NoLabel and no
// problem for the rule's own headers, and a description of the problem when the include does not
// resolve to exactly one rule.
func resolveInclude(c *config.Config, ix *resolve.RuleIndex, own map[string]bool, from label.Label, dir, inc string) (label.Label, string) {
	var candidates []string
	for _, p := range []string{path.Join(dir, inc), path.Clean(inc)} {
		if p == ".." || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") {
			continue
		}
		if len(candidates) == 0 || candidates[0] != p {
			candidates = append(candidates, p)
		}
	}
	for _, p := range candidates {
		if own[p] {
			return label.NoLabel, ""
		}
		spec := resolve.ImportSpec{Lang: languageName, Imp: p}
		if l, ok := resolve.FindRuleWithOverride(c, spec, languageName); ok {
			return l, ""
		}
		if ix == nil {
			continue
		}
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
			return label.NoLabel, fmt.Sprintf("%q (provided by several rules: %s)", inc, strings.Join(names, " "))
		}
	}
	return label.NoLabel, fmt.Sprintf("%q (no rule provides it)", inc)
}
