package jitsilu

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/jit"
)

var cuobjdump = flag.String("cuobjdump", "", "rootpath of the toolkit's cuobjdump (set under Bazel)")

// runfile resolves a rootpath given on the command line by Bazel.
func runfile(t *testing.T, rootpath string) string {
	t.Helper()
	if rootpath == "" {
		t.Skip("run under Bazel: bazel test //ops/examples/jitsilu:jitsilu_test")
	}
	return filepath.Join(os.Getenv("TEST_SRCDIR"), os.Getenv("TEST_WORKSPACE"), rootpath)
}

// inputs returns a contiguous [rows, cols] tensor with values in [-8, 8), its transpose and a
// narrowed (offset, non-contiguous) view.
func inputs(t *testing.T, dtype ops.DType, rows, cols int) []*ops.Tensor {
	t.Helper()
	x, err := ops.Rand(uint64(rows*cols+3), dtype, rows, cols)
	if err == nil {
		x, err = ops.AddScalar(x, -0.5)
	}
	if err == nil {
		x, err = ops.Axpby(16, x, 0, x)
	}
	if err != nil {
		t.Fatal(err)
	}
	out := []*ops.Tensor{x}
	xt, err := x.Transpose(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	out = append(out, xt)
	if cols > 1 {
		xn, err := x.Narrow(1, 1, cols-1)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, xn)
	}
	return out
}

// near reports whether got is want rounded to dtype: exact in float64, one rounding in float32.
func near(got, want float64, dtype ops.DType) bool {
	if dtype == ops.Float64 {
		return got == want
	}
	return math.Abs(got-want) <= 0x1p-24*math.Abs(want)
}

func TestSiLUCPU(t *testing.T) {
	for _, dtype := range []ops.DType{ops.Float32, ops.Float64} {
		for _, shape := range [][2]int{{0, 3}, {3, 0}, {1, 1}, {7, 5}, {1023, 3}} {
			for _, x := range inputs(t, dtype, shape[0], shape[1]) {
				y, err := SiLU(x)
				if err != nil {
					t.Fatalf("SiLU %v %v: %v", dtype, x.Shape(), err)
				}
				g, err := ops.Rand(9, dtype, x.Shape()...)
				if err != nil {
					t.Fatal(err)
				}
				gx, err := SiLUBackward(g, x)
				if err != nil {
					t.Fatalf("SiLUBackward %v %v: %v", dtype, x.Shape(), err)
				}
				xs, _ := x.Float64s()
				ys, _ := y.Float64s()
				gs, _ := g.Float64s()
				gxs, _ := gx.Float64s()
				if len(ys) != len(xs) || len(gxs) != len(xs) {
					t.Fatalf("%v: %d inputs, %d outputs, %d gradients", x.Shape(), len(xs), len(ys), len(gxs))
				}
				for i, v := range xs {
					if want := Silu(v); !near(ys[i], want, dtype) {
						t.Fatalf("%v %v strides %v: y[%d] = %v, want %v", dtype, x.Shape(), x.Strides(), i, ys[i], want)
					}
					if want := gs[i] * SiluGrad(v); !near(gxs[i], want, dtype) {
						t.Fatalf("%v %v strides %v: gx[%d] = %v, want %v", dtype, x.Shape(), x.Strides(), i, gxs[i], want)
					}
				}
			}
		}
	}
}

// The reference itself, at points with known values and at the extremes (no NaN).
func TestReference(t *testing.T) {
	for _, c := range []struct{ x, y, dy float64 }{
		{0, 0, 0.5}, {1000, 1000, 1}, {-1000, 0, 0}, {math.Log(3), math.Log(3) * 0.75, 0.75 * (1 + math.Log(3)*0.25)},
	} {
		if y, dy := Silu(c.x), SiluGrad(c.x); math.Abs(y-c.y) > 1e-15 || math.Abs(dy-c.dy) > 1e-15 {
			t.Errorf("Silu(%v) = %v, SiluGrad = %v; want %v, %v", c.x, y, dy, c.y, c.dy)
		}
	}
}

