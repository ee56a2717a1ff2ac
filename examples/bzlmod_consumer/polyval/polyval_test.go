package polyval

import (
	"math"
	"testing"
)

func TestQuadratic(t *testing.T) {
	n, code := DeviceCount()
	// cudaErrorInsufficientDriver (35), cudaErrorNoDevice (100): no usable GPU here.
	if code == 35 || code == 100 {
		t.Skipf("no CUDA device (error %d): linked, GPU part skipped", code)
	}
	if code != 0 || n == 0 {
		t.Fatalf("DeviceCount: %d devices, error %d", n, code)
	}
	for _, size := range []int{0, 1, 300, 4097} {
		x := make([]float32, size)
		for i := range x {
			x[i] = float32(i)/64 - 20
		}
		y, err := Quadratic(x, 0.5, -3, 7)
		if err != nil {
			t.Fatal(err)
		}
		for i, xi := range x {
			want := 0.5*float64(xi)*float64(xi) - 3*float64(xi) + 7
			if math.Abs(float64(y[i])-want) > 1e-5*(1+math.Abs(want)) {
				t.Fatalf("size %d: y[%d] = %g, want %g", size, i, y[i], want)
			}
		}
	}
}
