package main

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/bench"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
)

// tiny are flags that make a CPU run take a fraction of a second.
var tiny = []string{"--device", "cpu", "--max-elems", "16384", "--softmax-shapes", "32x64", "--matmul-sizes", "16",
	"--repeats", "2", "--warmup", "1", "--batch-ms", "0.2", "--latency-calls", "5"}

func TestRunAndCompareCPU(t *testing.T) {
	dir := t.TempDir()
	out := func(name string) string { return filepath.Join(dir, name) }
	var stdout, stderr bytes.Buffer
	args := append(tiny, "--json", out("go.json"), "--markdown", out("go.md"), "--png", out("go.png"))
	if err := run(args, &stdout, &stderr); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "# ops benchmark (go) on cpu") || !strings.Contains(stderr.String(), "row_softmax") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	}
	md, _ := os.ReadFile(out("go.md"))
	if !bytes.Equal(md, stdout.Bytes()) {
		t.Error("--markdown file differs from stdout")
	}
	checkPNG(t, out("go.png"))
	rep, err := bench.ReadJSON(out("go.json"))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Device.Type != "cpu" || len(rep.Results) == 0 {
		t.Errorf("report: device %+v, %d results", rep.Device, len(rep.Results))
	}

	// Compare the run with itself posing as PyTorch's.
	rep.Impl = bench.ImplTorch
	if err := rep.WriteJSON(out("torch.json")); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	args = []string{"compare", "--go", out("go.json"), "--torch", out("torch.json"), "--markdown", out("cmp.md"), "--png", out("cmp.png"), "--json", out("cmp.json")}
	if err := run(args, &stdout, &stderr); err != nil {
		t.Fatalf("compare: %v\n%s", err, stderr.String())
	}
	for _, want := range []string{"# Go ops vs PyTorch on cpu", "## Targets (float32)", "| polynomial | 16K |", "1.00x"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("compare output lacks %q:\n%s", want, stdout.String())
		}
	}
	checkPNG(t, out("cmp.png"))
	if b, err := os.ReadFile(out("cmp.json")); err != nil || !bytes.Contains(b, []byte(`"targets"`)) {
		t.Errorf("compare --json: %v", err)
	}
}

func TestHalfDTypesCPU(t *testing.T) {
	path := filepath.Join(t.TempDir(), "go.json")
	var stdout, stderr bytes.Buffer
	args := append(slices.Clone(tiny), "--dtypes", "float16,bfloat16", "--ops", "axpby", "--latency-elems", "0", "--json", path)
	if err := run(args, &stdout, &stderr); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	rep, err := bench.ReadJSON(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := rep.DTypes(); !slices.Equal(got, []string{"float16", "bfloat16"}) {
		t.Errorf("dtypes %v, want float16 and bfloat16", got)
	}
	for _, r := range rep.Results {
		if r.Error != "" || r.Op == bench.OpAxpby && r.Bytes != int64(3*2*r.Elems) {
			t.Errorf("%v: error %q, %d bytes", r.Key(), r.Error, r.Bytes)
		}
	}
}

func checkPNG(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil || !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("%s is not a PNG (err %v)", path, err)
	}
}

func TestBadArguments(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--device", "tpu"}, "expected cuda or cpu"},
		{[]string{"--device", "cpu", "--dtypes", "float8"}, `"float8" is not one of float32, float64, float16, bfloat16`},
		{[]string{"--device", "cpu", "--ops", "axpby,nope"}, `unknown op "nope"`},
		{[]string{"--device", "cpu", "--softmax-shapes", "64by64"}, "not a shape"},
		{[]string{"--device", "cpu", "--matmul-sizes", "0"}, "not a positive integer"},
		{[]string{"--device", "cpu", "--sizes", "x"}, "not a positive integer"},
		{[]string{"--device", "cpu", "extra"}, "unexpected argument"},
		{[]string{"--no-such-flag"}, "no-such-flag"},
		{[]string{"compare", "--go", "a.json"}, "needs --go and --torch"},
		{[]string{"compare", "--go", "missing.json", "--torch", "missing.json"}, "missing.json"},
	} {
		var stdout, stderr bytes.Buffer
		err := run(tc.args, &stdout, &stderr)
		if err == nil || !strings.Contains(err.Error()+stderr.String(), tc.want) {
			t.Errorf("run(%q) = %v (stderr %q), want an error with %q", tc.args, err, stderr.String(), tc.want)
		}
	}
	var stdout, stderr bytes.Buffer
	if err := run([]string{"--help"}, &stdout, &stderr); !errors.Is(err, flag.ErrHelp) || !strings.Contains(stderr.String(), "bench compare") {
		t.Errorf("--help: %v, %q", err, stderr.String())
	}
}

func TestNoGPU(t *testing.T) {
	if ok, _ := cuda.Available(); ok {
		t.Skip("a GPU is present")
	}
	var stdout, stderr bytes.Buffer
	err := run([]string{"--device", "cuda"}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "no CUDA device") || !strings.Contains(err.Error(), "--device cpu") {
		t.Errorf("--device cuda without a GPU: %v", err)
	}
}
