package inline_test

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var check = flag.String("check", "", "rootpath of the check program")

// The test cannot import package inline: gorgonia.org/cu's init would end the test binary on a
// machine without a GPU. It runs the check program instead and skips when that cannot start.
func TestLoadAndLaunch(t *testing.T) {
	if *check == "" {
		t.Skip("run under Bazel: bazel test //tests:all")
	}
	bin := filepath.Join(os.Getenv("TEST_SRCDIR"), os.Getenv("TEST_WORKSPACE"), *check)
	out, err := exec.Command(bin).CombinedOutput()
	text := string(out)
	if err != nil {
		exit, ok := err.(*exec.ExitError)
		switch {
		case ok && exit.ExitCode() == 127:
			t.Skipf("no NVIDIA driver library: skipped the GPU part (%s)", strings.TrimSpace(text))
		case strings.Contains(text, "Error in initialization") && (strings.Contains(text, "NoDevice") || strings.Contains(text, "InsufficientDriver")):
			t.Skipf("no CUDA device: skipped the GPU part (%s)", strings.TrimSpace(text))
		}
		t.Fatalf("%s: %v\n%s", *check, err, text)
	}
	if !strings.Contains(text, "inline check: PASS") {
		t.Fatalf("%s printed no PASS:\n%s", *check, text)
	}
	t.Log(strings.TrimSpace(text))
}
