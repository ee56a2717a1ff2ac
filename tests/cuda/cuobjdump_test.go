// Package sample_test checks with the toolkit's cuobjdump that a cu_library built for
// "8.0;9.0+PTX" holds exactly sm_80 and sm_90 SASS plus compute_90 PTX, and one built for
// "9.0;10.0;12.0+PTX" exactly sm_90, sm_100 and sm_120 SASS plus compute_120 PTX.
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
	cuobjdump   = flag.String("cuobjdump", "", "rootpath of cuobjdump")
	object      = flag.String("object", "", "rootpath of the object built for 8.0;9.0+PTX")
	object91012 = flag.String("object_9_10_12", "", "rootpath of the object built for 9.0;10.0;12.0+PTX")
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

// checkArchs compares the SASS and PTX listings of obj with sass and ptx (sorted as strings).
// cuobjdump names PTX files by the virtual arch number (x.1.sm_90.ptx is compute_90 PTX).
func checkArchs(t *testing.T, tool, obj string, sass, ptx []string) {
	t.Helper()
	if got := archs(t, tool, "--list-elf", obj); !slices.Equal(got, sass) {
		t.Errorf("SASS (cuobjdump --list-elf): %v, want %v", got, sass)
	}
	if got := archs(t, tool, "--list-ptx", obj); !slices.Equal(got, ptx) {
		t.Errorf("PTX (cuobjdump --list-ptx, sm_XY meaning compute_XY): %v, want %v", got, ptx)
	}
}

func TestSampleArchs(t *testing.T) {
	checkArchs(t, runfile(t, *cuobjdump), runfile(t, *object), []string{"sm_80", "sm_90"}, []string{"sm_90"})
}

func TestSampleArchsHopperBlackwell(t *testing.T) {
	checkArchs(t, runfile(t, *cuobjdump), runfile(t, *object91012), []string{"sm_100", "sm_120", "sm_90"}, []string{"sm_120"})
}
