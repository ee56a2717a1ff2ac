package cuda

import (
	"github.com/bazelbuild/bazel-gazelle/language"
	"github.com/bazelbuild/bazel-gazelle/rule"
)

// GenerateRules implements language.Language. See the package documentation for the rules.
//
// It only orchestrates, in the shape of Gazelle's own Go extension: the directory and the facts
// of its files (newDirInput), the model of its rules (planDirectory), the rules emitted from
// that model (libraryRule, binaryRule) with what Resolve needs of each (ruleImports), and the Go
// library wired to them (wireGo).
func (l *cudaLang) GenerateRules(args language.GenerateArgs) language.GenerateResult {
	var res language.GenerateResult
	cc := getCudaConfig(args.Config)
	if !cc.enabled || (args.File == nil && cc.ownedByAncestor(args.Rel)) {
		return res
	}
	impliedIncludeDirs(args.Config, cc)
	pp, codeFacts := l.sources(args.Config.RepoRoot)
	d := newDirInput(args, cc, pp, codeFacts, func() map[string]bool {
		return l.included.get(args.Config, cc, pp)
	})
	p := planDirectory(d)

	// The rules a Go library of the directory may include headers of: not programs' libraries.
	var shared []*rule.Rule
	for _, u := range p.libs {
		r := libraryRule(d, u)
		res.Gen = append(res.Gen, r)
		res.Imports = append(res.Imports, ruleImports(d, r, u.deps))
		if !u.private {
			shared = append(shared, r)
		}
		if u.binary != nil {
			res.Gen = append(res.Gen, binaryRule(u))
			res.Imports = append(res.Imports, nil)
		}
	}
	res.Empty = append(res.Empty, p.empty...)
	if cc.goWiring {
		wireGo(d, shared, p.deleted)
	}
	return res
}
