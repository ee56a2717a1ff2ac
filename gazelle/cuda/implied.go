package cuda

import (
	"log"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bazelbuild/bazel-gazelle/config"
	"github.com/bazelbuild/bazel-gazelle/rule"

	"github.com/rules-cuda-go/rules_cuda_go/gazelle/cuda/internal/cpp"
)

// impliedIncludeDirs finds, once per run, the include directories that the repository's own
// includes imply: a directory D is one when a source or header includes "P" (quoted or angle)
// that the compiler's search (see searchPaths) finds nowhere, that is no toolkit or system
// header, and that exactly one file of the repository, D/P, ends with. That is the -I of the
// repository's Makefile or CMake build (include_directories(../utils) for "cublas_utils.h",
// -Isrc for <runner.cuh>). Such a directory is then an include directory as if a
// `# gazelle:cuda_include_dir D` directive named it: where includes are looked for, and its rules
// get includes = ["."]. An include that several files end with implies nothing and is logged;
// one that a build file's include directories find (see buildFileDirs) implies nothing either.
func impliedIncludeDirs(c *config.Config, cc *cudaConfig) {
	im := cc.implied
	if im == nil || im.done {
		return
	}
	im.done = true
	all := map[string]bool{}
	byBase := map[string][]string{}
	var sources []string
	// Where the build files already make headers includable by shorter paths: directories of
	// cuda_include_dir directives (in any build file) and of rules' includes and
	// strip_include_prefix attributes. Includes found there imply nothing.
	known := map[string]bool{}
	if err := scanRepository(func(rel string, files []string) {
		for _, d := range buildFileDirs(c, rel, files) {
			known[d] = true
		}
		for _, f := range files {
			p := path.Join(rel, f)
			all[p] = true
			ext := path.Ext(f)
			if headerExts[ext] || cudaSourceExts[ext] {
				byBase[f] = append(byBase[f], p)
			}
			if headerExts[ext] || cudaSourceExts[ext] || hostSourceExts[ext] {
				sources = append(sources, p)
			}
		}
	}); err != nil {
		log.Printf("%s: include directories are not inferred (%v)", c.RepoRoot, err)
		return
	}
	type witness struct{ inc, from string }
	roots := map[string]witness{}
	ambiguous := map[string][]string{}
	ambiguousFrom := map[string]witness{}
	for _, from := range sources {
		src, err := os.ReadFile(filepath.Join(c.RepoRoot, filepath.FromSlash(from)))
		if err != nil {
			continue
		}
		for _, inc := range cpp.ParseIncludes(src) {
			p := path.Clean(inc.Path)
			if p == "." || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") || cpp.SystemHeader(inc.Path) {
				continue
			}
			if _, ok := toolkitHeader(inc.Path); ok {
				continue
			}
			found := false
			for _, d := range searchPaths(cc, path.Dir(from), inc.Quoted) {
				if all[path.Join(d, p)] {
					found = true
					break
				}
			}
			for d := range known {
				if found {
					break
				}
				found = all[path.Join(d, p)]
			}
			if found {
				continue
			}
			var cands []string
			for _, h := range byBase[path.Base(p)] {
				if strings.HasSuffix(h, "/"+p) {
					cands = append(cands, h)
				}
			}
			switch len(cands) {
			case 0:
			case 1:
				root := strings.TrimSuffix(cands[0], "/"+p)
				if _, ok := roots[root]; !ok {
					roots[root] = witness{inc: writtenInclude(inc), from: from}
				}
			default:
				if _, ok := ambiguous[p]; !ok {
					ambiguous[p] = cands
					ambiguousFrom[p] = witness{inc: writtenInclude(inc), from: from}
				}
			}
		}
	}
	im.set = map[string]bool{}
	for d := range roots {
		im.dirs = append(im.dirs, d)
		im.set[d] = true
	}
	sort.Strings(im.dirs)
	// An include that several files end with is found after all when one of them is in an
	// include directory that other includes imply (<helper_cuda_drvapi.h> in Common/, which
	// <helper_string.h> makes one), as the compiler's -I would find it.
	for p, cands := range ambiguous {
		for _, h := range cands {
			if im.set[strings.TrimSuffix(h, "/"+p)] {
				delete(ambiguous, p)
				break
			}
		}
	}
	for _, d := range im.dirs {
		w := roots[d]
		log.Printf("%s: includes %s, found only as %s: %s is an include directory (as # gazelle:%s %s would make it)", w.from, w.inc, path.Join(d, strings.Trim(w.inc, "<>\"")), d, directiveInclude, d)
	}
	var names []string
	for p := range ambiguous {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		log.Printf("%s: includes %s, which is found nowhere the compiler looks, and several files end with it (%s): no include directory inferred; name one with # gazelle:%s DIR", ambiguousFrom[p].from, ambiguousFrom[p].inc, strings.Join(ambiguous[p], " "), directiveInclude)
	}
}

// buildFileDirs returns the include directories that the build file of directory rel (whose
// regular files are files) declares: its cuda_include_dir directives, and the directories that
// its rules' includes and strip_include_prefix attributes make headers includable from.
func buildFileDirs(c *config.Config, rel string, files []string) []string {
	var out []string
	for _, name := range c.ValidBuildFileNames {
		has := false
		for _, f := range files {
			has = has || f == name
		}
		if !has {
			continue
		}
		f, err := rule.LoadFile(filepath.Join(c.RepoRoot, filepath.FromSlash(rel), name), rel)
		if err != nil {
			return nil
		}
		for _, d := range f.Directives {
			if d.Key == directiveInclude {
				v := strings.TrimSpace(d.Value)
				if strings.HasPrefix(v, "/") {
					out = append(out, path.Clean(strings.TrimLeft(v, "/")))
				} else if v != "" {
					out = append(out, path.Join(rel, v))
				}
			}
		}
		for _, r := range f.Rules {
			for _, inc := range r.AttrStrings("includes") {
				out = append(out, path.Join(rel, inc))
			}
			if strip := r.AttrString("strip_include_prefix"); strings.HasPrefix(strip, "/") {
				out = append(out, path.Clean(strings.TrimLeft(strip, "/")))
			} else if strip != "" {
				out = append(out, path.Join(rel, strip))
			}
		}
		break
	}
	return out
}
