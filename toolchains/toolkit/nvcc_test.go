package toolkit

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
)

func readTestdata(t testing.TB, name string) string {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// readCodes parses testdata files of nvcc GPU code lists and concatenates the codes.
func readCodes(t testing.TB, files ...string) []string {
	t.Helper()
	var all []string
	for _, f := range files {
		codes, err := ParseGPUCodeList(readTestdata(t, f))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, codes...)
	}
	return all
}

func TestParseNvccVersion(t *testing.T) {
	for _, tc := range []struct {
		out  string
		want Version
	}{
		{readTestdata(t, "nvcc13_version.txt"), Version{13, 0, 88}},
		{readTestdata(t, "nvcc118_version.txt"), Version{11, 8, 89}},
		{"nvcc: NVIDIA (R) Cuda compiler driver\r\nCuda compilation tools, release 9.0, V9.0.176\r\n", Version{9, 0, 176}},
		{"Cuda compilation tools, release 12.9, V12.9.86\nBuild cuda_12.9.r12.9/compiler.36037853_0", Version{12, 9, 86}},
		{"Cuda compilation tools, release 5.5", Version{5, 5, 0}},
	} {
		got, err := ParseNvccVersion(tc.out)
		if err != nil || got != tc.want {
			t.Errorf("ParseNvccVersion(%q) = %v, %v; want %v", tc.out, got, err, tc.want)
		}
	}
	if got := (Version{13, 0, 88}).String(); got != "13.0.88" {
		t.Errorf("String() = %q", got)
	}
	for _, bad := range []string{
		"",
		"nvcc fatal   : Unknown option '--version'",
		"bash: nvcc: command not found",
		"release 13.0",
		"Cuda compilation tools, release 13.0, V12.9.1",
		"Cuda compilation tools, release x.y, Vx.y.z",
		"Cuda compilation tools, release 99999999999999999999.0",
	} {
		if v, err := ParseNvccVersion(bad); err == nil {
			t.Errorf("ParseNvccVersion(%q) = %v, want an error", bad, v)
		} else if strings.Contains(err.Error(), "\n") {
			t.Errorf("ParseNvccVersion(%q): multi-line error %q", bad, err)
		}
	}
}

