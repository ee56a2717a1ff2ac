package libs

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// randMatrix returns rows*cols floats in [-1, 1) from a fixed seed.
func randMatrix(seed uint64, rows, cols int) []float32 {
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	out := make([]float32, rows*cols)
	for i := range out {
		out[i] = 2*r.Float32() - 1
	}
	return out
}

func widen(x []float32) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v)
	}
	return out
}

// reference returns the row-major product a*b computed by ops.MatMul on the CPU in float64 (exact
// up to float64 rounding for these sizes), and for each element the sum of |a_il|*|b_lj| over l,
// the scale of the rounding error of any fp32 evaluation order.
func reference(t *testing.T, m, n, k int, a, b []float32) (want, scale []float64) {
	ctx := context.Background()
	t.Helper()
	at, err := ops.FromFloat64(widen(a), m, k)
	if err != nil {
		t.Fatal(err)
	}
	bt, err := ops.FromFloat64(widen(b), k, n)
	if err != nil {
		t.Fatal(err)
	}
	ct, err := ops.MatMul(ctx, at, bt)
	if err != nil {
		t.Fatalf("ops.MatMul: %v", err)
	}
	if want, err = ct.Float64s(); err != nil {
		t.Fatal(err)
	}
	scale = make([]float64, m*n)
	for i := 0; i < m; i++ {
		for l := 0; l < k; l++ {
			ail := math.Abs(float64(a[i*k+l]))
			for j := 0; j < n; j++ {
				scale[i*n+j] += ail * math.Abs(float64(b[l*n+j]))
			}
		}
	}
	return want, scale
}

// gemmTol is the relative tolerance for an fp32 GEMM with k <= 256, relative to sum_l |a_il b_lj|.
// A dot product of length k accumulated in fp32, in any order, is within k*u of that sum with
// u = 2^-24 (unit roundoff), plus u for storing the inputs: 257 * 6e-8 = 1.5e-5 at k = 256, so
// 1e-4 leaves a factor of 6 over the worst case (and cuBLAS's blocked sums stay far below it). An
// element-wise bound relative to |c_ij| alone would fail where the sum cancels to near 0. It also
// assumes plain fp32 FMA: TF32 tensor cores (10-bit mantissa inputs, ~5e-4 per input) would
// exceed it, so libs_sgemm sets CUBLAS_DEFAULT_MATH.
const gemmTol = 1e-4

func checkGemm(t *testing.T, what string, m, n, k int, got []float32, want, scale []float64) {
	t.Helper()
	worst := 0.0
	for i := range want {
		d := math.Abs(float64(got[i]) - want[i])
		if d > gemmTol*scale[i] || math.IsNaN(d) {
			t.Fatalf("%s %dx%dx%d: c[%d][%d] = %v, want %v (|diff| %.3g > %g * %.3g)", what, m, n, k, i/n, i%n, got[i], want[i], d, gemmTol, scale[i])
		}
		if scale[i] > 0 {
			worst = math.Max(worst, d/scale[i])
		}
	}
	t.Logf("%s %dx%dx%d: max |diff|/sum|a||b| = %.3g (tolerance %g)", what, m, n, k, worst, gemmTol)
}

// The sizes, m x n x k: odd ones, a single element, and k = 256 (the largest the tolerance covers).
var gemmSizes = [][3]int{{1, 1, 1}, {17, 33, 9}, {128, 64, 256}}

func TestSgemm(t *testing.T) {
	ctx := context.Background()
	type testCase struct {
		m, n, k     int
		a, b        []float32
		want, scale []float64
	}
	var cases []testCase
	for i, s := range gemmSizes {
		m, n, k := s[0], s[1], s[2]
		a, b := randMatrix(uint64(2*i+1), m, k), randMatrix(uint64(2*i+2), k, n)
		want, scale := reference(t, m, n, k, a, b)
		cases = append(cases, testCase{m, n, k, a, b, want, scale})

		// The comparison itself, on the CPU: ops.MatMul in fp32 must pass the same tolerance.
		at, _ := ops.FromFloat32(a, m, k)
		bt, _ := ops.FromFloat32(b, k, n)
		ct, err := ops.MatMul(ctx, at, bt)
		if err != nil {
			t.Fatalf("ops.MatMul: %v", err)
		}
		got, _ := ct.Float32s()
		checkGemm(t, "ops.MatMul fp32 (CPU)", m, n, k, got, want, scale)
	}

	if _, err := Sgemm(2, 2, 2, make([]float32, 3), make([]float32, 4)); err == nil {
		t.Fatal("Sgemm with len(a) = 3 for 2x2x2: no error")
	}

	for _, c := range cases {
		got, err := Sgemm(c.m, c.n, c.k, c.a, c.b)
		var lerr *Error
		if errors.As(err, &lerr) && lerr.NoDevice() {
			t.Skipf("no CUDA device (%v): verified the no-device path, skipped the cuBLAS GPU part", err)
		}
		if err != nil {
			t.Fatalf("Sgemm %dx%dx%d: %v", c.m, c.n, c.k, err)
		}
		checkGemm(t, "cublasSgemm", c.m, c.n, c.k, got, c.want, c.scale)
	}
}

