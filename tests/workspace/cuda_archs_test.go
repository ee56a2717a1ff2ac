// Package workspace_test checks that the workspace loads and builds in the mode the test runs in
// (bzlmod by default, WORKSPACE with --config=workspace): it runs the cuda-archs binary that Bazel
// built with rules_go, from the test's runfiles.
package workspace_test

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var cudaArchs = flag.String("cuda_archs", "", "path of the Bazel-built cuda-archs binary (rootpath)")

func TestBazelBuiltCudaArchs(t *testing.T) {
	if *cudaArchs == "" {
		t.Skip("run under Bazel: bazel test //tests:all (needs --cuda_archs)")
	}
	// rootpath is relative to the main repository's runfiles; rules_go runs tests in the package.
	bin := filepath.Join(os.Getenv("TEST_SRCDIR"), os.Getenv("TEST_WORKSPACE"), *cudaArchs)
	out, err := exec.Command(bin, "8.0;9.0+PTX").Output()
	if err != nil {
		t.Fatalf("%s 8.0;9.0+PTX: %v", *cudaArchs, err)
	}
	want := "-gencode=arch=compute_80,code=sm_80\n" +
		"-gencode=arch=compute_90,code=compute_90\n" +
		"-gencode=arch=compute_90,code=sm_90\n"
	if string(out) != want {
		t.Errorf("cuda-archs 8.0;9.0+PTX printed\n%s\nwant\n%s", out, want)
	}

	cmd := exec.Command(bin, "8.0;Hoper")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err = cmd.Run()
	exit, ok := err.(*exec.ExitError)
	if !ok || exit.ExitCode() != 2 {
		t.Fatalf("cuda-archs 8.0;Hoper: err %v, want exit status 2", err)
	}
	if msg := stderr.String(); !strings.Contains(msg, "Hoper") || strings.Count(msg, "\n") != 1 {
		t.Errorf("cuda-archs 8.0;Hoper: stderr %q, want one line naming Hoper", msg)
	}
}
