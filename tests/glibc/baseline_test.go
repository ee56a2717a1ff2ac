// Package glibc_test checks the glibc baseline end to end: a cuda-samples-style program built with
// rules_cuda_go's default C++ toolchain needs no C library version newer than the baseline's,
// glibccheck passes it and fails it against an older baseline, and the same program built against
// the build machine's C library is caught when that library is newer than the baseline.
package glibc_test

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/toolchains/sysroot/glibc"
)

var (
	checker  = flag.String("glibccheck", "", "rootpath of glibccheck")
	baseline = flag.String("baseline", "", "rootpath of the program built against the baseline")
	hostLibc = flag.String("host_libc", "", "rootpath of the program built against the host's C library")
)

// The baseline of toolchains/sysroot/packages.bzl.
const glibcMax = "2.36"

func runfile(t *testing.T, rootpath string) string {
	t.Helper()
	if rootpath == "" {
		t.Skip("run under Bazel: bazel test //tests/glibc:glibc_test")
	}
	return filepath.Join(os.Getenv("TEST_SRCDIR"), os.Getenv("TEST_WORKSPACE"), rootpath)
}

// check runs glibccheck and returns its exit status and standard error.
func check(t *testing.T, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(runfile(t, *checker), args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	if exit, ok := err.(*exec.ExitError); ok {
		return exit.ExitCode(), stderr.String()
	}
	if err != nil {
		t.Fatalf("glibccheck %s: %v", strings.Join(args, " "), err)
	}
	return 0, stderr.String()
}

func TestBaselineBuildNeedsNothingNewer(t *testing.T) {
	bin := runfile(t, *baseline)
	needs, err := glibc.Needs(bin)
	if err != nil {
		t.Fatal(err)
	}
	newest := glibc.Newest(needs)
	t.Logf("samples_style needs %v", newest)
	if newest["GLIBC"] == "" {
		t.Fatalf("samples_style needs no GLIBC version at all; is it linked dynamically? needs: %v", needs)
	}
	if over := (glibc.Baseline{"GLIBC": glibcMax}).Exceeding(needs); len(over) > 0 {
		t.Errorf("built against the baseline, samples_style still needs %v", over)
	}
	for _, n := range needs {
		for _, s := range n.Symbols {
			if strings.HasPrefix(s, "__isoc23_") {
				t.Errorf("%s@%s: compiled against C headers newer than the baseline's", s, n.Version)
			}
		}
	}
	if code, stderr := check(t, bin); code != 0 {
		t.Errorf("glibccheck on samples_style: exit %d\n%s", code, stderr)
	}
}

// The checker is not vacuous: the same binary fails against a baseline below what it needs.
func TestOlderBaselineFails(t *testing.T) {
	bin := runfile(t, *baseline)
	needs, err := glibc.Needs(bin)
	if err != nil {
		t.Fatal(err)
	}
	newest := glibc.Newest(needs)["GLIBC"]
	code, stderr := check(t, "-glibc=2.2.5", bin)
	if code != 1 || !strings.Contains(stderr, "GLIBC_"+newest) {
		t.Errorf("glibccheck -glibc=2.2.5: exit %d, want 1 naming GLIBC_%s; stderr:\n%s", code, newest, stderr)
	}
}

func TestHostLibcBuildIsCaught(t *testing.T) {
	bin := runfile(t, *hostLibc)
	needs, err := glibc.Needs(bin)
	if err != nil {
		t.Fatal(err)
	}
	newest := glibc.Newest(needs)["GLIBC"]
	t.Logf("against the host's C library, samples_style needs GLIBC_%s", newest)
	code, stderr := check(t, bin)
	if glibc.Compare(newest, glibcMax) <= 0 {
		if code != 0 {
			t.Errorf("glibccheck: exit %d for a binary within the baseline\n%s", code, stderr)
		}
		t.Skipf("this machine's C library needs nothing newer than GLIBC_%s here, so the host build cannot show the difference", glibcMax)
	}
	if code != 1 || !strings.Contains(stderr, "GLIBC_"+newest) {
		t.Errorf("glibccheck on the host-libc build: exit %d, want 1 naming GLIBC_%s; stderr:\n%s", code, newest, stderr)
	}
}
