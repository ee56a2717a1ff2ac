package cuda

import (
	"log"
	"os"
	"path"
	"path/filepath"
	"strings"

	bzl "github.com/bazelbuild/buildtools/build"

	"github.com/bazelbuild/bazel-gazelle/config"
	"github.com/bazelbuild/bazel-gazelle/rule"
)

// Directive names. See the package documentation for what each one does.
const (
	directiveEnabled   = "cuda"
	directiveNaming    = "cuda_library_naming"
	directiveArchs     = "cuda_archs"
	directiveGoWiring  = "cuda_go_wiring"
	directiveRulesRepo = "cuda_rules_repo"
	directiveInclude   = "cuda_include_dir"
	directiveBinaries  = "cuda_binaries"
	directiveBinNaming = "cuda_binary_naming"
	directiveDefine    = "cuda_define"
	directiveCopts     = "cuda_copts"
	directiveProgram   = "cuda_program"
)

const (
	// DefaultNaming is the default cuda_library_naming pattern.
	DefaultNaming = "{dirname}"
	// DefaultBinaryNaming is the default cuda_binary_naming pattern.
	DefaultBinaryNaming = "{dirname}_bin"
	// DefaultRulesRepo is the repository that generated files load the rules from by default.
	DefaultRulesRepo = "@rules_cuda_go"
	// RulesModuleName is the Bazel module name of rules_cuda_go.
	RulesModuleName = "rules_cuda_go"
	// rulesFile is the .bzl file, inside the rules repository, that defines the rules.
	rulesFile = "//rules:defs.bzl"
)

// cudaConfig is the configuration of one directory, inherited by its subdirectories.
type cudaConfig struct {
	// enabled is false under `# gazelle:cuda disabled`.
	enabled bool
	// naming is the cu_library name pattern of this directory; {dirname} is the directory's base
	// name. namingInherited is the pattern subdirectories start from: a literal name (a value
	// without {dirname}) names this directory's library only.
	naming, namingInherited string
	// archs is the value of the archs attribute; "" leaves the attribute as it is.
	archs string
	// goWiring makes the Go library of a directory a go_cuda_library depending on the
	// directory's cu_library when its cgo preamble includes one of that library's headers.
	goWiring bool
	// includeDirs are the directories (relative to the repository root) of cuda_include_dir
	// directives: where includes are looked for, like nvcc's -I.
	includeDirs []string
	// implied are the include directories that the repository's includes imply (see
	// impliedIncludeDirs), shared by every directory's configuration of a run.
	implied *impliedDirs
	// binaries generates a cc_binary per program: a source that defines main().
	binaries bool
	// binaryNaming is the name pattern of the cc_binary of a directory's only program; {dirname}
	// is the directory's base name. binaryNamingInherited is the pattern subdirectories start
	// from (see namingInherited).
	binaryNaming, binaryNamingInherited string
	// ownedDirs are directories (relative to the repository root) whose files rules of an
	// ancestor package already use (srcs = ["csrc/kernel.cu"]): no BUILD file is generated there.
	// ownedTrees are directories whose whole subtree a recursive glob (csrc/**) uses.
	ownedDirs, ownedTrees map[string]bool
	// compile are the macros and compiler options of cuda_define and cuda_copts directives,
	// inherited (see compileFlags).
	compile compileFlags
	// programs are the cuda_program directives of this directory's build file (not inherited).
	programs []programDirective
}

// ownedByAncestor reports whether rules of an ancestor package use the files of directory rel.
func (cc *cudaConfig) ownedByAncestor(rel string) bool {
	if cc.ownedDirs[rel] {
		return true
	}
	for d := rel; ; {
		if cc.ownedTrees[d] {
			return true
		}
		if d == "" {
			return false
		}
		if d = path.Dir(d); d == "." {
			d = ""
		}
	}
}

// newCudaConfig returns the configuration of the root directory before its directives.
func newCudaConfig() *cudaConfig {
	return &cudaConfig{
		enabled:               true,
		naming:                DefaultNaming,
		namingInherited:       DefaultNaming,
		goWiring:              true,
		binaries:              true,
		binaryNaming:          DefaultBinaryNaming,
		binaryNamingInherited: DefaultBinaryNaming,
		implied:               &impliedDirs{},
	}
}

// clone returns the configuration a subdirectory starts from: a literal name set for this
// directory is not inherited.
func (cc *cudaConfig) clone() *cudaConfig {
	c := *cc
	c.naming = c.namingInherited
	c.binaryNaming = c.binaryNamingInherited
	c.programs = nil
	return &c
}

