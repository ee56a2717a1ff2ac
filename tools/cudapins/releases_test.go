package main

import (
	"strings"
	"testing"
)

// placeholder adds one of NVIDIA's placeholder releases (a ~1 KB py2.py3-none-any wheel and a
// ~500-byte sdist) of name at version.
func (f *fakePyPI) placeholder(name, version string) {
	stem := strings.ReplaceAll(name, "-", "_") + "-" + version
	for _, file := range []struct {
		name string
		size int
	}{{stem + "-py2.py3-none-any.whl", 1136}, {stem + ".tar.gz", 490}} {
		f.file(name, version, file.name, "https://files.pythonhosted.org/packages/99/99/9999/"+file.name, shaB)
		rel := f.projects[name][version]
		rel[len(rel)-1]["size"] = file.size
	}
}

func TestCompareVersions(t *testing.T) {
	// Ascending, as NVIDIA numbers them: cccl's 13.3.x.y.z scheme, cuBLAS's 13.10, pre-releases.
	order := []string{"0.0.0a0", "0.0.1.dev4", "0.0.1", "13.0.85", "13.2.86", "13.3.4.1.2rc1", "13.3.4.1.2", "13.3.4.2.1", "13.3.5.0.6", "13.4.1.3", "13.10.0.20"}
	for i := range order {
		for j := range order {
			got := compareVersions(order[i], order[j])
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got != want {
				t.Errorf("compareVersions(%s, %s) = %d, want %d", order[i], order[j], got, want)
			}
		}
	}
	for v, pre := range map[string]bool{"13.3.5.0.6": false, "13.4.46rc1": true, "0.0.0a0": true, "0.0.1.dev5": true, "12.9.86": false} {
		if isPreRelease(v) != pre {
			t.Errorf("isPreRelease(%s) = %v, want %v", v, !pre, pre)
		}
	}
}

func TestWheelNewest(t *testing.T) {
	f := newFakePyPI(t)
	const cccl = "nvidia-cuda-cccl"
	for _, v := range []string{"13.2.86", "13.3.4.2.1", "13.3.5.0.6"} {
		whl := "nvidia_cuda_cccl-" + v + "-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl"
		f.file(cccl, v, whl, "../../packages/packages/aa/"+v+"/"+whl, shaA)
	}
	// A pre-release newer than every release, and the placeholder 0.0.0a0 NVIDIA publishes.
	rc := "nvidia_cuda_cccl-13.3.6.0.1rc1-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl"
	f.file(cccl, "13.3.6.0.1rc1", rc, "../../packages/packages/aa/rc/"+rc, shaC)
	f.placeholder(cccl, "0.0.0a0")
	newest := "nvidia_cuda_cccl-13.3.5.0.6-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl"
	f.wheels["/packages/packages/aa/13.3.5.0.6/"+newest] = makeWheel(t, "nvidia/cu13")

	code, out, errOut := runCmd(t, "wheel", cccl)
	if code != 0 {
		t.Fatalf("wheel %s exited %d\n%s%s", cccl, code, out, errOut)
	}
	if !strings.Contains(out, `"package": "nvidia-cuda-cccl==13.3.5.0.6"`) {
		t.Errorf("wheel %s printed\n%s\nwant its newest final release, 13.3.5.0.6", cccl, out)
	}
}

