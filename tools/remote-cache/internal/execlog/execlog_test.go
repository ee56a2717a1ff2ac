package execlog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pretty is a log as --execution_log_json_file writes it: pretty-printed objects one after another.
const pretty = `{
  "commandArgs": ["external/cuda/bin/nvcc", "-c", "a.cu"],
  "listedOutputs": ["bazel-out/k8-opt/bin/_objs/a.o"],
  "actualOutputs": [{"path": "bazel-out/k8-opt/bin/_objs/a.o", "digest": {"hash": "aaaa", "sizeBytes": "10", "hashFunctionName": "SHA-256"}}],
  "mnemonic": "NvccCompile",
  "runner": "remote"
}
{
  "mnemonic": "GoCompilePkg",
  "runner": "linux-sandbox"
}
`

// lines is the same shape, one object per line.
const lines = `{"mnemonic":"NvccCompile","runner":"remote","actualOutputs":[{"path":"a.o","digest":{"hash":"aaaa","sizeBytes":"10"}}]}
{"mnemonic":"GoCompilePkg","runner":"remote cache hit","cacheHit":true}
`

func TestRead(t *testing.T) {
	for name, log := range map[string]string{"pretty": pretty, "lines": lines} {
		spawns, err := Read(strings.NewReader(log))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(spawns) != 2 || spawns[0].Mnemonic != "NvccCompile" || spawns[1].Mnemonic != "GoCompilePkg" {
			t.Fatalf("%s: got %+v", name, spawns)
		}
		if got := spawns[0].ActualOutputs[0].Digest; got.Hash != "aaaa" || got.SizeBytes != "10" {
			t.Errorf("%s: first output digest %+v, want aaaa/10", name, got)
		}
	}
	if _, err := Read(strings.NewReader(`{"mnemonic": "X"} {"mnemonic": `)); err == nil {
		t.Error("a truncated log was accepted")
	}
}

func TestReadFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "exec.json")
	if err := os.WriteFile(path, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	if spawns, err := ReadFile(path); err != nil || len(spawns) != 2 {
		t.Errorf("ReadFile: %d spawns, %v", len(spawns), err)
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("a missing file was read")
	}
}

func TestRunners(t *testing.T) {
	for _, c := range []struct {
		json           string
		hit, remoteRun bool
	}{
		{`{"cacheHit": true, "runner": "remote cache hit"}`, true, false},       // Bazel 7.7
		{`{"remoteCacheHit": true, "runner": "remote cache hit"}`, true, false}, // older Bazel
		{`{"runner": "remote cache hit"}`, true, false},
		{`{"runner": "remote"}`, false, true},
		{`{"runner": "remote", "cacheHit": true}`, true, false},
		{`{"runner": "linux-sandbox"}`, false, false},
		{`{"runner": "processwrapper-sandbox", "cacheHit": false}`, false, false},
	} {
		spawns, err := Read(strings.NewReader(c.json))
		if err != nil {
			t.Fatal(err)
		}
		if got := spawns[0].Hit(); got != c.hit {
			t.Errorf("%s: Hit() = %v, want %v", c.json, got, c.hit)
		}
		if got := spawns[0].ExecutedRemotely(); got != c.remoteRun {
			t.Errorf("%s: ExecutedRemotely() = %v, want %v", c.json, got, c.remoteRun)
		}
	}
}