// libraryName returns the cu_library name that the naming pattern gives a directory.
func (cc *cudaConfig) libraryName(dirname string) string {
	return strings.ReplaceAll(cc.naming, "{dirname}", dirname)
}

// binaryName returns the cc_binary name that the binary naming pattern gives a directory.
func (cc *cudaConfig) binaryName(dirname string) string {
	return strings.ReplaceAll(cc.binaryNaming, "{dirname}", dirname)
}

// isIncludeDir reports whether rel is the directory of a cuda_include_dir directive, or one that
// the repository's includes imply (see impliedIncludeDirs).
func (cc *cudaConfig) isIncludeDir(rel string) bool {
	for _, d := range cc.includeDirs {
		if d == rel {
			return true
		}
	}
	return cc.implied != nil && cc.implied.set[rel]
}

// impliedDirs are include directories that no directive names but the repository's includes
// imply (see impliedIncludeDirs).
type impliedDirs struct {
	// done: the repository has been read (once per run).
	done bool
	dirs []string
	set  map[string]bool
}

// programFiles returns the files that the directory's cuda_program directives list.
func (cc *cudaConfig) programFiles() map[string]bool {
	out := map[string]bool{}
	for _, d := range cc.programs {
		for _, f := range d.files {
			out[f] = true
		}
	}
	return out
}

// getCudaConfig returns the configuration of the directory c configures.
func getCudaConfig(c *config.Config) *cudaConfig {
	if cc, ok := c.Exts[languageName].(*cudaConfig); ok {
		return cc
	}
	return newCudaConfig()
}

// configureDir returns the configuration of directory rel: its parent's (nil at the root)
// with the directives of the directory's build file f (nil for none) applied, and with the
// subdirectories whose files that build file uses recorded.
func configureDir(parent *cudaConfig, rel string, f *rule.File) *cudaConfig {
	var cc *cudaConfig
	if parent != nil {
		cc = parent.clone()
	} else {
		cc = newCudaConfig()
	}
	if f == nil {
		return cc
	}
	for _, d := range f.Directives {
		switch d.Key {
		case directiveEnabled:
			if v, ok := parseSwitch(f, d); ok {
				cc.enabled = v
			}
		case directiveGoWiring:
			if v, ok := parseSwitch(f, d); ok {
				cc.goWiring = v
			}
		case directiveNaming:
			cc.naming, cc.namingInherited = parseNaming(f, d, cc.naming, cc.namingInherited, DefaultNaming)
		case directiveBinNaming:
			cc.binaryNaming, cc.binaryNamingInherited = parseNaming(f, d, cc.binaryNaming, cc.binaryNamingInherited, DefaultBinaryNaming)
		case directiveBinaries:
			if v, ok := parseSwitch(f, d); ok {
				cc.binaries = v
			}
		case directiveInclude:
			cc.includeDirs = parseIncludeDir(f, d, rel, cc.includeDirs)
		case directiveArchs:
			cc.archs = d.Value
		case directiveDefine:
			cc.compile = cc.compile.withDefine(f, d)
		case directiveCopts:
			cc.compile = cc.compile.withCopts(f, d)
		case directiveProgram:
			if p, ok := parseProgram(f, d, cc.programs); ok {
				cc.programs = append(cc.programs, p)
			}
		case directiveRulesRepo:
			if rel != "" {
				log.Printf("%s: # gazelle:%s is only read from the root build file; ignored here", f.Path, d.Key)
			}
		}
	}
	dirs, trees := subdirsUsedBy(f, rel)
	cc.ownedDirs = addAll(cc.ownedDirs, dirs)
	cc.ownedTrees = addAll(cc.ownedTrees, trees)
	return cc
}

// rulesRepoDirective returns the value of the cuda_rules_repo directive of the root build file
// in dir (nil for none): "" or a repository name starting with @; another value is logged and
// ignored.
func rulesRepoDirective(dir string, buildFileNames []string) *string {
	var repo *string
	for _, name := range buildFileNames {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); err != nil {
			continue
		}
		f, err := rule.LoadFile(p, "")
		if err != nil {
			return nil // gazelle reports the parse error itself
		}
		for _, d := range f.Directives {
			if d.Key == directiveRulesRepo {
				v := d.Value
				repo = &v
			}
		}
		break
	}
	if repo != nil && *repo != "" && !strings.HasPrefix(*repo, "@") {
		log.Printf("%s: # gazelle:%s %s: expected \"\" or a repository name starting with @", filepath.Join(dir, "BUILD"), directiveRulesRepo, *repo)
		return nil
	}
	return repo
}

