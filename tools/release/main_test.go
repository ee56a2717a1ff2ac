package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// checkout makes a git repository with a commit holding files (path -> content; a path ending in
// "*" is executable, without the star).
func checkout(t *testing.T, files map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git on PATH")
	}
	dir := t.TempDir()
	for name, content := range files {
		mode := os.FileMode(0o644)
		if strings.HasSuffix(name, "*") {
			name, mode = strings.TrimSuffix(name, "*"), 0o755
		}
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"init", "-q"},
		{"add", "-A"},
		{"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "c"},
	} {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

var sources = map[string]string{
	"MODULE.bazel":                          "module(\n    name = \"rules_cuda_go\",\n    version = \"0.1.0\",\n)\n\nbazel_dep(name = \"rules_go\", version = \"0.65.0\")\n",
	"examples/bzlmod_consumer/MODULE.bazel": "module(name = \"bzlmod_consumer\")\n\nbazel_dep(name = \"rules_cuda_go\", version = \"0.1.0\")\n",
	"rules/defs.bzl":                        "\"\"\"defs\"\"\"\n",
	"bazelw*":                               "#!/bin/sh\n",
}

// untar returns the archive's entries: name -> header, and name -> content.
func untar(t *testing.T, archive []byte) (map[string]*tar.Header, map[string]string) {
	t.Helper()
	gz, err := gzip.NewReader(bytes.NewReader(archive))
	if err != nil {
		t.Fatal(err)
	}
	if !gz.ModTime.IsZero() || gz.Name != "" {
		t.Errorf("gzip header has name %q, time %v: not reproducible", gz.Name, gz.ModTime)
	}
	tr := tar.NewReader(gz)
	hdrs, data := map[string]*tar.Header{}, map[string]string{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		hdrs[h.Name], data[h.Name] = h, string(b)
	}
	return hdrs, data
}

func TestRelease(t *testing.T) {
	src := checkout(t, sources)
	// An uncommitted change stays out of the archive, and is reported.
	if err := os.WriteFile(filepath.Join(src, "rules/defs.bzl"), []byte("changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	url := "file://" + filepath.Join(out, "rules_cuda_go-1.2.3-rc1.tar.gz")
	if err := run([]string{"-src", src, "-out", out, "1.2.3-rc1", "-url", url}, &stdout, &stderr); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "rules/defs.bzl") {
		t.Errorf("stderr does not report the uncommitted rules/defs.bzl: %q", stderr.String())
	}
	archive, err := os.ReadFile(filepath.Join(out, "rules_cuda_go-1.2.3-rc1.tar.gz"))
	if err != nil {
		t.Fatal(err)
	}
	hdrs, files := untar(t, archive)
	p := "rules_cuda_go-1.2.3-rc1/"
	if got := files[p+"rules/defs.bzl"]; got != sources["rules/defs.bzl"] {
		t.Errorf("archived rules/defs.bzl = %q, want HEAD's %q", got, sources["rules/defs.bzl"])
	}
	if !strings.Contains(files[p+"MODULE.bazel"], "version = \"1.2.3-rc1\"") || !strings.Contains(files[p+"MODULE.bazel"], "rules_go\", version = \"0.65.0\"") {
		t.Errorf("archived MODULE.bazel not stamped (or a dep's version changed):\n%s", files[p+"MODULE.bazel"])
	}
	if !strings.Contains(files[p+"examples/bzlmod_consumer/MODULE.bazel"], "bazel_dep(name = \"rules_cuda_go\", version = \"1.2.3-rc1\")") {
		t.Errorf("the example's dependency not stamped:\n%s", files[p+"examples/bzlmod_consumer/MODULE.bazel"])
	}
	if h := hdrs[p+"bazelw"]; h == nil || h.Mode&0o111 == 0 {
		t.Errorf("bazelw lost its executable bit: %+v", h)
	}
	for name, h := range hdrs {
		if !strings.HasPrefix(name, p) || h.ModTime.Unix() != 0 || h.Uid != 0 || h.Uname != "" {
			t.Errorf("entry %s: outside the prefix or with a time or owner (%v, %d, %q)", name, h.ModTime, h.Uid, h.Uname)
		}
	}

	entry := filepath.Join(out, "registry/modules/rules_cuda_go/1.2.3-rc1")
	var source map[string]string
	data, err := os.ReadFile(filepath.Join(entry, "source.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &source); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(archive)
	if want := "sha256-" + base64.StdEncoding.EncodeToString(sum[:]); source["integrity"] != want {
		t.Errorf("integrity %q, want %q", source["integrity"], want)
	}
	if source["url"] != url || source["strip_prefix"] != "rules_cuda_go-1.2.3-rc1" {
		t.Errorf("source.json = %v", source)
	}
	module, err := os.ReadFile(filepath.Join(entry, "MODULE.bazel"))
	if err != nil || string(module) != files[p+"MODULE.bazel"] {
		t.Errorf("the registry's MODULE.bazel differs from the archive's (%v):\n%s", err, module)
	}
	presubmit, err := os.ReadFile(filepath.Join(entry, "presubmit.yml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"- 7.x", "- 8.x", "- 9.x", "module_path: examples/bzlmod_consumer", "test_targets:"} {
		if !strings.Contains(string(presubmit), want) {
			t.Errorf("presubmit.yml lacks %q:\n%s", want, presubmit)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "registry/bazel_registry.json")); err != nil {
		t.Error(err)
	}

	// Reproducible, and a second version joins the first in metadata.json.
	out2 := t.TempDir()
	if err := run([]string{"-src", src, "-out", out2, "-url", url, "1.2.3-rc1"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	again, err := os.ReadFile(filepath.Join(out2, "rules_cuda_go-1.2.3-rc1.tar.gz"))
	if err != nil || !bytes.Equal(again, archive) {
		t.Errorf("a second release of the same commit and version differs (%v)", err)
	}
	if err := run([]string{"-src", src, "-out", out, "0.2.0"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	var meta struct {
		Versions []string `json:"versions"`
	}
	data, err = os.ReadFile(filepath.Join(out, "registry/modules/rules_cuda_go/metadata.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &meta); err != nil || strings.Join(meta.Versions, " ") != "1.2.3-rc1 0.2.0" {
		t.Errorf("metadata.json versions = %v (%v), want [1.2.3-rc1 0.2.0]", meta.Versions, err)
	}
	var def map[string]string
	data, _ = os.ReadFile(filepath.Join(out, "registry/modules/rules_cuda_go/0.2.0/source.json"))
	if err := json.Unmarshal(data, &def); err != nil || def["url"] != "https://github.com/rules-cuda-go/rules_cuda_go/releases/download/v0.2.0/rules_cuda_go-0.2.0.tar.gz" {
		t.Errorf("default url: %v (%v)", def, err)
	}
}

func TestReleaseErrors(t *testing.T) {
	src := checkout(t, sources)
	noExample := checkout(t, map[string]string{"MODULE.bazel": sources["MODULE.bazel"]})
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-src", src}, "want one VERSION"},
		{[]string{"-src", src, "1.0", "2.0"}, "want one VERSION"},
		{[]string{"-src", src, "v1.0.0"}, `version "v1.0.0" is not MAJOR.MINOR.PATCH`},
		{[]string{"-src", t.TempDir(), "1.0.0"}, "git archive"},
		{[]string{"-src", noExample, "1.0.0"}, "HEAD has no examples/bzlmod_consumer/MODULE.bazel"},
	} {
		var stdout, stderr bytes.Buffer
		err := run(append(tc.args, "-out", t.TempDir()), &stdout, &stderr)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("run(%q) = %v, want an error containing %q", tc.args, err, tc.want)
		}
	}
}
