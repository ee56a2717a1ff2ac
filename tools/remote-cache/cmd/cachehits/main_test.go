package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/tools/remote-cache/internal/execlog"
)

// coldLog is a cold build's log in the format of --execution_log_json_file: pretty-printed
// objects one after another.
const coldLog = `{
  "commandArgs": ["external/cuda/bin/nvcc", "-c", "ops/cuda/csrc/add.cu", "-o", "bazel-out/k8-fastbuild/bin/ops/cuda/_objs/add.o"],
  "environmentVariables": [{"name": "PATH", "value": "/bin:/usr/bin:/usr/local/bin"}],
  "platform": {},
  "inputs": [
    {"path": "ops/cuda/csrc/add.cu", "digest": {"hash": "aaaa", "sizeBytes": "10", "hashFunctionName": "SHA-256"}},
    {"path": "external/cuda/bin/nvcc", "digest": {"hash": "bbbb", "sizeBytes": "20", "hashFunctionName": "SHA-256"}, "isTool": true}
  ],
  "listedOutputs": ["bazel-out/k8-fastbuild/bin/ops/cuda/_objs/add.o"],
  "remotable": true,
  "cacheable": true,
  "mnemonic": "NvccCompile",
  "runner": "linux-sandbox",
  "remoteCacheable": true,
  "targetLabel": "//ops/cuda:kernels"
}
{
  "commandArgs": ["bazel-out/k8-opt-exec/bin/builder", "compilepkg", "-p", "ops"],
  "environmentVariables": [{"name": "GOROOT", "value": "external/go_sdk"}],
  "inputs": [{"path": "ops/tensor.go", "digest": {"hash": "cccc"}}],
  "listedOutputs": ["bazel-out/k8-fastbuild/bin/ops/ops.a"],
  "remotable": true,
  "cacheable": true,
  "mnemonic": "GoCompilePkg",
  "runner": "linux-sandbox",
  "remoteCacheable": true,
  "targetLabel": "//ops:ops"
}
`

// warmLog is the same build in another clone, one object per line, with Bazel 7.7's field names: the nvcc compile missed (another PATH and another
// nvcc digest), the Go compile hit, and a symlink action (not required) ran locally.
const warmLog = `{"commandArgs":["external/cuda/bin/nvcc","-c","ops/cuda/csrc/add.cu","-o","bazel-out/k8-fastbuild/bin/ops/cuda/_objs/add.o"],"environmentVariables":[{"name":"PATH","value":"/tmp/b/bin:/bin:/usr/bin"}],"inputs":[{"path":"ops/cuda/csrc/add.cu","digest":{"hash":"aaaa"}},{"path":"external/cuda/bin/nvcc","digest":{"hash":"dddd"}}],"listedOutputs":["bazel-out/k8-fastbuild/bin/ops/cuda/_objs/add.o"],"remotable":true,"cacheable":true,"mnemonic":"NvccCompile","runner":"linux-sandbox","remoteCacheable":true,"targetLabel":"//ops/cuda:kernels"}
{"commandArgs":["bazel-out/k8-opt-exec/bin/builder","compilepkg","-p","ops"],"environmentVariables":[{"name":"GOROOT","value":"external/go_sdk"}],"inputs":[{"path":"ops/tensor.go","digest":{"hash":"cccc"}}],"listedOutputs":["bazel-out/k8-fastbuild/bin/ops/ops.a"],"remotable":true,"cacheable":true,"mnemonic":"GoCompilePkg","runner":"remote cache hit","cacheHit":true,"remoteCacheable":true,"targetLabel":"//ops:ops"}
{"commandArgs":["/bin/bash","-c","ln -s a b"],"listedOutputs":["bazel-out/k8-fastbuild/bin/ops/b"],"mnemonic":"Symlink","runner":"local","targetLabel":"//ops:b"}
`

func TestSummarize(t *testing.T) {
	spawns, err := execlog.Read(strings.NewReader(warmLog))
	if err != nil {
		t.Fatal(err)
	}
	counts, misses := Summarize(spawns, regexp.MustCompile(defaultRequire))
	want := []Count{
		{Mnemonic: "GoCompilePkg", Total: 1, Hits: 1, Required: true},
		{Mnemonic: "NvccCompile", Total: 1, Hits: 0, Required: true},
		{Mnemonic: "Symlink", Total: 1, Hits: 0, Required: false},
	}
	if len(counts) != len(want) {
		t.Fatalf("counts %+v, want %+v", counts, want)
	}
	for i := range want {
		if counts[i] != want[i] {
			t.Errorf("counts[%d] = %+v, want %+v", i, counts[i], want[i])
		}
	}
	if len(misses) != 1 || misses[0].Mnemonic != "NvccCompile" {
		t.Errorf("misses %+v, want the NvccCompile spawn only", misses)
	}
}

