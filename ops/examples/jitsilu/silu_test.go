package jitsilu

import (
	"context"
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

// The op's checks on every dtype, layout and device are gpu_test's (ops/optest); here, what needs
// no CUDA kernel: the reference, the shape rule's message, and the source's compilation.

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

func TestSiLUBackwardShapes(t *testing.T) {
	x, _ := ops.Zeros(ops.Float32, 3)
	y, _ := ops.Zeros(ops.Float32, 4)
	if _, err := SiLUBackward(context.Background(), x, y); !errors.Is(err, ops.ErrShape) || !strings.Contains(err.Error(), "gradOut has shape [3]") {
		t.Errorf("SiLUBackward of shapes [3], [4] = %v, want ErrShape naming gradOut", err)
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
	ctx := context.Background()
	x, err := ops.FromFloat64([]float64{-1, 0, 2}, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	y, err := SiLU(ctx, x)
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := y.Float64s()
	fmt.Printf("%.4f\n", v)
	// Output: [-0.2689 0.0000 1.7616]
}
