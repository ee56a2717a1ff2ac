package rdc

import (
	"errors"
	"math"
	"testing"
)

func TestDiamond(t *testing.T) {
	n, err := DeviceCount()
	var cerr *Error
	if errors.As(err, &cerr) && cerr.NoDevice() {
		t.Skipf("no CUDA device (%v): the binary linked, the GPU part is skipped", err)
	}
	if err != nil || n == 0 {
		t.Fatalf("DeviceCount: %d, %v", n, err)
	}
	for _, size := range []int{0, 1, 255, 257, 4099} {
		x := make([]float32, size)
		for i := range x {
			x[i] = float32(i)*0.375 - 11
		}
		for _, f := range []float32{1, -0.5, 3} {
			if err := SetFactor(f); err != nil {
				t.Fatal(err)
			}
			got, err := Diamond(x)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != size {
				t.Fatalf("len %d, want %d", len(got), size)
			}
			for i := range x {
				want := 4*float64(f)*float64(x[i]) + 1
				if math.Abs(float64(got[i])-want) > 1e-5*(1+math.Abs(want)) {
					t.Fatalf("size %d, factor %g: got[%d] = %g, want %g", size, f, i, got[i], want)
				}
			}
		}
	}
}
