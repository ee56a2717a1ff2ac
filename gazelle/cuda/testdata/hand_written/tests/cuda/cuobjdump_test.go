// Package sample_test checks with the toolkit's cuobjdump that a cu_library built for
// "8.0;9.0+PTX" holds exactly sm_80 and sm_90 SASS plus compute_90 PTX.
package sample_test

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
)

var (
	cuobjdump = flag.String("cuobjdump", "", "rootpath of cuobjdump")
	object    = flag.String("object", "", "rootpath of the object built for 8.0;9.0+PTX")
)

func runfile(t *testing.T, rootpath string) string {
	t.Helper()
	if rootpath == "" {
		t.Skip("run under Bazel: bazel test //tests:all")
	}
	return filepath.Join(os.Getenv("TEST_SRCDIR"), os.Getenv("TEST_WORKSPACE"), rootpath)
}

// archs lists the sm_XX / compute_XX names in cuobjdump's listing ("ELF file 1: x.1.sm_80.cubin").
func archs(t *testing.T, tool, mode, obj string) []string {
	t.Helper()
	out, err := exec.Command(tool, mode, obj).CombinedOutput()
	if err != nil {
		t.Fatalf("cuobjdump %s: %v\n%s", mode, err, out)
	}
	var got []string
	for _, m := range regexp.MustCompile(`\.(sm_[0-9]+a?)\.(?:cubin|ptx)`).FindAllStringSubmatch(string(out), -1) {
		got = append(got, m[1])
	}
	slices.Sort(got)
	return got
}

func TestSampleArchs(t *testing.T) {
	tool := runfile(t, *cuobjdump)
	obj := runfile(t, *object)
	if got, want := archs(t, tool, "--list-elf", obj), []string{"sm_80", "sm_90"}; !slices.Equal(got, want) {
		t.Errorf("SASS (cuobjdump --list-elf): %v, want %v", got, want)
	}
	// cuobjdump names PTX files by the virtual arch number (x.1.sm_90.ptx is compute_90 PTX).
	if got, want := archs(t, tool, "--list-ptx", obj), []string{"sm_90"}; !slices.Equal(got, want) {
		t.Errorf("PTX (cuobjdump --list-ptx): %v, want %v (compute_90)", got, want)
	}
}