func TestCurandHost(t *testing.T) {
	const n, seed = 100000, 20261122
	x, err := UniformHost(seed, n)
	if err != nil {
		t.Fatalf("UniformHost: %v", err)
	}
	sum := 0.0
	for i, v := range x {
		if !(v > 0 && v <= 1) {
			t.Fatalf("x[%d] = %v, outside (0, 1]", i, v)
		}
		sum += float64(v)
	}
	// The mean of 1e5 uniforms has standard deviation sqrt(1/12)/sqrt(1e5) = 9.1e-4: 0.01 is 11 sigma.
	mean := sum / n
	if math.Abs(mean-0.5) > 0.01 {
		t.Fatalf("mean = %v, want 0.5 ± 0.01", mean)
	}
	t.Logf("cuRAND host Philox4x32-10, %d floats: mean %.5f, x[0..3] = %v", n, mean, x[:4])

	again, err := UniformHost(seed, n)
	if err != nil {
		t.Fatalf("UniformHost (second run): %v", err)
	}
	for i := range x {
		if x[i] != again[i] {
			t.Fatalf("same seed, different numbers: x[%d] = %v, then %v", i, x[i], again[i])
		}
	}
	other, err := UniformHost(seed+1, n)
	if err != nil {
		t.Fatalf("UniformHost (other seed): %v", err)
	}
	same := 0
	for i := range x {
		if x[i] == other[i] {
			same++
		}
	}
	if same > n/100 {
		t.Fatalf("seeds %d and %d agree on %d of %d numbers", seed, seed+1, same, n)
	}
}

// The kernel NVRTC compiles: a template, instantiated through the name expression scale<float>.
const scaleSrc = `template <typename T>
__global__ void scale(T* x, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}
`

// The same with an error on line 3.
const brokenSrc = `template <typename T>
__global__ void scale(T* x, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x + undeclared_offset;
  if (i < n) x[i] *= a;
}
`

func TestNVRTC(t *testing.T) {
	major, minor, err := NVRTCVersion()
	if err != nil {
		t.Fatalf("NVRTCVersion: %v", err)
	}
	t.Logf("NVRTC %d.%d", major, minor)

	ptx, err := Compile("scale.cu", scaleSrc, "scale<float>", false, "--gpu-architecture=compute_90")
	if err != nil {
		t.Fatalf("Compile to PTX: %v\n%s", err, logOf(err))
	}
	// The Itanium mangling of void scale<float>(float*, float, int).
	const mangled = "_Z5scaleIfEvPT_S0_i"
	if ptx.Lowered != mangled {
		t.Errorf("lowered name of scale<float> = %q, want %q", ptx.Lowered, mangled)
	}
	text := string(ptx.Code)
	for _, want := range []string{".entry " + ptx.Lowered, ".target sm_90"} {
		if ptx.Lowered == "" || !strings.Contains(text, want) {
			t.Errorf("PTX lacks %q:\n%s", want, text)
		}
	}
	t.Logf("PTX for compute_90: %d bytes, entry %s", len(ptx.Code), ptx.Lowered)

	cubin, err := Compile("scale.cu", scaleSrc, "scale<float>", true, "-arch=sm_90")
	if err != nil {
		t.Fatalf("Compile to CUBIN: %v\n%s", err, logOf(err))
	}
	if !bytes.HasPrefix(cubin.Code, []byte("\x7fELF")) {
		t.Fatalf("CUBIN (%d bytes) does not start with the ELF magic: % x", len(cubin.Code), cubin.Code[:min(16, len(cubin.Code))])
	}
	// e_machine (offset 18, little-endian) is EM_CUDA = 190 in a CUDA ELF.
	if len(cubin.Code) < 20 || binary.LittleEndian.Uint16(cubin.Code[18:]) != 190 {
		t.Errorf("CUBIN's ELF header does not say EM_CUDA (190)")
	}
	if !bytes.Contains(cubin.Code, []byte(cubin.Lowered)) || cubin.Lowered != mangled {
		t.Errorf("CUBIN lacks the kernel %q (lowered %q)", mangled, cubin.Lowered)
	}
	t.Logf("CUBIN for sm_90: %d bytes", len(cubin.Code))

	_, err = Compile("broken.cu", brokenSrc, "scale<float>", false, "--gpu-architecture=compute_90")
	var lerr *Error
	if !errors.As(err, &lerr) || !lerr.CompileError() {
		t.Fatalf("Compile of broken source: error %v, want an NVRTC compile error", err)
	}
	// NVRTC reports locations as "<program name>(<line>): error: ...".
	for _, want := range []string{"broken.cu(3)", "error", "undeclared_offset"} {
		if !strings.Contains(lerr.Log, want) {
			t.Errorf("compile log lacks %q:\n%s", want, lerr.Log)
		}
	}
	t.Logf("broken source: %v; log: %s", err, strings.TrimSpace(lerr.Log))
}

func logOf(err error) string {
	var lerr *Error
	if errors.As(err, &lerr) {
		return lerr.Log
	}
	return ""
}