// knownDirectives are the directives the extension reads.
var knownDirectives = []string{directiveEnabled, directiveNaming, directiveArchs, directiveGoWiring, directiveRulesRepo, directiveInclude, directiveBinaries, directiveBinNaming, directiveDefine, directiveCopts, directiveProgram}

// addAll returns a copy of m with keys added, or m itself when there is nothing to add.
func addAll(m map[string]bool, keys []string) map[string]bool {
	if len(keys) == 0 {
		return m
	}
	out := make(map[string]bool, len(m)+len(keys))
	for k := range m {
		out[k] = true
	}
	for _, k := range keys {
		out[k] = true
	}
	return out
}

// parseNaming returns the pattern of a naming directive for this directory and the one its
// subdirectories inherit: def for an empty value; a pattern with {dirname} for both; a literal name
// (no {dirname}) for this directory only, since every subdirectory would get the same name; the
// old values (and a log line) for a value that is not a target name.
func parseNaming(f *rule.File, d rule.Directive, old, oldInherited, def string) (here, inherited string) {
	switch {
	case d.Value == "":
		return def, def
	case strings.ContainsAny(d.Value, " \t/:"):
		log.Printf("%s: # gazelle:%s %q: a target name pattern may not contain spaces, '/' or ':'", f.Path, d.Key, d.Value)
		return old, oldInherited
	case !strings.Contains(d.Value, "{dirname}"):
		return d.Value, oldInherited
	}
	return d.Value, d.Value
}

// parseIncludeDir returns dirs with the directory of a cuda_include_dir directive added: a path
// relative to the directory rel of the build file, or to the repository root when it starts with
// "/" or "//". An empty value clears the list inherited from parent directories.
func parseIncludeDir(f *rule.File, d rule.Directive, rel string, dirs []string) []string {
	v := strings.TrimSpace(d.Value)
	if v == "" {
		return nil
	}
	p := path.Join(rel, v)
	if strings.HasPrefix(v, "/") {
		p = path.Clean(strings.TrimLeft(v, "/"))
	}
	if p == "." {
		p = ""
	}
	if p == ".." || strings.HasPrefix(p, "../") {
		log.Printf("%s: # gazelle:%s %q: the directory is outside the repository", f.Path, d.Key, d.Value)
		return dirs
	}
	for _, x := range dirs {
		if x == p {
			return dirs
		}
	}
	return append(dirs[:len(dirs):len(dirs)], p)
}

// parseSwitch reads an enabled/disabled directive; false (and a log line) for another value.
func parseSwitch(f *rule.File, d rule.Directive) (bool, bool) {
	switch d.Value {
	case "enabled", "true":
		return true, true
	case "disabled", "false":
		return false, true
	}
	log.Printf("%s: # gazelle:%s %q: expected enabled or disabled", f.Path, d.Key, d.Value)
	return false, false
}

// subdirsUsedBy returns the subdirectories of rel (relative to the repository root) that the
// srcs, hdrs and textual_hdrs of f's rules name files in, also through glob patterns (dirs), and
// the directories whose whole subtree a recursive glob pattern ("**") covers (trees).
func subdirsUsedBy(f *rule.File, rel string) (dirs, trees []string) {
	for _, r := range f.Rules {
		for _, key := range []string{"srcs", "hdrs", "textual_hdrs"} {
			expr := r.Attr(key)
			if expr == nil {
				continue
			}
			bzl.Walk(expr, func(e bzl.Expr, _ []bzl.Expr) {
				s, ok := e.(*bzl.StringExpr)
				if !ok || s.Value == "" || strings.HasPrefix(s.Value, "@") || strings.HasPrefix(s.Value, "//") {
					return
				}
				v := strings.TrimPrefix(s.Value, ":")
				if i := strings.IndexAny(v, "*?["); i >= 0 {
					recursive := strings.Contains(v, "**")
					v = v[:strings.LastIndexByte(v[:i], '/')+1]
					if recursive {
						trees = append(trees, path.Join(rel, v))
					}
				}
				for d := path.Dir(v); d != "." && d != "/" && d != "" && !strings.HasPrefix(d, ".."); d = path.Dir(d) {
					dirs = append(dirs, path.Join(rel, d))
				}
			})
		}
	}
	return dirs, trees
}