func TestDefaultRequire(t *testing.T) {
	re := regexp.MustCompile(defaultRequire)
	for _, m := range []string{"NvccCompile", "NvccDeviceLink", "GoCompilePkg", "GoCompilePkgExternal", "GoStdlib", "GoLink", "CppLink", "CppArchive"} {
		if !re.MatchString(m) {
			t.Errorf("%s is not required", m)
		}
	}
	for _, m := range []string{"Symlink", "SolibSymlink", "TemplateExpand", "GoToolchainBinaryBuild", "CppCompile", "Genrule"} {
		if re.MatchString(m) {
			t.Errorf("%s is required", m)
		}
	}
}

func TestExplain(t *testing.T) {
	cold, err := execlog.Read(strings.NewReader(coldLog))
	if err != nil {
		t.Fatal(err)
	}
	warm, err := execlog.Read(strings.NewReader(warmLog))
	if err != nil {
		t.Fatal(err)
	}
	diffs := Explain(&cold[0], &warm[0])
	got := strings.Join(diffs, "\n")
	for _, want := range []string{
		`env PATH: "/bin:/usr/bin:/usr/local/bin" -> "/tmp/b/bin:/bin:/usr/bin"`,
		`input external/cuda/bin/nvcc: digest bbbb -> dddd`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("Explain does not say %q; it says:\n%s", want, got)
		}
	}
	if len(diffs) != 2 {
		t.Errorf("Explain found %d differences, want 2:\n%s", len(diffs), got)
	}
	if d := Explain(&cold[1], &warm[1]); len(d) != 0 {
		t.Errorf("identical spawns differ: %q", d)
	}
	a := cold[1]
	a.CommandArgs = append([]string(nil), a.CommandArgs...)
	a.CommandArgs[3] = "other"
	if d := Explain(&a, &warm[1]); len(d) != 1 || !strings.Contains(d[0], `arg[3]: "other" -> "ops"`) {
		t.Errorf("argument difference: got %q", d)
	}
}

func TestRun(t *testing.T) {
	dir := t.TempDir()
	coldPath := filepath.Join(dir, "a.json")
	warmPath := filepath.Join(dir, "b.json")
	if err := os.WriteFile(coldPath, []byte(coldLog), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(warmPath, []byte(warmLog), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"-against", coldPath, warmPath}, &out, &errOut); code != 1 {
		t.Errorf("a log with a required miss: exit status %d, want 1\n%s%s", code, out.String(), errOut.String())
	}
	for _, want := range []string{
		"MISS NvccCompile //ops/cuda:kernels",
		"output=bazel-out/k8-fastbuild/bin/ops/cuda/_objs/add.o",
		"input external/cuda/bin/nvcc: digest bbbb -> dddd",
		"1 of 2 spawns were remote cache hits (50.0%)",
		"FAIL: 1 required spawns",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}

	out.Reset()
	if code := run([]string{"-require", "^GoCompilePkg$", warmPath}, &out, &errOut); code != 0 {
		t.Errorf("only hits required: exit status %d, want 0\n%s", code, out.String())
	}
	out.Reset()
	if code := run([]string{"-require", "^GoCompilePkg$", "-expect", "GoCompilePkg, NvccDeviceLink", warmPath}, &out, &errOut); code != 1 ||
		!strings.Contains(out.String(), "no spawns of NvccDeviceLink") {
		t.Errorf("an expected mnemonic is absent: exit status %d, want 1\n%s", code, out.String())
	}
	out.Reset()
	if code := run([]string{"-require", "^GoCompilePkg$", "-expect", "NvccHost|NvccCompile,Go.*", warmPath}, &out, &errOut); code != 0 {
		t.Errorf("-expect regular expressions that match: exit status %d, want 0\n%s", code, out.String())
	}
	out.Reset()
	if code := run([]string{"-require", "^GoCompilePkg$", "-expect", "Nvcc", warmPath}, &out, &errOut); code != 1 {
		t.Errorf("-expect matches whole mnemonics only (Nvcc is no prefix): exit status %d, want 1\n%s", code, out.String())
	}
	out.Reset()
	if code := run([]string{"-expect", "(", warmPath}, &out, &errOut); code != 2 {
		t.Errorf("a bad -expect regular expression: exit status %d, want 2", code)
	}
	out.Reset()
	if code := run([]string{"-require", "^NoSuchMnemonic$", warmPath}, &out, &errOut); code != 1 {
		t.Errorf("no required spawns: exit status %d, want 1\n%s", code, out.String())
	}
	if code := run([]string{filepath.Join(dir, "missing.json")}, &out, &errOut); code != 2 {
		t.Errorf("missing log: exit status %d, want 2", code)
	}
}
