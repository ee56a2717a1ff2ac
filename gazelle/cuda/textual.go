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
)

// includedCu returns the workspace-relative paths of the repository's .cu files that a source of
// the repository #includes (#include "train.cu"): textual headers, not sources compiled on their
// own. The repository is read once per run, through Gazelle's walk (excluded directories are
// skipped); the includes count where a compile with the compiler's macros reaches them (see
// preprocessor), with the include directories of cc.
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
			if err != nil || !bytes.Contains(src, []byte(".cu\"")) && !bytes.Contains(src, []byte(".cu>")) {
				continue
			}
			pp.seed(p, src)
			pp.unit(cc, p, nil, nil, func(r reached) {
				if path.Ext(r.inc.Path) != ".cu" {
					return
				}
				if target, ok := pp.locate(cc, r.from, r.inc); ok {
					found[target] = true
				}
			})
		}
	}); err != nil {
		log.Printf("%s: .cu files included by other packages' sources are not known (%v): only includes from their own directory make them textual_hdrs", c.RepoRoot, err)
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

// splitTextual moves the .cu files of the directory that a source includes (a source of the
// directory, or of another package: see includedCu) from the sources that the directory's rules
// compile to textualSrcs, the textual_hdrs of its library. One that defines main() stays a source
// too: it is a program of its own that other programs include.
func (g *generator) splitTextual(included map[string]bool) {
	var kept []string
	for _, f := range g.cuSrcs {
		if !included[path.Join(g.args.Rel, f)] {
			kept = append(kept, f)
			continue
		}
		g.textualSrcs = append(g.textualSrcs, f)
		if src, ok := g.read(f); ok && ScanSource(src).DefinesMain {
			kept = append(kept, f)
		}
	}
	g.cuSrcs = kept
	sort.Strings(g.textualSrcs)
}
