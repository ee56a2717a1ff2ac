package safetensors

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	p := filepath.Join(t.TempDir(), "m.safetensors")
	in := map[string]Tensor{
		"b.weight": F32([]float32{1, -2, 3.5, 4, 5, 6}, 2, 3),
		"a.bias":   F32([]float32{0.25}, 1),
		"scalar":   F32([]float32{7}),
		"bf":       {DType: "BF16", Shape: []int{2}, Data: []byte{0x80, 0x3f, 0x00, 0xc0}}, // 1, -2
	}
	if err := Write(p, in, map[string]string{"format": "pt"}); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(p)
	if hl := binary.LittleEndian.Uint64(raw); hl%8 != 0 {
		t.Errorf("header length %d is not a multiple of 8", hl)
	}
	out, meta, err := Read(p)
	if err != nil {
		t.Fatal(err)
	}
	if meta["format"] != "pt" || len(out) != len(in) {
		t.Fatalf("meta %v, %d tensors", meta, len(out))
	}
	for n, want := range in {
		got := out[n]
		if got.DType != want.DType || !slices.Equal(got.Shape, want.Shape) || !slices.Equal(got.Data, want.Data) {
			t.Errorf("%s: got %+v, want %+v", n, got, want)
		}
	}
	if v, err := out["bf"].Float32s(); err != nil || !slices.Equal(v, []float32{1, -2}) {
		t.Errorf("BF16 Float32s = %v, %v", v, err)
	}
	if v, err := out["b.weight"].Float32s(); err != nil || v[2] != 3.5 {
		t.Errorf("F32 Float32s = %v, %v", v, err)
	}
	// Truncated: the last tensor's bytes are cut.
	bad := filepath.Join(t.TempDir(), "t.safetensors")
	os.WriteFile(bad, raw[:len(raw)-2], 0o644)
	if _, _, err := Read(bad); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("truncated file: %v", err)
	}
	os.WriteFile(bad, []byte{1, 2}, 0o644)
	if _, _, err := Read(bad); !errors.Is(err, ErrFormat) {
		t.Errorf("2-byte file: %v", err)
	}
	if _, _, err := Read(filepath.Join(t.TempDir(), "none")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	if err := Write(bad, map[string]Tensor{"x": {DType: "F32", Shape: []int{3}, Data: make([]byte, 8)}}, nil); err == nil {
		t.Error("Write with too little data: no error")
	}
}
