package cuda

import (
	"fmt"
	"path"

	"github.com/rules-cuda-go/rules_cuda_go/gazelle/cuda/internal/cpp"
)

// writtenInclude returns an include as its directive writes it: "a.h" or <a.h>.
func writtenInclude(inc cpp.Include) string {
	if inc.Quoted {
		return fmt.Sprintf("%q", inc.Path)
	}
	return "<" + inc.Path + ">"
}

// searchPaths returns the directories (relative to the repository root, "" for the root itself)
// where an include of a file in dir is looked for, in order, as the compiler would search them:
//   - for a quoted include, dir itself;
//   - the directories of `# gazelle:cuda_include_dir` directives (the -I of a Makefile), then
//     those the repository's includes imply (see impliedIncludeDirs);
//   - the conventional include directories next to dir: dir/include, dir/inc, and its siblings
//     ../include and ../inc (the src/ + inc/ layout);
//   - the repository root (Bazel's include path for workspace-relative includes; it also finds
//     the shorter paths that rules' includes attributes make headers includable by).
func searchPaths(cc *cudaConfig, dir string, quoted bool) []string {
	if dir == "." {
		dir = ""
	}
	var out []string
	seen := map[string]bool{}
	add := func(d string) {
		if d == "." {
			d = ""
		}
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	if quoted {
		add(dir)
	}
	for _, d := range cc.includeDirs {
		add(d)
	}
	if cc.implied != nil {
		for _, d := range cc.implied.dirs {
			add(d)
		}
	}
	for _, d := range conventionalIncludeDirs(dir) {
		add(d)
	}
	add("")
	return out
}

// conventionalIncludeDirs returns dir/include, dir/inc and, below the root, the siblings
// ../include and ../inc of dir.
func conventionalIncludeDirs(dir string) []string {
	out := []string{path.Join(dir, "include"), path.Join(dir, "inc")}
	if dir != "" {
		parent := path.Dir(dir)
		out = append(out, path.Join(parent, "include"), path.Join(parent, "inc"))
	}
	return out
}
