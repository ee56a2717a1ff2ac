package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEntryFile(t *testing.T) {
	for name, want := range map[string]string{
		"include/cuda_runtime.h":                    "include/cuda_runtime.h",
		"include/cccl/thrust/sort.h":                "include/thrust/sort.h",
		"include/cccl/thrust/detail/config.h":       "include/thrust/detail/",
		"include/cooperative_groups/details/sync.h": "include/cooperative_groups/details/",
		"include/nvtx3/nvToolsExt.h":                "include/nvtx3/nvToolsExt.h",
		"lib/libcublas.so.13":                       "lib/libcublas.so.13",
		"lib/stubs/libcuda.so":                      "",
		"bin/nvcc":                                  "bin/nvcc",
		"nvvm/bin/cicc":                             "",
		"include/__init__.py":                       "",
		// CUDA 13.5's sanitizer wheel: the API as the component repository links it.
		"compute-sanitizer/include/sanitizer.h":               "include/sanitizer.h",
		"compute-sanitizer/libsanitizer-public.so":            "lib/libsanitizer-public.so",
		"compute-sanitizer/x86/libTreeLauncherPlaceholder.so": "",
		"compute-sanitizer/compute-sanitizer":                 "",
		"compute-sanitizer/docs/index.html":                   "",
	} {
		if got := entryFile(name); got != want {
			t.Errorf("entryFile(%q) = %q, want %q", name, got, want)
		}
	}
}

// contents lists a wheel's files from its central directory and records every archive.
func TestContents(t *testing.T) {
	f := newFakePyPI(t)
	whl := makeWheel(t, "nvidia/cu13")
	f.wheels["/packages/70/c6/8f8c/"+wheelA] = whl
	f.wheels["/packages/49/ee/16bd/"+wheelB] = makeWheel(t, "nvidia/cu13")
	dir := t.TempDir()
	out := filepath.Join(dir, "toolkit_files.txt")
	vp := writeVersions(t, versions(goodCudartURL, shaA))
	code, stdout, errOut := runCmd(t, "contents", "-versions", vp, "-o", out)
	if code != 0 {
		t.Fatalf("contents exited %d\n%s%s", code, stdout, errOut)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got := string(data)
	for _, line := range []string{
		"archive 13.2 cudart nvidia-cuda-runtime==13.2.86 " + shaA,
		"archive 12.9 nvcc - " + shaC,
		"file include/cuda_runtime.h cudart 13.2",
		"file include/cuda_runtime.h nvtx 13.2",
		"file lib/libcudart.so.13 cudart 13.2",
	} {
		if !strings.Contains(got, line+"\n") {
			t.Errorf("contents file lacks %q:\n%s", line, got)
		}
	}
	if strings.Contains(got, "__init__") || strings.Contains(got, "dist-info") {
		t.Errorf("contents file lists packaging files:\n%s", got)
	}
	if f.served >= int64(len(whl)) {
		t.Errorf("served %d bytes of a %d-byte wheel: the central directory should be read with range requests", f.served, len(whl))
	}
	listed, err := ParseContentsArchives(got)
	if err != nil {
		t.Fatal(err)
	}
	archives, err := ParseVersions(vp, []byte(versions(goodCudartURL, shaA)))
	if err != nil {
		t.Fatal(err)
	}
	if d := staleContents(archives, listed); len(d) != 0 {
		t.Errorf("a fresh contents file is stale: %q", d)
	}
	archives[0].SHA256 = shaC
	if d := staleContents(archives, listed); len(d) != 2 {
		t.Errorf("a changed pin: differences %q, want 2", d)
	}
}

// The contents file in the repository is the one of the pinned versions: rerun
// `bazel run //tools/cudapins -- contents` after changing toolchains/versions.bzl.
func TestContentsFileIsCurrent(t *testing.T) {
	vp := filepath.Join("..", "..", "toolchains", "versions.bzl")
	cp := filepath.Join("..", "..", contentsPath)
	vdata, err := os.ReadFile(vp)
	if err != nil {
		t.Fatal(err)
	}
	archives, err := ParseVersions(vp, vdata)
	if err != nil {
		t.Fatal(err)
	}
	cdata, err := os.ReadFile(cp)
	if err != nil {
		t.Fatal(err)
	}
	listed, err := ParseContentsArchives(string(cdata))
	if err != nil {
		t.Fatal(err)
	}
	if d := staleContents(archives, listed); len(d) != 0 {
		t.Errorf("%s is not the contents of %s; rerun `bazel run //tools/cudapins -- contents`:\n%s", cp, vp, strings.Join(d, "\n"))
	}
}
