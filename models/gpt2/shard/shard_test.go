package shard

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func seq(n int) []int32 {
	t := make([]int32, n)
	for i := range t {
		t[i] = int32(i % 50000)
	}
	return t
}

func TestWriteRead(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.bin")
	want := []int32{0, 1, 50256, MaxToken, 7}
	if err := Write(p, want); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(p)
	if len(raw) != HeaderBytes+2*len(want) || binary.LittleEndian.Uint32(raw) != Magic || binary.LittleEndian.Uint32(raw[8:]) != 5 {
		t.Fatalf("header/size wrong: %d bytes", len(raw))
	}
	got, err := Read(p)
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("Read = %v, %v; want %v", got, err, want)
	}
	if n, err := Count(p); n != 5 || err != nil {
		t.Fatalf("Count = %d, %v", n, err)
	}
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.bin")
	if err := Write(good, seq(100)); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(good)
	put := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	badMagic := slices.Clone(raw)
	binary.LittleEndian.PutUint32(badMagic, 20240801)
	badVersion := slices.Clone(raw)
	binary.LittleEndian.PutUint32(badVersion[4:], 2)
	cases := []struct {
		path, want string
		format     bool
	}{
		{filepath.Join(dir, "missing.bin"), "no such file", false},
		{put("trunc.bin", raw[:len(raw)-3]), "header says 100 tokens", true},
		{put("short.bin", raw[:100]), "shorter than the 1024-byte header", true},
		{put("magic.bin", badMagic), "magic number 20240801, expected 20240520", true},
		{put("version.bin", badVersion), "version 2, expected 1", true},
	}
	for _, c := range cases {
		_, err := Read(c.path)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), filepath.Base(c.path)) {
			t.Errorf("Read(%s) = %v, want an error naming the file and %q", c.path, err, c.want)
		}
		if errors.Is(err, ErrFormat) != c.format {
			t.Errorf("Read(%s): errors.Is(ErrFormat) = %v, want %v", c.path, !c.format, c.format)
		}
		if _, err := NewLoader([]string{good, c.path}, 2, 4, 0, 1); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewLoader with %s = %v, want %q", c.path, err, c.want)
		}
	}
	if err := Write(filepath.Join(dir, "x.bin"), []int32{70000}); err == nil || !strings.Contains(err.Error(), "70000") {
		t.Errorf("Write of 70000 = %v, want an error", err)
	}
	if _, err := NewLoader([]string{good}, 4, 30, 0, 1); err == nil || !strings.Contains(err.Error(), "fewer than one step") {
		t.Errorf("NewLoader with a too-small shard = %v", err)
	}
	if _, err := NewLoader([]string{good}, 1, 4, 2, 2); err == nil {
		t.Errorf("NewLoader rank 2 of 2: no error")
	}
}

// TestLoaderRanks checks that the ranks of a step read disjoint consecutive
// blocks, targets are inputs shifted by one, shards follow each other and a
// saved Position resumes the same stream.
func TestLoaderRanks(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.bin"), filepath.Join(dir, "b.bin")
	if err := Write(a, seq(50)); err != nil {
		t.Fatal(err)
	}
	bt := make([]int32, 40)
	for i := range bt {
		bt[i] = int32(1000 + i)
	}
	if err := Write(b, bt); err != nil {
		t.Fatal(err)
	}
	const B, T, W = 2, 3, 2
	ls := make([]*Loader, W)
	for r := range ls {
		l, err := NewLoader([]string{a, b}, B, T, r, W)
		if err != nil {
			t.Fatal(err)
		}
		ls[r] = l
	}
	// a: 50 tokens, 12 per step: steps at 0, 12, 24, 36 (36+12+1 = 49 <= 50); b: 40: 0, 12, 24.
	wantStarts := []int32{0, 12, 24, 36, 1000, 1012, 1024, 0}
	for step, ws := range wantStarts {
		for r, l := range ls {
			in, tgt, err := l.Next()
			if err != nil {
				t.Fatal(err)
			}
			for i := range in {
				if want := ws + int32(r*B*T+i); in[i] != want || tgt[i] != want+1 {
					t.Fatalf("step %d rank %d [%d]: in %d tgt %d, want %d %d", step, r, i, in[i], tgt[i], want, want+1)
				}
			}
		}
	}
	if p := ls[0].Position(); p.Epoch != 1 || p.Shard != 0 || p.Offset != 12 {
		t.Fatalf("position after a pass and one step: %+v", p)
	}
	if n, _ := ls[0].StepsPerEpoch(); n != 7 {
		t.Fatalf("StepsPerEpoch = %d, want 7", n)
	}
	// Resume rank 1 from rank 0's position in a fresh loader.
	fresh, _ := NewLoader([]string{a, b}, B, T, 1, W)
	if err := fresh.Seek(Position{Shard: 1, Offset: 12}); err != nil {
		t.Fatal(err)
	}
	in, _, _ := fresh.Next()
	if in[0] != 1012+B*T {
		t.Fatalf("after Seek: first input %d, want %d", in[0], 1012+B*T)
	}
	if err := fresh.Seek(Position{Shard: 1, Offset: 39}); err == nil {
		t.Fatal("Seek past the end: no error")
	}
	if err := fresh.Seek(Position{Shard: 2}); err == nil {
		t.Fatal("Seek to shard 2 of 2: no error")
	}
}
