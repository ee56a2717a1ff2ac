package cuda

import (
	"github.com/bazelbuild/bazel-gazelle/config"
	"github.com/bazelbuild/bazel-gazelle/language"
	golang "github.com/bazelbuild/bazel-gazelle/language/go"
	"github.com/bazelbuild/bazel-gazelle/rule"
)

// cudaLang is the Gazelle language extension for CUDA.
type cudaLang struct {
	// repoName is the name of the repository Gazelle runs in (its module name).
	repoName string
	// rulesRepo is the value of the root build file's cuda_rules_repo directive, if any.
	rulesRepo *string
	// pp reads the repository's sources, and codeFacts holds what their code shows, once per
	// run (see sources).
	pp        *preprocessor
	codeFacts *codeFactCache
	// included are the source files that other sources include, read once per run.
	included includedSources
}

// NewLanguage returns the CUDA language extension, for gazelle_binary's languages.
func NewLanguage() language.Language {
	return &cudaLang{}
}

// Name implements language.Language.
func (*cudaLang) Name() string { return languageName }

// Kinds implements language.Language.
//
// cu_library: gazelle owns srcs, hdrs (and archs under `# gazelle:cuda_archs`); deps are
// resolved from #include lines; every other attribute is the user's.
//
// go_cuda_library: the attributes of go_library (srcs, importpath, deps, ...) are the Go
// extension's, cu_deps is this extension's. Configure makes go_cuda_library an alias of
// go_library, so Gazelle's Go extension indexes and resolves go_cuda_library rules.
//
// cc_library is listed only so that Gazelle indexes the headers of hand-written cc_library
// rules (through Imports) for #include resolution; this extension never generates one.
//
// cc_binary: generated for each program (a source defining main()) unless `# gazelle:cuda_binaries
// disabled`; gazelle owns its deps.
func (*cudaLang) Kinds() map[string]rule.KindInfo {
	return kinds
}

var kinds = map[string]rule.KindInfo{
	cuLibraryKind: {
		NonEmptyAttrs:  map[string]bool{"srcs": true, "hdrs": true, "textual_hdrs": true},
		MergeableAttrs: map[string]bool{"srcs": true, "hdrs": true, "textual_hdrs": true, "archs": true},
		ResolveAttrs:   map[string]bool{"deps": true},
	},
	goCudaLibraryKind: goCudaLibraryKindInfo(),
	ccLibraryKind: {
		NonEmptyAttrs: map[string]bool{"srcs": true, "hdrs": true, "deps": true},
	},
	ccBinaryKind: {
		NonEmptyAttrs:  map[string]bool{"srcs": true, "deps": true},
		MergeableAttrs: map[string]bool{"deps": true},
	},
}

// goCudaLibraryKindInfo is go_library's KindInfo (from Gazelle's Go extension) with cu_deps
// mergeable.
func goCudaLibraryKindInfo() rule.KindInfo {
	goLib := golang.NewLanguage().Kinds()["go_library"]
	info := rule.KindInfo{
		MatchAny:        goLib.MatchAny,
		MatchAttrs:      append([]string(nil), goLib.MatchAttrs...),
		NonEmptyAttrs:   copyAttrs(goLib.NonEmptyAttrs),
		SubstituteAttrs: copyAttrs(goLib.SubstituteAttrs),
		MergeableAttrs:  copyAttrs(goLib.MergeableAttrs),
		ResolveAttrs:    copyAttrs(goLib.ResolveAttrs),
	}
	info.MergeableAttrs["cu_deps"] = true
	info.NonEmptyAttrs["cu_deps"] = true
	return info
}

// copyAttrs returns a copy of an attribute set, with room for one more.
func copyAttrs(m map[string]bool) map[string]bool {
	out := make(map[string]bool, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// sources returns the run's preprocessor and code facts of the repository at root (new ones for
// another root).
func (l *cudaLang) sources(root string) (*preprocessor, *codeFactCache) {
	if l.pp == nil || l.pp.root != root {
		l.pp = newPreprocessor(root)
		l.codeFacts = newCodeFactCache(root)
	}
	return l.pp, l.codeFacts
}

// rulesLoad returns the label of rules_cuda_go's defs.bzl as generated files load it.
func (l *cudaLang) rulesLoad(moduleToApparentName func(string) string) string {
	repo := DefaultRulesRepo
	switch {
	case l.rulesRepo != nil:
		repo = *l.rulesRepo
	case l.repoName == RulesModuleName:
		repo = ""
	case moduleToApparentName != nil && moduleToApparentName(RulesModuleName) != "":
		repo = "@" + moduleToApparentName(RulesModuleName)
	}
	return repo + rulesFile
}

// ApparentLoads implements language.ModuleAwareLanguage. cc_binary comes from rules_cc when the
// module depends on it, else from rules_cuda_go's defs.bzl, which re-exports it: a module sees
// only the repositories of its own bazel_deps, and a CUDA repository need not list rules_cc.
func (l *cudaLang) ApparentLoads(moduleToApparentName func(string) string) []rule.LoadInfo {
	rules := rule.LoadInfo{
		Name:    l.rulesLoad(moduleToApparentName),
		Symbols: []string{cuLibraryKind, goCudaLibraryKind, requiresCuda},
	}
	if moduleToApparentName == nil || moduleToApparentName("rules_cc") == "" {
		rules.Symbols = append(rules.Symbols, ccBinaryKind)
		return []rule.LoadInfo{rules}
	}
	return []rule.LoadInfo{
		rules,
		{
			Name:    "@" + moduleToApparentName("rules_cc") + "//cc:defs.bzl",
			Symbols: []string{ccBinaryKind},
		},
	}
}

// Loads implements language.Language (Gazelle calls ApparentLoads instead).
func (l *cudaLang) Loads() []rule.LoadInfo {
	return l.ApparentLoads(nil)
}

// Fix implements language.Language; there is nothing deprecated to fix.
func (*cudaLang) Fix(c *config.Config, f *rule.File) {}

var (
	_ language.Language            = (*cudaLang)(nil)
	_ language.ModuleAwareLanguage = (*cudaLang)(nil)
)
