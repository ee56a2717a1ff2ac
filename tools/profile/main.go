// Command profile runs a program (a test or a benchmark, under `bazel test` or `bazel run` with
// --run_under) under Nsight Compute (ncu) or Nsight Systems (nsys) and writes the report:
//
//	bazel test --config=ncu //pkg/leakyrelu:leakyrelu_test --test_arg=-test.run=NONE --test_arg=-test.bench=.
//	bazel run --config=nsys //bench/cmd/bench -- --device cuda --ops AddScalar
//
// where .bazelrc has
//
//	test:ncu --run_under="@rules_cuda_go//tools/profile --tool=ncu"
//	run:ncu  --run_under="@rules_cuda_go//tools/profile --tool=ncu"
//
// The report goes to --out (without extension), by default profile-NAME in the test's undeclared
// outputs (bazel-testlogs/PKG/TARGET/test.outputs/) under bazel test, or in the directory `bazel
// run` was started from. ncu's report is then printed as a per-kernel summary. Without a GPU or
// without the tool, it says so and runs the program as it is.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/rules-cuda-go/rules_cuda_go/tools/internal/nvtool"
)

func main() {
	tool := flag.String("tool", "ncu", "the profiler: ncu (Nsight Compute: kernels' counters) or nsys (Nsight Systems: a timeline)")
	out := flag.String("out", "", "the report's path without extension (default: profile-NAME, see the package doc)")
	launches := flag.Int("launch_count", 20, "ncu: profile at most this many kernel launches (0: all)")
	kernel := flag.String("kernel", "", "ncu: profile only kernels whose name matches this regex (regex:...)")
	extra := flag.String("profiler_args", "", "more options for the profiler, space separated (e.g. \"--set full\")")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: profile [--tool=ncu|nsys] [--out=PATH] PROGRAM [ARGS...]\n(in .bazelrc: test:ncu --run_under=\"@rules_cuda_go//tools/profile --tool=ncu\")\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	args := flag.Args()
	if len(args) == 0 {
		flag.Usage()
		os.Exit(2)
	}
	if *tool != "ncu" && *tool != "nsys" {
		fmt.Fprintf(os.Stderr, "profile: error: --tool=%q: want ncu or nsys\n", *tool)
		os.Exit(2)
	}
	bin := nvtool.Find(*tool, strings.ToUpper(*tool))
	switch {
	case !nvtool.HasGPU():
		fmt.Fprintf(os.Stderr, "profile: SKIPPED %s: no GPU on this machine (no /dev/nvidia0); running %s without it, no report written\n", *tool, filepath.Base(args[0]))
		os.Exit(nvtool.RunPlain(args))
	case bin == "":
		fmt.Fprintf(os.Stderr, "profile: SKIPPED: no %s (set %s=/path/to/%s, e.g. with --test_env, or put it on PATH); running %s without it, no report written\n", *tool, strings.ToUpper(*tool), *tool, filepath.Base(args[0]))
		os.Exit(nvtool.RunPlain(args))
	}
	report := *out
	if report == "" {
		dir := os.Getenv("TEST_UNDECLARED_OUTPUTS_DIR")
		if dir == "" {
			dir = os.Getenv("BUILD_WORKING_DIRECTORY")
		}
		if dir == "" {
			dir = "."
		}
		name := filepath.Base(args[0])
		if t := os.Getenv("TEST_TARGET"); t != "" {
			name = t[strings.LastIndexAny(t, ":/")+1:]
		}
		report = filepath.Join(dir, "profile-"+name)
	}
	var pargs []string
	switch *tool {
	case "ncu":
		pargs = []string{"--target-processes", "all", "-f", "-o", report}
		if *launches > 0 {
			pargs = append(pargs, "--launch-count", fmt.Sprint(*launches))
		}
		if *kernel != "" {
			pargs = append(pargs, "--kernel-name", *kernel)
		}
	case "nsys":
		pargs = []string{"profile", "--force-overwrite", "true", "--trace", "cuda,osrt", "-o", report}
	}
	pargs = append(pargs, strings.Fields(*extra)...)
	pargs = append(pargs, args...)
	fmt.Fprintf(os.Stderr, "profile: %s %s\n", bin, strings.Join(pargs, " "))
	c := exec.Command(bin, pargs...)
	c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr
	code := nvtool.ExitCode(c.Run())
	ext := map[string]string{"ncu": ".ncu-rep", "nsys": ".nsys-rep"}[*tool]
	if _, err := os.Stat(report + ext); err != nil {
		fmt.Fprintf(os.Stderr, "profile: error: %s wrote no report %s%s (exit status %d)\n", *tool, report, ext, code)
		os.Exit(max(code, 1))
	}
	if *tool == "ncu" {
		s := exec.Command(bin, "--import", report+ext, "--print-summary", "per-kernel")
		s.Stdout, s.Stderr = os.Stdout, os.Stderr
		_ = s.Run()
	}
	fmt.Fprintf(os.Stderr, "profile: wrote %s%s\n", report, ext)
	os.Exit(code)
}
