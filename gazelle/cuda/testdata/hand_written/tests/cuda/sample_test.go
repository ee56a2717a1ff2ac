package sample

import (
	"errors"
	"testing"
)

func TestScale(t *testing.T) {
	n, err := DeviceCount()
	if err != nil {
		var cerr *Error
		if !errors.As(err, &cerr) || !cerr.NoDevice() {
			t.Fatalf("DeviceCount: %v (want success or a no-device error)", err)
		}
		if n != 0 {
			t.Fatalf("DeviceCount = %d with error %v, want 0", n, err)
		}
		t.Logf("no CUDA device (%v): verified the no-device path, skipped the GPU part", err)
		return
	}
	t.Logf("%d CUDA device(s)", n)
	x := make([]float32, 1<<20+3)
	for i := range x {
		x[i] = float32(i%1000) - 500
	}
	want := make([]float32, len(x))
	for i, v := range x {
		want[i] = 3*v + Offset
	}
	if err := Scale(x, 3); err != nil {
		t.Fatalf("Scale: %v", err)
	}
	for i := range x {
		if x[i] != want[i] {
			t.Fatalf("x[%d] = %v, want %v", i, x[i], want[i])
		}
	}
	if err := Scale(nil, 3); err != nil {
		t.Fatalf("Scale(empty): %v", err)
	}
}
