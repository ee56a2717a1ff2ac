package cuda

import (
	"log"
	"path"
	"sort"
	"strings"

	"github.com/bazelbuild/bazel-gazelle/language"
	"github.com/bazelbuild/bazel-gazelle/rule"
)

const ccBinaryKind = "cc_binary"

// generateBinary adds, under `# gazelle:cuda_binaries enabled`, a cc_binary that links the
// directory's cu_library lib when exactly one of lib's sources defines main(); it is named by
// the cuda_binary_naming pattern. A cc_binary of that name whose deps are only a cu_library of the
// directory is deleted when no source defines main() any more.
func (g *generator) generateBinary(lib *rule.Rule, res *language.GenerateResult) {
	if !g.cc.binaries {
		return
	}
	name := g.cc.binaryName(g.dirname())
	var existing *rule.Rule
	if g.args.File != nil {
		for _, r := range g.args.File.Rules {
			if r.Name() == name {
				existing = r
			}
		}
	}
	if existing != nil && (existing.Kind() != ccBinaryKind || existing.ShouldKeep()) {
		return
	}
	var mains []string
	if lib != nil {
		for _, f := range lib.AttrStrings("srcs") {
			ext := path.Ext(f)
			if !cudaSourceExts[ext] && !hostSourceExts[ext] {
				continue
			}
			if src, ok := g.read(f); ok && ScanSource(src).DefinesMain {
				mains = append(mains, f)
			}
		}
	}
	switch {
	case len(mains) == 1 && name == lib.Name():
		log.Printf("%s: %s defines main(), but the cc_binary would have the cu_library's name %s; set # gazelle:%s to another pattern", g.buildPath(), mains[0], name, directiveBinNaming)
	case len(mains) == 1:
		for _, r := range g.args.OtherGen {
			if r.Name() == name {
				log.Printf("%s: %s defines main(), but the %s generated for this directory is named %s; set # gazelle:%s to another pattern", g.buildPath(), mains[0], r.Kind(), name, directiveBinNaming)
				return
			}
		}
		b := rule.NewRule(ccBinaryKind, name)
		b.SetAttr("deps", []string{":" + lib.Name()})
		res.Gen = append(res.Gen, b)
		res.Imports = append(res.Imports, nil)
	case len(mains) > 1:
		sort.Strings(mains)
		log.Printf("%s: several sources of cu_library %s define main() (%s): no cc_binary generated; give each its own directory", g.buildPath(), lib.Name(), strings.Join(mains, ", "))
	case existing != nil && g.linksOnlyLocalLibrary(existing):
		res.Empty = append(res.Empty, rule.NewRule(ccBinaryKind, name))
	}
}

// linksOnlyLocalLibrary reports whether binary b has no srcs and its deps are one cu_library of
// this directory (or a rule that no longer exists): the shape generateBinary writes.
func (g *generator) linksOnlyLocalLibrary(b *rule.Rule) bool {
	deps := b.AttrStrings("deps")
	if b.Attr("srcs") != nil || len(deps) != 1 {
		return false
	}
	n, ok := localName(deps[0], g.args.Rel)
	if !ok {
		return false
	}
	for _, r := range g.args.File.Rules {
		if r.Name() == n {
			return g.isKind(r, cuLibraryKind)
		}
	}
	return true
}

// dirname is the base name of the directory ({dirname} of the naming patterns); the repository's
// name at the root.
func (g *generator) dirname() string {
	if g.args.Rel == "" {
		if g.c.RepoName != "" {
			return g.c.RepoName
		}
		return path.Base(g.c.RepoRoot)
	}
	return path.Base(g.args.Rel)
}
