// Command sanitize runs a program (a test, under `bazel test --run_under`) under the CUDA toolkit's
// compute-sanitizer and fails when the sanitizer reports any error:
//
//	bazel test --config=memcheck //ops/examples/square:all    # racecheck, synccheck, initcheck too
//
// where .bazelrc has
//
//	test:memcheck --run_under="@rules_cuda_go//tools/sanitize --tool=memcheck"
//
// The program's exit status is kept (a failing test still fails); a run that passes fails anyway
// when the sanitizer's summary counts errors (racecheck: hazards reported as errors), or when no
// summary was printed at all. Without a GPU (no /dev/nvidia0) or without compute-sanitizer (looked
// for in $COMPUTE_SANITIZER, PATH, $CUDA_HOME/bin, $CUDA_PATH/bin, /usr/local/cuda/bin and
// /opt/nvidia), it says so and runs the program without the sanitizer, so its CPU tests still run.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/rules-cuda-go/rules_cuda_go/tools/internal/nvtool"
	"regexp"
	"strconv"
	"strings"
)

// tools are the compute-sanitizer tools and the extra options each runs with.
var tools = map[string][]string{
	"memcheck":  {"--leak-check=no"},
	"racecheck": {"--racecheck-report=hazard"},
	"synccheck": nil,
	"initcheck": nil,
}

// The summary lines compute-sanitizer prints at exit:
//
//	========= ERROR SUMMARY: 0 errors
//	========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)
var (
	errorSummaryRE = regexp.MustCompile(`ERROR SUMMARY: (\d+) error`)
	raceSummaryRE  = regexp.MustCompile(`RACECHECK SUMMARY: \d+ hazards? displayed \((\d+) errors?, (\d+) warnings?\)`)
)

// summary is what the sanitizer's output said.
type summary struct {
	seen   bool // a summary line was printed
	errors int  // errors counted by the summary lines
	lines  []string
}

// scan copies r to w and collects the summary lines.
func scan(r io.Reader, w io.Writer) (summary, error) {
	var s summary
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		fmt.Fprintln(w, line)
		if m := errorSummaryRE.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[1])
			s.seen, s.errors = true, s.errors+n
			s.lines = append(s.lines, strings.TrimLeft(line, "= "))
		} else if m := raceSummaryRE.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[1])
			s.seen, s.errors = true, s.errors+n
			s.lines = append(s.lines, strings.TrimLeft(line, "= "))
		}
	}
	return s, sc.Err()
}

func main() {
	tool := flag.String("tool", "memcheck", "the compute-sanitizer tool: memcheck, racecheck, synccheck or initcheck")
	extra := flag.String("sanitizer_args", "", "more compute-sanitizer options, space separated")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: sanitize [--tool=memcheck] PROGRAM [ARGS...]\n(in .bazelrc: test:memcheck --run_under=\"@rules_cuda_go//tools/sanitize --tool=memcheck\")\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	args := flag.Args()
	opts, ok := tools[*tool]
	if !ok {
		fmt.Fprintf(os.Stderr, "sanitize: error: --tool=%q: want memcheck, racecheck, synccheck or initcheck\n", *tool)
		os.Exit(2)
	}
	if len(args) == 0 {
		flag.Usage()
		os.Exit(2)
	}
	cs := nvtool.Find("compute-sanitizer", "COMPUTE_SANITIZER")
	switch {
	case !nvtool.HasGPU():
		fmt.Fprintf(os.Stderr, "sanitize: SKIPPED %s: no GPU on this machine (no /dev/nvidia0); running %s without compute-sanitizer\n", *tool, filepath.Base(args[0]))
		os.Exit(nvtool.RunPlain(args))
	case cs == "":
		fmt.Fprintf(os.Stderr, "sanitize: SKIPPED %s: no compute-sanitizer (set COMPUTE_SANITIZER=/path/to/compute-sanitizer, e.g. with --test_env, or put the CUDA toolkit's bin on PATH); running %s without it\n", *tool, filepath.Base(args[0]))
		os.Exit(nvtool.RunPlain(args))
	}
	// 86: an exit status of the sanitizer's own, told apart from the program's.
	sargs := []string{"--tool", *tool, "--error-exitcode", "86", "--print-limit", "100"}
	sargs = append(sargs, opts...)
	sargs = append(sargs, strings.Fields(*extra)...)
	sargs = append(sargs, args...)
	fmt.Fprintf(os.Stderr, "sanitize: %s %s\n", cs, strings.Join(sargs, " "))
	c := exec.Command(cs, sargs...)
	c.Stdin = os.Stdin
	// compute-sanitizer prints its reports on stdout, the program what it likes: scan both.
	outR, outW := io.Pipe()
	errR, errW := io.Pipe()
	c.Stdout, c.Stderr = outW, errW
	done := make(chan summary, 2)
	for _, p := range []struct {
		r *io.PipeReader
		w io.Writer
	}{{outR, os.Stdout}, {errR, os.Stderr}} {
		go func() {
			s, _ := scan(p.r, p.w)
			io.Copy(p.w, p.r)
			done <- s
		}()
	}
	if err := c.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "sanitize: error: starting %s: %v\n", cs, err)
		os.Exit(1)
	}
	code := nvtool.ExitCode(c.Wait())
	outW.Close()
	errW.Close()
	s1, s2 := <-done, <-done
	s := summary{seen: s1.seen || s2.seen, errors: s1.errors + s2.errors, lines: append(s1.lines, s2.lines...)}
	status := "no errors"
	switch {
	case !s.seen:
		status, code = "compute-sanitizer printed no summary (did it run the program?)", max(code, 1)
	case s.errors > 0 || code == 86:
		status, code = fmt.Sprintf("%d errors reported", s.errors), 1
	case code != 0:
		status = fmt.Sprintf("no sanitizer errors, but the program exited with status %d", code)
	}
	fmt.Fprintf(os.Stderr, "sanitize: %s: %s [%s]\n", *tool, status, strings.Join(s.lines, "; "))
	os.Exit(code)
}
