package fusecuda_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/jit"
	"github.com/rules-cuda-go/rules_cuda_go/ops/fuse/fusetest"
)

// TestCompileMultiBackward compiles, with NVRTC for sm_90 (no GPU needed),
// the backward kernel of each multi-output case for every set of outputs
// its losses use, in the three dtypes GradCheck-style tests run.
func TestCompileMultiBackward(t *testing.T) {
	if _, err := jit.Version(); err != nil {
		t.Skipf("NVRTC is not available: %v", err)
	}
	n := 0
	for _, c := range fusetest.MultiCases() {
		for _, use := range c.Uses {
			with := slices.Compact(slices.Sorted(slices.Values(use)))
			for _, d := range []ops.DType{ops.Float32, ops.Float64, ops.Float16} {
				dts := make([]ops.DType, c.Chain.NumInputs())
				for j := range dts {
					dts[j] = d
				}
				src, err := c.Chain.GradSourceFor(with, 100, dts...)
				if err != nil {
					t.Fatalf("%s %v outputs %v: %v", c.Name, d, with, err)
				}
				if src == "" {
					t.Fatalf("%s %v outputs %v: no backward kernel", c.Name, d, with)
				}
				entry := src[strings.Index(src, "fuse_"):]
				entry = entry[:strings.Index(entry, "(")]
				if _, err := jit.Compile(jit.Program{Name: entry + ".cu", Source: src}, jit.ArchOf(9, 0), jit.CUBIN); err != nil {
					t.Errorf("%s %v outputs %v: %v\n%s", c.Name, d, with, err, src)
				}
				n++
			}
		}
	}
	t.Logf("compiled %d backward kernels", n)
}

// TestGradMultiOutputGPU: GradCheck through chains of several outputs on
// the GPU (float64, and float32 against float64), and the GPU's gradients
// equal the CPU's within the value tolerances (float64 1e-12 and float32
// 1e-5, relative to each input's largest gradient).
func TestGradMultiOutputGPU(t *testing.T) {
	needGPU(t)
	if err := fusetest.CheckGradMultiOutput(ctx, ops.CUDA(0)); err != nil {
		t.Error(err)
	}
	for _, c := range fusetest.MultiCases() {
		for _, use := range c.Uses {
			for _, d := range []ops.DType{ops.Float64, ops.Float32} {
				t.Run(fmt.Sprint(c.Name, use, d), func(t *testing.T) {
					want, err := fusetest.MultiGrads(ctx, c, use, d, ops.CPU)
					if err != nil {
						t.Fatal(err)
					}
					got, err := fusetest.MultiGrads(ctx, c, use, d, ops.CUDA(0))
					if err != nil {
						t.Fatal(err)
					}
					if err := fusetest.CompareGrads(got, want, fusetest.Tolerance(d)); err != nil {
						t.Error(err)
					}
				})
			}
		}
	}
}
