package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain lets the test binary act as the command, so that TestExec can
// run it as a real process.
func TestMain(m *testing.M) {
	if os.Getenv("CUDA_ARCHS_TEST_AS_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

const (
	sm80   = "-gencode=arch=compute_80,code=sm_80"
	sm90   = "-gencode=arch=compute_90,code=sm_90"
	ptx90  = "-gencode=arch=compute_90,code=compute_90"
	sm86   = "-gencode=arch=compute_86,code=sm_86"
	ptx86  = "-gencode=arch=compute_86,code=compute_86"
	sm100  = "-gencode=arch=compute_100,code=sm_100"
	sm120  = "-gencode=arch=compute_120,code=sm_120"
	ptx120 = "-gencode=arch=compute_120,code=compute_120"
)

func lines(l ...string) string { return strings.Join(l, "\n") + "\n" }

func TestRunOK(t *testing.T) {
	code13 := filepath.Join("..", "..", "..", "toolkit", "testdata", "nvcc13_list_gpu_code.txt")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"8.0;9.0+PTX"}, lines(sm80, ptx90, sm90)},
		{[]string{"Hopper", "8.0"}, lines(sm80, ptx90, sm90)}, // joined with a space
		{[]string{"9.0", "--supported", "sm_80,sm_90"}, lines(sm90)},
		{[]string{"--gpus", "9.0,8.6"}, lines(sm86, ptx90, sm90)},
		{[]string{"--gpus", "9.0, 8.6", "native"}, lines(sm86, ptx90, sm90)},
		{[]string{"--gpus", "12.1", "--supported", "sm_80,sm_90,sm_100,sm_120", ""}, lines(ptx120, sm120)},
		{[]string{"--supported-file", code13, "Blackwell+Tegra;10.0"}, lines(sm100, "-gencode=arch=compute_110,code=sm_110")},
		{[]string{"--", "8.0"}, lines(sm80)},
		{[]string{"--supported", "sm_100,sm_103,sm_100f", "--toolkit", "CUDA 13.5", "10.0f+PTX"}, lines("-gencode=arch=compute_100f,code=compute_100f", "-gencode=arch=compute_100f,code=sm_100f")},
	} {
		code, out, errOut := runCLI(tc.args...)
		if code != 0 || out != tc.want || errOut != "" {
			t.Errorf("cuda-archs %q = %d, stdout %q, stderr %q; want 0, %q", tc.args, code, out, errOut, tc.want)
		}
	}
}

func TestRunInvalid(t *testing.T) {
	code13 := filepath.Join("..", "..", "..", "toolkit", "testdata", "nvcc13_list_gpu_code.txt")
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"Hopper+PTX"}, []string{`"Hopper+PTX"`, `"9.0+PTX+PTX"`, "accepted:"}},
		{[]string{"8.0;sm_90"}, []string{`"sm_90"`, `TORCH_CUDA_ARCH_LIST="8.0;sm_90"`}},
		{[]string{" ; "}, []string{"empty arch list"}},
		{[]string{}, []string{"no GPUs", "--gpus"}},
		{[]string{"native"}, []string{"no GPUs", "--gpus"}},
		{[]string{"--supported-file", code13, "3.5"}, []string{`"3.5"`, "sm_35", "sm_75 sm_80"}},
		{[]string{"--supported", "sm_80,sm_90", "10.0"}, []string{"sm_100", "sm_80 sm_90"}},
		{[]string{"--supported", "sm_80,bogus", "8.0"}, []string{"--supported", "bogus"}},
		{[]string{"--supported", "", "8.0"}, []string{"--supported", "empty"}},
		{[]string{"--supported-file", "/nonexistent/list", "8.0"}, []string{"--supported-file", "/nonexistent/list"}},
		{[]string{"--gpus", "9", "8.0"}, []string{"--gpus", `"9"`}},
		{[]string{"--explain", "8.9a"}, []string{`"8.9a"`}},
		{[]string{"--supported", "sm_80,sm_90", "--toolkit", "CUDA 13.2 (pinned)", "10.7"}, []string{`CUDA arch "10.7" needs sm_107, which CUDA 13.2 (pinned) cannot build; it supports: sm_80 sm_90`}},
	} {
		code, out, errOut := runCLI(tc.args...)
		if code != 2 || out != "" || !strings.HasPrefix(errOut, "cuda-archs: ") || strings.Count(errOut, "\n") != 1 || !strings.HasSuffix(errOut, "\n") {
			t.Errorf("cuda-archs %q = %d, stdout %q, stderr %q; want 2 and one stderr line", tc.args, code, out, errOut)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("cuda-archs %q: stderr %q lacks %q", tc.args, errOut, w)
			}
		}
	}
}

