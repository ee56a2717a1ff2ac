package cuda

import (
	"bytes"
	"log"
	"os"
	"path"
	"path/filepath"

	"github.com/bazelbuild/bazel-gazelle/config"
)

// includedSources are the workspace-relative paths of the repository's source files (.cu, .c,
// .cc, .cpp, .cxx) that a source of the repository #includes (#include "train.cu",
// "train_gpt2.c"): textual headers, not sources compiled on their own. The repository is read
// once per run (see get).
type includedSources struct {
	root string
	set  map[string]bool
}

// get returns the included sources of the repository at c.RepoRoot, read on the first call
// through Gazelle's walk (excluded directories are skipped); the includes count where a compile
// with the compiler's macros reaches them (see preprocessor), with the include directories of cc.
func (s *includedSources) get(c *config.Config, cc *cudaConfig, pp *preprocessor) map[string]bool {
	if s.set != nil && s.root == c.RepoRoot {
		return s.set
	}
	found := map[string]bool{}
	if err := scanRepository(func(rel string, files []string) {
		for _, f := range files {
			ext := path.Ext(f)
			if !cudaSourceExts[ext] && !hostSourceExts[ext] && !headerExts[ext] {
				continue
			}
			p := path.Join(rel, f)
			src, err := os.ReadFile(filepath.Join(c.RepoRoot, filepath.FromSlash(p)))
			if err != nil || !includesSource(src) {
				continue
			}
			pp.seed(p, src)
			pp.unit(cc, p, nil, nil, func(r reached) {
				if ext := path.Ext(r.inc.Path); !cudaSourceExts[ext] && !hostSourceExts[ext] {
					return
				}
				if target, ok := pp.locate(cc, r.from, r.inc); ok {
					found[target] = true
				}
			})
		}
	}); err != nil {
		log.Printf("%s: source files included by other packages' sources are not known (%v): only includes from their own directory make them textual_hdrs", c.RepoRoot, err)
	}
	s.set, s.root = found, c.RepoRoot
	return found
}

// includesSource reports whether src may #include a source file (a .cu, .c, .cc, .cpp or .cxx):
// whether one of those extensions ends a quoted or angle include's name.
func includesSource(src []byte) bool {
	for ext := range cudaSourceExts {
		if bytes.Contains(src, []byte(ext+"\"")) || bytes.Contains(src, []byte(ext+">")) {
			return true
		}
	}
	for ext := range hostSourceExts {
		if bytes.Contains(src, []byte(ext+"\"")) || bytes.Contains(src, []byte(ext+">")) {
			return true
		}
	}
	return false
}
