package compat

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"testing"
)

func TestExplain(t *testing.T) {
	for _, c := range []struct {
		driver, runtime int
		want            string
	}{
		{12040, 13020, "the NVIDIA driver supports CUDA 12.4 but this binary was built with CUDA 13.2 (needs driver >= 580); rebuild with --cuda_version=12.9 or update the driver"},
		{11080, 12090, "the NVIDIA driver supports CUDA 11.8 but this binary was built with CUDA 12.9 (needs driver >= 525); rebuild with a CUDA 11.x toolkit (--cuda_version=local) or update the driver"},
		{11040, 12040, "the NVIDIA driver supports CUDA 11.4 but this binary was built with CUDA 12.4 (needs driver >= 525); rebuild with a CUDA 11.x toolkit (--cuda_version=local) or update the driver"},
		{0, 13020, "no NVIDIA driver: libcuda.so.1 could not be loaded; this binary was built with CUDA 13.2 (needs driver >= 580)"},
		{13000, 14000, "the NVIDIA driver supports CUDA 13.0 but this binary was built with CUDA 14.0; rebuild with --cuda_version=13.5 or update the driver"},
	} {
		if got := Explain(c.driver, c.runtime); got != c.want {
			t.Errorf("Explain(%d, %d) =\n  %q\nwant\n  %q", c.driver, c.runtime, got, c.want)
		}
	}
}

// Pinned names the newest toolkit of each major version that toolchains/versions.bzl pins, and
// every major version pinned there has a minimum driver.
func TestPinnedMatchesVersionsBzl(t *testing.T) {
	// go test and Bazel both run a test in its package's directory.
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "toolchains", "versions.bzl"))
	if err != nil {
		t.Fatal(err)
	}
	// The keys of CUDA_TOOLKITS: `    "13.2": {` at the top level of the dict.
	versions := regexp.MustCompile(`(?m)^    "(\d+)\.(\d+)": \{`).FindAllStringSubmatch(string(b), -1)
	if len(versions) == 0 {
		t.Fatal("found no pinned versions in toolchains/versions.bzl")
	}
	newest := map[int][]int{}
	for _, v := range versions {
		major, _ := strconv.Atoi(v[1])
		minor, _ := strconv.Atoi(v[2])
		newest[major] = append(newest[major], minor)
	}
	for major, minors := range newest {
		sort.Ints(minors)
		want := strconv.Itoa(major) + "." + strconv.Itoa(minors[len(minors)-1])
		if Pinned[major] != want {
			t.Errorf("Pinned[%d] = %q, toolchains/versions.bzl pins %s", major, Pinned[major], want)
		}
		if minDriver[major] == "" {
			t.Errorf("no minimum driver for CUDA %d (pinned in toolchains/versions.bzl)", major)
		}
	}
	for major, v := range Pinned {
		if _, ok := newest[major]; !ok {
			t.Errorf("Pinned[%d] = %q, but toolchains/versions.bzl pins no CUDA %d", major, v, major)
		}
	}
}
