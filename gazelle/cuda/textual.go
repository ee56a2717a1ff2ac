package cuda

import (
	"bytes"
	"fmt"
	"log"
	"os"
	"path"
	"path/filepath"
	"sort"

	"github.com/bazelbuild/bazel-gazelle/config"
	gzwalk "github.com/bazelbuild/bazel-gazelle/walk"

	"github.com/rules-cuda-go/rules_cuda_go/gazelle/cuda/internal/cpp"
)

// includedCu returns the workspace-relative paths of the repository's source files (.cu, .c, .cc,
// .cpp, .cxx) that a source of the repository #includes (#include "train.cu", "train_gpt2.c"):
// textual headers, not sources compiled on their own. The repository is read once per run,
// through Gazelle's walk (excluded directories are skipped); the includes count where a compile
// with the compiler's macros reaches them (see preprocessor), with the include directories of cc.
func (l *cudaLang) includedCu(c *config.Config, cc *cudaConfig) map[string]bool {
	if l.cuIncluded != nil && l.cuIncludedRoot == c.RepoRoot {
		return l.cuIncluded
	}
	pp := l.preprocessor(c.RepoRoot)
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
	l.cuIncluded, l.cuIncludedRoot = found, c.RepoRoot
	return found
}

// preprocessor returns the run's preprocessor for the repository at root.
func (l *cudaLang) preprocessor(root string) *preprocessor {
	if l.pp == nil || l.pp.root != root {
		l.pp = newPreprocessor(root)
	}
	return l.pp
}

// scanRepository calls visit with the regular files of each directory of the repository that
// Gazelle's walk does not exclude, from the root down. Gazelle's directory cache exists only while
// it walks the repository; outside a walk, an error says so.
func scanRepository(visit func(rel string, files []string)) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the repository's directories cannot be listed: %v", p)
		}
	}()
	queue := []string{""}
	for len(queue) > 0 {
		rel := queue[0]
		queue = queue[1:]
		info, err := gzwalk.GetDirInfo(rel)
		if err != nil {
			continue // an excluded directory
		}
		visit(rel, info.RegularFiles)
		for _, d := range info.Subdirs {
			queue = append(queue, path.Join(rel, d))
		}
	}
	return nil
}

// splitTextual moves the source files of the directory that a source includes (a source of the
// directory, or of another package: see includedCu) from the sources that the directory's rules
// compile to textualSrcs, the textual_hdrs of its library. One that defines main() stays a source
// too: it is a program of its own that other programs include.
func (g *generator) splitTextual(included map[string]bool) {
	split := func(srcs []string) []string {
		var kept []string
		for _, f := range srcs {
			if !included[path.Join(g.args.Rel, f)] {
				kept = append(kept, f)
				continue
			}
			g.textualSrcs = append(g.textualSrcs, f)
			if src, ok := g.read(f); ok && cpp.ScanSource(src).DefinesMain {
				kept = append(kept, f)
			}
		}
		return kept
	}
	g.cuSrcs = split(g.cuSrcs)
	g.hostSrcs = split(g.hostSrcs)
	sort.Strings(g.textualSrcs)
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
