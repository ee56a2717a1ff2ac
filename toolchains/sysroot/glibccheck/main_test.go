package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestUsage(t *testing.T) {
	var out, errs strings.Builder
	if code := run(nil, &out, &errs); code != 2 || !strings.Contains(errs.String(), "no binaries") {
		t.Errorf("no arguments: exit %d, stderr %q", code, errs.String())
	}
	errs.Reset()
	if code := run([]string{"-nope", "x"}, &out, &errs); code != 2 {
		t.Errorf("unknown flag: exit %d, want 2", code)
	}
	errs.Reset()
	if code := run([]string{filepath.Join(t.TempDir(), "missing")}, &out, &errs); code != 2 || !strings.Contains(errs.String(), "missing") {
		t.Errorf("missing file: exit %d, stderr %q", code, errs.String())
	}
}

func TestScriptsPassAndStamp(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "run.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	stamp := filepath.Join(dir, "ok")
	var out, errs strings.Builder
	if code := run([]string{"-v", "-stamp", stamp, script}, &out, &errs); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs.String())
	}
	if !strings.Contains(out.String(), "not ELF, skipped") {
		t.Errorf("-v output %q does not say the script was skipped", out.String())
	}
	if _, err := os.Stat(stamp); err != nil {
		t.Errorf("no stamp written: %v", err)
	}
}

func TestSymbolsList(t *testing.T) {
	if got := symbols(nil); !strings.Contains(got, "no symbol") {
		t.Errorf("symbols(nil) = %q", got)
	}
	many := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}
	if got := symbols(many); !strings.HasSuffix(got, "and 2 more") {
		t.Errorf("symbols(10 names) = %q", got)
	}
}
