package cuda

import (
	"flag"

	"github.com/bazelbuild/bazel-gazelle/config"
	"github.com/bazelbuild/bazel-gazelle/rule"
)

// RegisterFlags implements config.Configurer; the extension has no flags.
func (*cudaLang) RegisterFlags(fs *flag.FlagSet, cmd string, c *config.Config) {}

// CheckFlags implements config.Configurer. It decides where generated files load the rules from:
// the `# gazelle:cuda_rules_repo` directive of the root build file, else "" (this repository)
// when the repository is the rules_cuda_go module itself, else the apparent name that
// MODULE.bazel gives rules_cuda_go, else "@rules_cuda_go". Gazelle fixes the load statements of
// all files with one list, before it reads directives, hence the root build file only.
func (l *cudaLang) CheckFlags(fs *flag.FlagSet, c *config.Config) error {
	l.repoName = c.RepoName
	dir := c.RepoRoot
	if c.ReadBuildFilesDir != "" {
		dir = c.ReadBuildFilesDir
	}
	l.rulesRepo = rulesRepoDirective(dir, c.ValidBuildFileNames)
	return nil
}

// KnownDirectives implements config.Configurer.
func (*cudaLang) KnownDirectives() []string {
	return knownDirectives
}

// Configure implements config.Configurer: it applies the directives of the build file in rel
// (see configureDir), and makes go_cuda_library an alias of go_library (so that Gazelle's Go
// extension matches, indexes and resolves it).
func (*cudaLang) Configure(c *config.Config, rel string, f *rule.File) {
	parent, _ := c.Exts[languageName].(*cudaConfig)
	c.Exts[languageName] = configureDir(parent, rel, f)
	if rel == "" {
		if c.AliasMap == nil {
			c.AliasMap = map[string]string{}
		}
		if _, ok := c.AliasMap[goCudaLibraryKind]; !ok {
			c.AliasMap[goCudaLibraryKind] = "go_library"
		}
	}
}
