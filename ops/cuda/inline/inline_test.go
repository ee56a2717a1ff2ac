package inline_test

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
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

var cuobjdump = flag.String("cuobjdump", "", "rootpath of the toolkit's cuobjdump")

// listArchs returns the sm_XY names in cuobjdump's --list-elf or --list-ptx listing of a fatbin
// ("ELF file 1: scale_add.1.sm_80.cubin"; PTX of compute_90 is listed as sm_90).
func listArchs(t *testing.T, tool, mode, path string) []string {
	t.Helper()
	out, err := exec.Command(tool, mode, path).CombinedOutput()
	if err != nil {
		t.Fatalf("cuobjdump %s %s: %v\n%s", mode, path, err, out)
	}
	var got []string
	for _, m := range regexp.MustCompile(`\.(sm_[0-9]+a?)\.(?:cubin|ptx)`).FindAllStringSubmatch(string(out), -1) {
		got = append(got, m[1])
	}
	sort.Strings(got)
	return got
}

// The cu_device_image outputs of check/BUILD.bazel for "8.0;9.0+PTX", by name and content.
func TestDeviceImages(t *testing.T) {
	images := strings.Fields(os.Getenv("DEVICE_IMAGES"))
	if *cuobjdump == "" || len(images) == 0 {
		t.Skip("run under Bazel: bazel test //tests:all")
	}
	runfile := func(p string) string { return filepath.Join(os.Getenv("TEST_SRCDIR"), os.Getenv("TEST_WORKSPACE"), p) }
	tool := runfile(*cuobjdump)
	var names []string
	for _, img := range images {
		names = append(names, filepath.Base(img))
		path := runfile(img)
		switch filepath.Ext(img) {
		case ".fatbin":
			if got := listArchs(t, tool, "--list-elf", path); strings.Join(got, " ") != "sm_80 sm_90" {
				t.Errorf("%s: SASS for %v, want sm_80 sm_90", img, got)
			}
			if got := listArchs(t, tool, "--list-ptx", path); strings.Join(got, " ") != "sm_90" {
				t.Errorf("%s: PTX for %v, want compute_90 (listed as sm_90)", img, got)
			}
		case ".cubin":
			// -elf needs no nvdisasm (-sass runs whichever is on PATH).
			out, err := exec.Command(tool, "-elf", path).CombinedOutput()
			arch := strings.TrimPrefix(strings.Split(filepath.Base(img), ".")[1], "sm_") // scale_add.sm_80.cubin
			if err != nil || !strings.Contains(string(out), " sm="+arch+",") || !strings.Contains(string(out), ".text.scale_add") {
				t.Errorf("cuobjdump -elf %s: %v; want scale_add for sm_%s:\n%.500s", img, err, arch, out)
			}
		case ".ptx":
			text, err := os.ReadFile(path)
			arch := strings.TrimPrefix(strings.Split(filepath.Base(img), ".")[1], "compute_") // scale_add.compute_90.ptx
			if err != nil || !strings.Contains(string(text), ".target sm_"+arch) || !strings.Contains(string(text), ".entry scale_add") {
				t.Errorf("%s: %v; want PTX of scale_add for compute_%s", img, err, arch)
			}
		}
	}
	sort.Strings(names)
	want := "scale_add.compute_80.ptx scale_add.compute_90.ptx scale_add.fatbin scale_add.sm_80.cubin scale_add.sm_90.cubin"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("device images %s, want %s", got, want)
	}
}
