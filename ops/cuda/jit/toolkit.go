package jit

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// toolkitHeaders is the runfiles path of the list of the toolkit's include directories that the
// toolkit_headers rule writes; Bazel sets it (x_defs in BUILD.bazel). Empty outside Bazel.
var toolkitHeaders string

// IncludeEnv names the environment variable that, when set, replaces the toolkit include
// directories Compile passes to NVRTC: directories separated by ':'.
const IncludeEnv = "RULES_CUDA_GO_JIT_INCLUDE"

var includeDirs = sync.OnceValue(findIncludeDirs)

// ToolkitIncludeDirs returns the directories of the CUDA toolkit's headers (CCCL's include/cccl
// first, then include) that Compile adds with -I, found once, in this order:
//  1. $RULES_CUDA_GO_JIT_INCLUDE (':'-separated; set but empty means none);
//  2. the headers of the toolkit the program was built with, in its Bazel runfiles (bazel run,
//     bazel test, or a binary next to its .runfiles directory);
//  3. $CUDA_HOME, $CUDA_PATH, /usr/local/cuda: include/cccl and include where they exist.
//
// The result may be empty: programs that include only NVRTC's built-in headers still compile.
func ToolkitIncludeDirs() []string { return append([]string(nil), includeDirs()...) }

func findIncludeDirs() []string {
	if v, ok := os.LookupEnv(IncludeEnv); ok {
		var dirs []string
		for _, d := range strings.Split(v, ":") {
			if d != "" {
				dirs = append(dirs, d)
			}
		}
		return dirs
	}
	if dirs := runfilesIncludeDirs(); len(dirs) > 0 {
		return dirs
	}
	for _, root := range []string{os.Getenv("CUDA_HOME"), os.Getenv("CUDA_PATH"), "/usr/local/cuda"} {
		if root == "" {
			continue
		}
		var dirs []string
		for _, d := range []string{filepath.Join(root, "include", "cccl"), filepath.Join(root, "include")} {
			if isDir(d) {
				dirs = append(dirs, d)
			}
		}
		if len(dirs) > 0 {
			return dirs
		}
	}
	return nil
}

// runfilesRoots returns the candidate runfiles directories of this program.
func runfilesRoots() []string {
	var roots []string
	for _, env := range []string{"RUNFILES_DIR", "TEST_SRCDIR"} {
		if d := os.Getenv(env); d != "" {
			roots = append(roots, d)
		}
	}
	if exe, err := os.Executable(); err == nil {
		roots = append(roots, exe+".runfiles")
	}
	return roots
}

// runfilesIncludeDirs reads the toolkit_headers list from the runfiles and resolves its entries.
func runfilesIncludeDirs() []string {
	if toolkitHeaders == "" {
		return nil
	}
	for _, root := range runfilesRoots() {
		f, err := os.Open(filepath.Join(root, filepath.FromSlash(toolkitHeaders)))
		if err != nil {
			continue
		}
		var dirs []string
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if line := strings.TrimSpace(sc.Text()); line != "" {
				if d := filepath.Join(root, filepath.FromSlash(line)); isDir(d) {
					dirs = append(dirs, d)
				}
			}
		}
		f.Close()
		if len(dirs) > 0 {
			return dirs
		}
	}
	return nil
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
