package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestRun(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "ex/main.go", "package main\n\nfunc main() {}\n")
	write(t, dir, "docs/rules.md", "# The rules: `cu_library`\n\n## Configurations (`.bazelrc`)\n\n```sh\n# not a heading\n```\n\n## CPU-only builds — of your ops\n")
	write(t, dir, "README.md", strings.Join([]string{
		"# Title",
		"[ok](docs/rules.md) [ok](docs/rules.md#configurations-bazelrc) [ok](#title)",
		"[ok](docs/rules.md#cpu-only-builds--of-your-ops) [web](https://example.com/x#y) `[code](nowhere.md)`",
		"[missing](docs/nowhere.md) [bad anchor](docs/rules.md#not-a-heading)",
		"<!-- file: ex/main.go -->",
		"```go",
		"package main",
		"",
		"func main() {}",
		"```",
		"<!-- file: ex/main.go -->",
		"```go",
		"package other",
		"```",
		"<!-- file: ex/none.go -->",
		"```go",
		"```",
		"",
	}, "\n"))
	var out, errb strings.Builder
	code := run([]string{"-root", dir}, &out, &errb)
	if code != 1 {
		t.Fatalf("exit %d, want 1; stdout:\n%s\nstderr:\n%s", code, out.String(), errb.String())
	}
	want := []string{
		"README.md:4: link docs/nowhere.md: docs/nowhere.md does not exist",
		"README.md:4: link docs/rules.md#not-a-heading: docs/rules.md has no heading with the anchor #not-a-heading",
		"README.md:11: the block after <!-- file: ex/main.go --> differs from that file",
		"README.md:15: <!-- file: ex/none.go -->: open",
	}
	got := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(got) != len(want) {
		t.Fatalf("got %d problems, want %d:\n%s", len(got), len(want), out.String())
	}
	for i, w := range want {
		if !strings.HasPrefix(got[i], w) {
			t.Errorf("problem %d = %q, want prefix %q", i, got[i], w)
		}
	}
}

func TestRunClean(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "README.md", "# A\n\n[b](docs/b.md#b)\n")
	write(t, dir, "docs/b.md", "# B\n\n[a](../README.md#a)\n")
	var out, errb strings.Builder
	if code := run([]string{"-root", dir}, &out, &errb); code != 0 {
		t.Fatalf("exit %d; stdout:\n%s\nstderr:\n%s", code, out.String(), errb.String())
	}
	if !strings.Contains(out.String(), "2 file(s) OK") {
		t.Errorf("stdout = %q", out.String())
	}
}
