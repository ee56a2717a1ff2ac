// Command compdb writes compile_commands.json for clangd (and other clang tools) from the real
// compile actions of a Bazel build: every .cu file's nvcc command (cu_library), translated to
// clang's CUDA dialect (-x cuda, --cuda-path, --cuda-gpu-arch; nvcc-only options dropped), the C
// and C++ files of cc_library targets, and those of cgo packages.
//
//	bazel run @rules_cuda_go//tools/compdb                      # //... of the workspace
//	bazel run @rules_cuda_go//tools/compdb -- //pkg/... --bazel_args=--config=debug
//
// It asks `bazel aquery` (run with --bazel, else $RULES_CUDA_GO_BAZEL, else bazel on PATH) in the
// workspace that `bazel run` started in, and writes compile_commands.json at that workspace's root.
// The entries' directory is Bazel's execution root, so build once (the toolkit and generated
// headers must exist there) before opening the editor.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/rules-cuda-go/rules_cuda_go/tools/internal/bazelcmd"
)

func main() {
	out := flag.String("out", "", "where to write (default: compile_commands.json at the workspace root)")
	bazel := flag.String("bazel", "", "the Bazel command (default: $RULES_CUDA_GO_BAZEL, else bazel on PATH)")
	bazelArgs := flag.String("bazel_args", "", "options for `bazel aquery`, space separated (e.g. \"--config=debug --cuda_archs=9.0\")")
	arch := flag.String("cuda_gpu_arch", "", "clang's --cuda-gpu-arch for every .cu file (default: the newest real arch nvcc builds it for, at most --max_arch)")
	maxArch := flag.Int("max_arch", 86, "the newest arch the default --cuda_gpu_arch picks: Debian bookworm's clangd 14 knows up to sm_86 (with clangd >= 16, 90)")
	clang := flag.String("clang", "clang++", "the compiler the entries name (clangd only reads its options)")
	root := flag.String("root", "", "the workspace (default: the one `bazel run` was started in, else the current directory)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: bazel run @rules_cuda_go//tools/compdb -- [flags] [TARGET_PATTERN...]   (default //...)\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	patterns := flag.Args()
	if len(patterns) == 0 {
		patterns = []string{"//..."}
	}
	ws := *root
	if ws == "" {
		ws = os.Getenv("BUILD_WORKSPACE_DIRECTORY")
	}
	if ws == "" {
		var err error
		if ws, err = os.Getwd(); err != nil {
			fail(err)
		}
	}
	b, err := bazelcmd.Find(*bazel)
	if err != nil {
		fail(err)
	}
	extra := strings.Fields(*bazelArgs)
	execRoot, err := run(ws, b, append(append([]string{"info"}, extra...), "execution_root")...)
	if err != nil {
		fail(err)
	}
	execRoot = strings.TrimSpace(execRoot)
	outputBase, err := run(ws, b, append(append([]string{"info"}, extra...), "output_base")...)
	if err != nil {
		fail(err)
	}
	var set []string
	for _, p := range patterns {
		if strings.ContainsAny(p, " \"'()") {
			fail(fmt.Errorf("target pattern %q: want a plain label or pattern like //pkg/...", p))
		}
		set = append(set, p)
	}
	query := fmt.Sprintf(`mnemonic("NvccCompile|NvccHost|CppCompile|GoCompilePkg", deps(set(%s)))`, strings.Join(set, " "))
	aqArgs := append(append([]string{"aquery", "--output=jsonproto", "--include_artifacts=false"}, extra...), query)
	js, err := run(ws, b, aqArgs...)
	if err != nil {
		fail(err)
	}
	var result struct {
		Actions []action `json:"actions"`
	}
	if err := json.Unmarshal([]byte(js), &result); err != nil {
		fail(fmt.Errorf("reading bazel aquery's JSON: %v", err))
	}
	entries, errs := translate(result.Actions, options{execRoot: execRoot, outputBase: strings.TrimSpace(outputBase), clang: *clang, arch: *arch, maxArch: *maxArch})
	for _, e := range errs {
		fmt.Fprintf(os.Stderr, "compdb: warning: %v\n", e)
	}
	data, err := json.MarshalIndent(entries, "", "  ")
	if err != nil {
		fail(err)
	}
	dest := *out
	if dest == "" {
		dest = filepath.Join(ws, "compile_commands.json")
	} else if !filepath.IsAbs(dest) {
		if wd := os.Getenv("BUILD_WORKING_DIRECTORY"); wd != "" {
			dest = filepath.Join(wd, dest)
		}
	}
	if err := os.WriteFile(dest, append(data, '\n'), 0o644); err != nil {
		fail(err)
	}
	cu := 0
	for _, e := range entries {
		if strings.HasSuffix(e.File, ".cu") {
			cu++
		}
	}
	fmt.Printf("compdb: wrote %s: %d entries (%d .cu files) from %d actions\n", dest, len(entries), cu, len(result.Actions))
}

// run runs bazel in dir and returns its stdout; stderr passes through.
func run(dir, bazel string, args ...string) (string, error) {
	c := exec.Command(bazel, args...)
	var stdout bytes.Buffer
	c.Dir, c.Stdout, c.Stderr = dir, &stdout, os.Stderr
	if err := c.Run(); err != nil {
		return "", fmt.Errorf("%s %s: %v", bazel, strings.Join(args, " "), err)
	}
	return stdout.String(), nil
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "compdb: error: %v\n", err)
	os.Exit(1)
}
