package glibc

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestCompare(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"2.36", "2.36", 0},
		{"2.9", "2.34", -1},
		{"2.34", "2.9", 1},
		{"2.2.5", "2.2", 1},
		{"2.2", "2.2.5", -1},
		{"3.4.30", "3.4.29", 1},
		{"1.3", "1.3.13", -1},
		{"2.36", "2.43", -1},
	} {
		if got := Compare(c.a, c.b); got != c.want {
			t.Errorf("Compare(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestExceedingAndNewest(t *testing.T) {
	needs := []Need{
		{Library: "libc.so.6", Version: "GLIBC_2.2.5", Symbols: []string{"malloc"}},
		{Library: "libc.so.6", Version: "GLIBC_2.38", Symbols: []string{"__isoc23_strtol"}},
		{Library: "libm.so.6", Version: "GLIBC_2.43", Symbols: []string{"sqrtf"}},
		{Library: "libstdc++.so.6", Version: "GLIBCXX_3.4.30"},
		{Library: "libgcc_s.so.1", Version: "GCC_3.0"},
	}
	got := Baseline{"GLIBC": "2.36", "GLIBCXX": "3.4.30"}.Exceeding(needs)
	if want := needs[1:3]; !reflect.DeepEqual(got, want) {
		t.Errorf("Exceeding = %v, want %v", got, want)
	}
	if got := (Baseline{}).Exceeding(needs); len(got) != 0 {
		t.Errorf("an empty baseline checks nothing, got %v", got)
	}
	want := map[string]string{"GLIBC": "2.43", "GLIBCXX": "3.4.30", "GCC": "3.0"}
	if got := Newest(needs); !reflect.DeepEqual(got, want) {
		t.Errorf("Newest = %v, want %v", got, want)
	}
	if f, n := needs[1].Family(), needs[1].Number(); f != "GLIBC" || n != "2.38" {
		t.Errorf("Family, Number of GLIBC_2.38 = %q, %q", f, n)
	}
}

func TestNeedsNotELF(t *testing.T) {
	script := filepath.Join(t.TempDir(), "run.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Needs(script); !errors.Is(err, ErrNotELF) {
		t.Errorf("Needs(a script) = %v, want ErrNotELF", err)
	}
	if _, err := Needs(filepath.Join(t.TempDir(), "missing")); err == nil || errors.Is(err, ErrNotELF) {
		t.Errorf("Needs(a missing file) = %v, want a read error", err)
	}
}

// A truncated ELF file is an error, not a pass.
func TestNeedsCorruptELF(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad")
	if err := os.WriteFile(bad, []byte("\x7fELF\x02\x01\x01"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Needs(bad); err == nil || errors.Is(err, ErrNotELF) {
		t.Errorf("Needs(a truncated ELF file) = %v, want an ELF read error", err)
	}
}

// The test binary itself is ELF: Needs reads it without error (under Bazel a pure Go binary is
// static and needs nothing; a cgo-linked one needs some GLIBC version).
func TestNeedsOfThisBinary(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	needs, err := Needs(exe)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range needs {
		if n.Library == "" || n.Family() == "" || n.Number() == "" {
			t.Errorf("malformed need %+v", n)
		}
	}
}