func TestSiLUGradCheck(t *testing.T) {
	for _, x := range inputs(t, ops.Float64, 3, 4) {
		x = x.Detach()
		if err := x.SetRequiresGrad(true); err != nil {
			t.Fatal(err)
		}
		f := func(in []*ops.Tensor) (*ops.Tensor, error) { return SiLU(in[0]) }
		if err := ops.GradCheck(f, []*ops.Tensor{x}, ops.GradCheckOptions{}); err != nil {
			t.Errorf("GradCheck %v: %v", x.Strides(), err)
		}
	}
}

func TestSiLUBadInput(t *testing.T) {
	if _, err := SiLU(nil); !errors.Is(err, ops.ErrNil) {
		t.Errorf("SiLU(nil) = %v, want ErrNil", err)
	}
	x, _ := ops.Zeros(ops.Float32, 3)
	y, _ := ops.Zeros(ops.Float32, 4)
	z, _ := ops.Zeros(ops.Float64, 3)
	if _, err := SiLUBackward(x, y); !errors.Is(err, ops.ErrShape) || !strings.Contains(err.Error(), "gradOut has shape [3]") {
		t.Errorf("SiLUBackward of shapes [3], [4] = %v, want ErrShape naming gradOut", err)
	}
	if _, err := SiLUBackward(x, z); !errors.Is(err, ops.ErrDType) {
		t.Errorf("SiLUBackward of float32 and float64 = %v, want ErrDType", err)
	}
	if _, err := SiLUBackward(nil, x); !errors.Is(err, ops.ErrNil) {
		t.Errorf("SiLUBackward(nil, x) = %v, want ErrNil", err)
	}
	x.Free()
	if _, err := SiLU(x); !errors.Is(err, ops.ErrFreed) {
		t.Errorf("SiLU(freed) = %v, want ErrFreed", err)
	}
}

// NVRTC needs no GPU: the op's source compiles to CUBINs and PTX here, checked with cuobjdump.
func TestSourceCompiles(t *testing.T) {
	bin := runfile(t, *cuobjdump)
	dir := t.TempDir()
	for _, arch := range []jit.Arch{"sm_80", "sm_90"} {
		im, err := jit.Compile(Program(), arch, jit.CUBIN)
		if err != nil {
			t.Fatalf("%s: %v", arch, err)
		}
		path := filepath.Join(dir, string(arch)+".cubin")
		if err := os.WriteFile(path, im.Code, 0o644); err != nil {
			t.Fatal(err)
		}
		// -elf needs no nvdisasm (-sass runs whichever is on PATH).
		out, err := exec.Command(bin, "-elf", path).CombinedOutput()
		if err != nil {
			t.Fatalf("cuobjdump: %v\n%s", err, out)
		}
		elf := string(out)
		if want := " sm=" + strings.TrimPrefix(string(arch), "sm_") + ","; !strings.Contains(elf, want) {
			t.Errorf("cuobjdump -elf of the %s CUBIN does not say %q:\n%.600s", arch, want, elf)
		}
		for _, d := range []ops.DType{ops.Float32, ops.Float64} {
			for _, k := range []string{ForwardKernel(d), BackwardKernel(d)} {
				if low := im.Kernel(k); low == k || !strings.Contains(elf, ".text."+low) {
					t.Errorf("%s: kernel %s (lowered %q) is not in the CUBIN", arch, k, low)
				}
			}
		}
	}
	ptx, err := jit.Compile(Program(), "sm_90", jit.PTX)
	if err != nil {
		t.Fatal(err)
	}
	if text := string(ptx.Code); !strings.Contains(text, ".target sm_90") || !strings.Contains(text, ".entry "+ptx.Kernel(ForwardKernel(ops.Float32))) {
		t.Errorf("PTX for sm_90 lacks its target or the forward kernel")
	}
}

func ExampleSiLU() {
	x, err := ops.FromFloat64([]float64{-1, 0, 2}, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	y, err := SiLU(x)
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := y.Float64s()
	fmt.Printf("%.4f\n", v)
	// Output: [-0.2689 0.0000 1.7616]
}