func TestPlaceholders(t *testing.T) {
	f := newFakePyPI(t)
	// CUDA 13's names with the -cu13 suffix hold placeholders only.
	f.placeholder("nvidia-cuda-nvcc-cu13", "0.0.0a0")
	// A real package whose release 0.0.0a0 is a placeholder, and which has no aarch64 wheel.
	f.placeholder("nvidia-cuda-tileiras", "0.0.0a0")
	tile := "nvidia_cuda_tileiras-13.5.37-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl"
	f.file("nvidia-cuda-tileiras", "13.5.37", tile, "../../packages/packages/bb/"+tile, shaA)

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"wheel", "nvidia-cuda-nvcc-cu13==0.0.0a0"}, "nvidia-cuda-nvcc-cu13==0.0.0a0 is one of NVIDIA's placeholder releases (nvidia_cuda_nvcc_cu13-0.0.0a0-py2.py3-none-any.whl: 1136 bytes, no CUDA files), not a CUDA component; CUDA 13's packages are named without the -cu13 suffix: ask for nvidia-cuda-nvcc"},
		{[]string{"wheel", "nvidia-cuda-nvcc-cu13"}, "nvidia-cuda-nvcc-cu13 has only NVIDIA's placeholder releases; CUDA 13's packages are named without the -cu13 suffix: ask for nvidia-cuda-nvcc"},
		{[]string{"wheel", "nvidia-cuda-tileiras==0.0.0a0"}, "is one of NVIDIA's placeholder releases (nvidia_cuda_tileiras-0.0.0a0-py2.py3-none-any.whl: 1136 bytes, no CUDA files), not a CUDA component; its newest real releases: 13.5.37"},
		{[]string{"wheel", "-platform", "linux_aarch64", "nvidia-cuda-tileiras==13.5.37"}, "nvidia-cuda-tileiras==13.5.37 has no real wheel for linux_aarch64"},
		{[]string{"wheel", "-platform", "linux_aarch64", "nvidia-cuda-tileiras"}, "no final release of nvidia-cuda-tileiras has a manylinux aarch64 wheel (linux_aarch64)"},
	} {
		code, out, errOut := runCmd(t, tc.args...)
		if code != 1 || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 1 and %q", tc.args, code, out, errOut, tc.want)
		}
	}

	// check: a pinned placeholder is an ERROR that says so; a component pinned for x86-64 only with
	// no aarch64 wheel on PyPI gets a NO-WHEEL line.
	arm := "nvidia_cuda_runtime-13.5.37-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl"
	x86 := "nvidia_cuda_runtime-13.5.37-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl"
	f.file("nvidia-cuda-runtime", "13.5.37", x86, "../../packages/packages/cc/"+x86, shaA)
	f.file("nvidia-cuda-runtime", "13.5.37", arm, "../../packages/packages/dd/"+arm, shaC)
	entry := func(pkg, file, sha string) string {
		return `[{"package": "` + pkg + `", "url": "https://files.pythonhosted.org/packages/` + file + `", "sha256": "` + sha + `"}]`
	}
	v := writeVersions(t, `CUDA_TOOLKITS = {"13.5": {
    "components": {
        "cudart": `+entry("nvidia-cuda-runtime==13.5.37", "cc/"+x86, shaA)+`,
        "tileiras": `+entry("nvidia-cuda-tileiras==13.5.37", "bb/"+tile, shaA)+`,
        "nvcc": `+entry("nvidia-cuda-nvcc-cu13==0.0.0a0", "99/99/9999/nvidia_cuda_nvcc_cu13-0.0.0a0-py2.py3-none-any.whl", shaB)+`,
    },
    "components_aarch64": {
        "cudart": `+entry("nvidia-cuda-runtime==13.5.37", "dd/"+arm, shaC)+`,
    },
}}
`)
	code, out, errOut := runCmd(t, "check", "-versions", v)
	if code != 1 {
		t.Errorf("check with a pinned placeholder exited %d, want 1\n%s%s", code, out, errOut)
	}
	for _, want := range []string{
		"ERROR    13.5 nvcc (versions.bzl:5): nvidia-cuda-nvcc-cu13==0.0.0a0 is one of NVIDIA's placeholder releases",
		"NO-WHEEL 13.5 tileiras linux_aarch64: nvidia-cuda-tileiras==13.5.37 has no real wheel for linux_aarch64",
		"NO-WHEEL 13.5 nvcc linux_aarch64: nvidia-cuda-nvcc-cu13==0.0.0a0 is one of NVIDIA's placeholder releases",
		"13.5: 0 more components pinned for x86-64 only have a linux_aarch64 wheel",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("check printed\n%s\nwant a line with %q", out, want)
		}
	}
	if strings.Contains(out, "13.5 cudart linux_aarch64") {
		t.Errorf("check printed a NO-WHEEL line for cudart, which is pinned for both platforms:\n%s", out)
	}
}
