// Package images_test checks the device images that cu_device_image builds from leakyrelu.cu:
// PTX for the virtual arch, an ELF CUBIN per real arch, each holding the leaky ReLU kernels.
package images_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runfiles lists the files of a target, given as $(rootpaths ...) in the test's arguments.
func runfiles(t *testing.T) []string {
	t.Helper()
	if len(os.Args) < 2 {
		t.Skip("run under Bazel: bazel test //images:images_test")
	}
	var out []string
	for _, a := range os.Args[1:] {
		if strings.HasPrefix(a, "-test.") {
			continue
		}
		out = append(out, filepath.Join(os.Getenv("TEST_SRCDIR"), os.Getenv("TEST_WORKSPACE"), a))
	}
	return out
}

func TestImages(t *testing.T) {
	var ptx, cubin int
	for _, f := range runfiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case strings.HasSuffix(f, ".ptx"):
			ptx++
			arch := strings.TrimPrefix(filepath.Ext(strings.TrimSuffix(f, ".ptx")), ".compute_") // x.compute_90.ptx -> 90
			if !bytes.Contains(data, []byte(".target sm_"+arch)) {
				t.Errorf("%s: no .target sm_%s line", f, arch)
			}
		case strings.HasSuffix(f, ".cubin"):
			cubin++
			if !bytes.HasPrefix(data, []byte("\x7fELF")) {
				t.Errorf("%s: not an ELF CUBIN", f)
			}
		default:
			t.Errorf("unexpected image %s", f)
			continue
		}
		if !bytes.Contains(data, []byte("forward_kernel")) || !bytes.Contains(data, []byte("backward_kernel")) {
			t.Errorf("%s: the leaky ReLU kernels are missing", f)
		}
	}
	if ptx == 0 || cubin == 0 {
		t.Errorf("got %d PTX and %d CUBIN images, want at least one of each", ptx, cubin)
	}
}