func TestRunUsage(t *testing.T) {
	for _, args := range [][]string{
		{"--nope"},
		{"--gpus"},
		{"--bzl", "8.0"},
		{"--bzl", "--explain"},
		{"--explain=maybe", "8.0"},
	} {
		code, out, errOut := runCLI(args...)
		if code != 2 || out != "" || !strings.HasPrefix(errOut, "cuda-archs: ") || !strings.Contains(errOut, "usage: cuda-archs") {
			t.Errorf("cuda-archs %q = %d, stdout %q, stderr %q; want 2 with usage", args, code, out, errOut)
		}
	}
	code, out, _ := runCLI("--help")
	if code != 0 || !strings.Contains(out, "usage: cuda-archs") {
		t.Errorf("--help = %d, %q", code, out)
	}
}

func TestRunExplain(t *testing.T) {
	code, out, errOut := runCLI("--explain", "Ampere;;Hopper")
	want := `ENTRY   ARCHES       FLAGS
Ampere  8.0;8.6+PTX  ` + sm80 + `
                     ` + ptx86 + `
                     ` + sm86 + `
Hopper  9.0+PTX      ` + ptx90 + `
                     ` + sm90 + `

result (5 flags):
` + lines(sm80, ptx86, sm86, ptx90, sm90)
	if code != 0 || out != want || errOut != "" {
		t.Errorf("--explain = %d, stderr %q, stdout\n%s\nwant\n%s", code, errOut, out, want)
	}
	code, out, _ = runCLI("--explain", "--gpus", "9.0")
	if code != 0 || !strings.Contains(out, "native  9.0+PTX") {
		t.Errorf("--explain native = %d, %q", code, out)
	}
}

func TestRunBzl(t *testing.T) {
	code, out, errOut := runCLI("--bzl")
	if code != 0 || errOut != "" || !strings.HasPrefix(out, "# Generated by cuda-archs --bzl; DO NOT EDIT.") ||
		!strings.Contains(out, "\n    \"Hopper\": [\""+ptx90+"\", \""+sm90+"\"],\n") {
		t.Errorf("--bzl = %d, stderr %q, stdout %q", code, errOut, out)
	}
	code, out, _ = runCLI("--bzl", "--supported", "sm_80,sm_90")
	if code != 0 || !strings.Contains(out, "\n    \"3.5\": \"CUDA arch") || strings.Contains(out, "\n    \"3.5\": [") {
		t.Errorf("--bzl --supported = %d, %q", code, out)
	}
	code, out, _ = runCLI("--bzl", "--supported", "sm_80,sm_90", "--toolkit", "CUDA 13.5 (pinned)")
	if code != 0 || !strings.Contains(out, "\n# Toolkit: CUDA 13.5 (pinned)\n") || !strings.Contains(out, "which CUDA 13.5 (pinned) cannot build") {
		t.Errorf("--bzl --supported --toolkit = %d, %q", code, out)
	}
}

// TestRunDetect: --detect prints the toolkit named by CUDA_PATH (searched
// first) as JSON.
func TestRunDetect(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{
		"bin/nvcc":                 "#!/bin/sh\ncase \"$1\" in\n--version) echo 'Cuda compilation tools, release 13.0, V13.0.88' ;;\n--list-gpu-code) printf 'sm_80\\nsm_90\\n' ;;\n*) exit 1 ;;\nesac\n",
		"include/cuda_runtime.h":   "",
		"lib64/libcudart_static.a": "",
	} {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("CUDA_PATH", root)
	code, out, errOut := runCLI("--detect")
	var got struct {
		Nvcc, Version, Root, Include string
		Supported                    []string
		Libraries                    map[string]string
	}
	if code != 0 || errOut != "" || json.Unmarshal([]byte(out), &got) != nil {
		t.Fatalf("--detect = %d, stderr %q, stdout %q", code, errOut, out)
	}
	if got.Nvcc != root+"/bin/nvcc" || got.Version != "13.0.88" || got.Root != root || got.Include != root+"/include" ||
		strings.Join(got.Supported, ",") != "sm_80,sm_90" || got.Libraries["cudart_static"] != root+"/lib64/libcudart_static.a" {
		t.Errorf("--detect = %s", out)
	}
	if code, _, errOut := runCLI("--detect", "8.0"); code != 2 || !strings.Contains(errOut, "--detect takes no") {
		t.Errorf("--detect 8.0 = %d, %q", code, errOut)
	}
}

// TestExec runs the command as a process to check the real exit codes and
// streams.
func TestExec(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		code     int
		stdout   string
		stderrRE string
	}{
		{[]string{"Hopper"}, 0, lines(ptx90, sm90), ""},
		{[]string{"9.9"}, 2, "", "cuda-archs: "},
		{[]string{"--bogus"}, 2, "", "usage: cuda-archs"},
	} {
		cmd := exec.Command(os.Args[0], tc.args...)
		cmd.Env = append(os.Environ(), "CUDA_ARCHS_TEST_AS_MAIN=1")
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != tc.code || out.String() != tc.stdout || !strings.Contains(errb.String(), tc.stderrRE) {
			t.Errorf("cuda-archs %q: exit %d, stdout %q, stderr %q; want %d, %q, %q", tc.args, code, out.String(), errb.String(), tc.code, tc.stdout, tc.stderrRE)
		}
	}
}