func TestParseGPUCodeList(t *testing.T) {
	sm13 := []string{"sm_75", "sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90", "sm_100", "sm_110", "sm_103", "sm_120", "sm_121"}
	compute13 := make([]string, len(sm13))
	for i, c := range sm13 {
		compute13[i] = "compute_" + strings.TrimPrefix(c, "sm_")
	}
	sm118 := []string{"sm_35", "sm_37", "sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70", "sm_72", "sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90"}
	compute118 := make([]string, len(sm118))
	both118 := []string{}
	for i, c := range sm118 {
		compute118[i] = "compute_" + strings.TrimPrefix(c, "sm_")
		both118 = append(both118, compute118[i], c)
	}
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{readTestdata(t, "nvcc13_list_gpu_code.txt"), sm13},
		{readTestdata(t, "nvcc13_list_gpu_arch.txt"), compute13},
		{readTestdata(t, "nvcc118_list_gpu_code.txt"), sm118},
		{readTestdata(t, "nvcc118_list_gpu_arch.txt"), compute118},
		{readTestdata(t, "nvcc118_list_gpu_code_and_arch.txt"), both118},
		{"sm_80,compute_90 sm_90a\r\nsm_80\n", []string{"sm_80", "compute_90", "sm_90a"}},
		{"sm_100f lto_90", []string{"sm_100f", "lto_90"}},
	} {
		got, err := ParseGPUCodeList(tc.in)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseGPUCodeList(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{
		"",
		" \n,\n",
		"nvcc fatal   : Unknown option '--list-gpu-code'",
		"sm_80\nsm_",
		"sm_8",
		"sm_80\ngarbage",
		"SM_80",
		"sm_80x",
		"compute_90a+PTX",
		"arch=sm_80=code",
		readTestdata(t, "nvcc13_version.txt"),
	} {
		if got, err := ParseGPUCodeList(bad); err == nil {
			t.Errorf("ParseGPUCodeList(%q) = %q, want an error", bad, got)
		} else if strings.Contains(err.Error(), "\n") {
			t.Errorf("ParseGPUCodeList(%q): multi-line error %q", bad, err)
		}
	}
}

func TestKnownGPUCodes(t *testing.T) {
	// The 11.8 table equals what the real nvcc 11.8 prints.
	got, ok := KnownGPUCodes(Version{11, 8, 89})
	want := append(readCodes(t, "nvcc118_list_gpu_code.txt"), readCodes(t, "nvcc118_list_gpu_arch.txt")...)
	if !ok || !reflect.DeepEqual(got, want) {
		t.Errorf("KnownGPUCodes(11.8) = %q, %v; want %q", got, ok, want)
	}
	has := func(v Version, code string) bool {
		codes, _ := KnownGPUCodes(v)
		for _, c := range codes {
			if c == code {
				return true
			}
		}
		return false
	}
	for _, tc := range []struct {
		v       Version
		has     []string
		hasNot  []string
		wantLen int
	}{
		{Version{10, 2, 89}, []string{"sm_30", "sm_32", "sm_35", "sm_37", "sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70", "sm_72", "sm_75", "compute_75", "compute_32"}, []string{"sm_20", "sm_80"}, 26},
		{Version{10, 0, 130}, []string{"sm_75"}, []string{"sm_80"}, 26},
		{Version{9, 0, 176}, []string{"sm_30", "sm_32", "sm_53", "sm_62", "sm_70", "compute_70"}, []string{"sm_20", "sm_72", "sm_75"}, 22},
		{Version{9, 2, 148}, []string{"sm_72"}, []string{"sm_75"}, 24},
		{Version{8, 0, 61}, []string{"sm_20", "sm_21", "compute_20", "sm_62"}, []string{"compute_21", "sm_70"}, 23},
		{Version{11, 0, 2}, []string{"sm_35", "sm_80"}, []string{"sm_30", "sm_86"}, 24},
		{Version{11, 4, 0}, []string{"sm_87"}, []string{"sm_89"}, 28},
	} {
		codes, ok := KnownGPUCodes(tc.v)
		if !ok || len(codes) != tc.wantLen {
			t.Errorf("KnownGPUCodes(%v) = %q, %v; want %d codes", tc.v, codes, ok, tc.wantLen)
		}
		for _, c := range tc.has {
			if !has(tc.v, c) {
				t.Errorf("KnownGPUCodes(%v) lacks %s", tc.v, c)
			}
		}
		for _, c := range tc.hasNot {
			if has(tc.v, c) {
				t.Errorf("KnownGPUCodes(%v) has %s", tc.v, c)
			}
		}
	}
	for _, v := range []Version{{7, 5, 0}, {12, 0, 0}, {13, 0, 88}, {10, 3, 0}, {0, 0, 0}} {
		if codes, ok := KnownGPUCodes(v); ok {
			t.Errorf("KnownGPUCodes(%v) = %q, want unknown", v, codes)
		}
	}
}

func TestFindNvcc(t *testing.T) {
	envOf := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	exec := func(paths ...string) func(string) bool {
		return func(p string) bool {
			for _, q := range paths {
				if p == q {
					return true
				}
			}
			return false
		}
	}
	env := envOf(map[string]string{"CUDA_PATH": "/opt/cuda-a", "CUDA_HOME": "/opt/cuda-b", "PATH": "/usr/bin::/bin"})
	all := []string{"/opt/cuda-a/bin/nvcc", "/opt/cuda-b/bin/nvcc", "/usr/bin/nvcc", "/bin/nvcc", "/usr/local/cuda/bin/nvcc", "/usr/lib/nvidia-cuda-toolkit/bin/nvcc"}
	for i, p := range all {
		// Every candidate is found when it alone exists; when it and all
		// later ones exist, it wins (the order).
		for _, isExec := range []func(string) bool{exec(p), exec(all[i:]...)} {
			got, searched, err := FindNvcc(env, isExec)
			if err != nil || got != p || !reflect.DeepEqual(searched, all[:i+1]) {
				t.Errorf("FindNvcc = %q, %q, %v; want %q after %q", got, searched, err, p, all[:i+1])
			}
		}
	}
	_, searched, err := FindNvcc(env, exec())
	var nf *NvccNotFoundError
	if !errors.As(err, &nf) || !reflect.DeepEqual(searched, all) || !reflect.DeepEqual(nf.Searched, all) {
		t.Fatalf("not found: %q, %v", searched, err)
	}
	for _, w := range append(all, "install the CUDA toolkit", "CUDA_PATH") {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q lacks %q", err, w)
		}
	}
	// Unset variables are skipped and reported; duplicates are tried once.
	_, searched, err = FindNvcc(envOf(map[string]string{"CUDA_HOME": "/usr/local/cuda"}), exec())
	if want := []string{"/usr/local/cuda/bin/nvcc", "/usr/lib/nvidia-cuda-toolkit/bin/nvcc"}; !reflect.DeepEqual(searched, want) {
		t.Errorf("searched %q, want %q", searched, want)
	}
	if !strings.Contains(err.Error(), "CUDA_PATH, PATH unset") {
		t.Errorf("error %q does not say CUDA_PATH and PATH are unset", err)
	}
	// The defaults work against the real file system.
	dir := t.TempDir()
	nvcc := dir + "/bin/nvcc"
	if err := os.MkdirAll(dir+"/bin", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(nvcc, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	onlyCUDAPath := envOf(map[string]string{"CUDA_PATH": dir})
	if got, _, _ := FindNvcc(onlyCUDAPath, nil); got == nvcc {
		t.Errorf("non-executable %s was found", nvcc)
	}
	if err := os.Chmod(nvcc, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, _, err := FindNvcc(onlyCUDAPath, nil); got != nvcc || err != nil {
		t.Errorf("FindNvcc = %q, %v; want %s", got, err, nvcc)
	}
}
