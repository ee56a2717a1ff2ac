package cuda

// #include "ops/cuda/csrc/opscuda.h"
import "C"

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// ErrNoCuBLAS is wrapped by the error of a MatMul on a GPU when cuBLASLt
// cannot be loaded; the error says which files were tried (see "cuBLAS"
// in the package doc).
var ErrNoCuBLAS = errors.New("cuda: cuBLASLt not available")

var allowTF32 atomic.Bool

// SetAllowTF32 sets whether float32 MatMuls on CUDA devices may use TF32
// tensor cores (inputs rounded to a 10-bit mantissa, products accumulated
// in float32), and returns the previous setting. The default is false: IEEE
// float32, like PyTorch's torch.backends.cuda.matmul.allow_tf32 (also
// false by default). The setting is process-wide and read when each MatMul
// is queued; with TF32 a 4096x4096 MatMul on an H100 is about 8x faster
// and relative errors grow from about 1e-6 to about 1e-3.
func SetAllowTF32(allow bool) bool { return allowTF32.Swap(allow) }

// AllowTF32 reports the setting of SetAllowTF32.
func AllowTF32() bool { return allowTF32.Load() }

// CuBLASInfo loads cuBLASLt if it is not loaded yet and returns its
// version (cublasLtGetVersion: major*10000 + minor*100 + patch) and the
// file it was loaded from; the error wraps ErrNoCuBLAS when it cannot be
// loaded.
func CuBLASInfo() (version int, path string, err error) {
	var v C.int
	var buf [4096]C.char
	if err := check("loading cuBLASLt", C.opscuda_cublas_info(&v, &buf[0], C.int(len(buf)))); err != nil {
		return 0, "", err
	}
	return int(v), C.GoString(&buf[0]), nil
}

// matmulWorkspace is the device memory cuBLASLt may use per MatMul: 32 MiB,
// what PyTorch gives cuBLAS on Hopper. It comes from the block cache on the
// op's stream (the graph's pool during a capture) and goes back right after
// the call, stream-ordered.
const matmulWorkspace = 32 << 20

// blasLayout says how cuBLAS can read the 2-D tensor t [r, c]: row-major
// (element (i, j) at i*ld + j) or column-major (at i + j*ld); ok is false
// when neither fits its strides (then it is copied). A dimension of size 1
// has no meaningful stride, so either reading may apply.
func blasLayout(t *ops.Tensor) (rowMajor bool, ld int, ok bool) {
	sh, st := t.Shape(), t.Strides()
	r, c := sh[0], sh[1]
	if st[1] == 1 || c == 1 {
		ld = st[0]
		if r == 1 {
			ld = c
		}
		if ld >= max(c, 1) {
			return true, ld, true
		}
	}
	if st[0] == 1 || r == 1 {
		ld = st[1]
		if c == 1 {
			ld = r
		}
		if ld >= max(r, 1) {
			return false, ld, true
		}
	}
	return false, 0, false
}

// matMul is MatMul's CUDA kernel: cuBLASLt on the op's stream, the
// inputs read in place when cuBLAS can take their strides (transposed and
// narrowed views), copied otherwise.
func matMul(ctx context.Context, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) (err error) {
	o := ops.Builtin.MatMul
	op := o.Name()
	switch out.DType() {
	case ops.Float32, ops.Float64, ops.Float16, ops.BFloat16:
	default:
		return fmt.Errorf("cuda: %s: dtype %v is not supported on CUDA devices (float32, float64, float16, bfloat16): %w", op, out.DType(), ops.ErrDType)
	}
	a, b := in[0], in[1]
	M, K, N := a.Shape()[0], a.Shape()[1], b.Shape()[1]
	s := StreamFrom(ctx, out.Device().Index).effective()
	sctx := WithStream(context.Background(), s)
	aRows, lda, aOK := blasLayout(a)
	bRows, ldb, bOK := blasLayout(b)
	// An operand cuBLAS cannot take is copied on s, so the copy needs no
	// ordering; it is freed (stream-ordered) after the call.
	if !aOK {
		c, release, cerr := contiguousCopy(sctx, op, a)
		if cerr != nil {
			return cerr
		}
		defer release()
		a = c
		aRows, lda, _ = blasLayout(a)
	}
	if !bOK {
		c, release, cerr := contiguousCopy(sctx, op, b)
		if cerr != nil {
			return cerr
		}
		defer release()
		b = c
		bRows, ldb, _ = blasLayout(b)
	}
	l, err := newOpLaunch(ctx, o, out, []*ops.Tensor{a, b})
	if err != nil {
		return err
	}
	var ws C.opscuda_dptr
	wsBytes := 0
	if M > 0 && N > 0 && K > 0 {
		w, werr := backend{}.Alloc(sctx, ops.CUDA(l.Device), ops.Float64, matmulWorkspace/8)
		if werr != nil {
			return fmt.Errorf("cuda: %s: workspace: %w", op, werr)
		}
		defer func() {
			if ferr := (backend{}).Free(w); ferr != nil && err == nil {
				err = fmt.Errorf("cuda: %s: freeing the workspace: %w", op, ferr)
			}
		}()
		ws, wsBytes = w.(*storage).at(0), matmulWorkspace
	}
	flags := C.int(0)
	if out.DType() == ops.Float32 && allowTF32.Load() {
		flags |= C.OPSCUDA_MATMUL_TF32
	}
	return l.checkOp(o, C.opscuda_matmul(C.opscuda_stream(l.Stream), C.int(l.Device), C.int(l.DType), flags, C.opscuda_dptr(l.Ptr[0]),
		C.opscuda_dptr(l.Ptr[1]), boolInt(aRows), C.longlong(lda), C.opscuda_dptr(l.Ptr[2]), boolInt(bRows), C.longlong(ldb),
		C.longlong(M), C.longlong(N), C.longlong(K), ws, C.ulonglong(wsBytes)))
}

// contiguousCopy returns t made contiguous with ctx (a copy not recorded
// for autograd, unless t is contiguous) and a function that frees the copy.
func contiguousCopy(ctx context.Context, op string, t *ops.Tensor) (*ops.Tensor, func(), error) {
	c, err := t.Detach().Contiguous(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("cuda: %s: copying an operand cuBLAS cannot read in place: %w", op, err)
	}
	if c.Storage() == t.Storage() {
		return c, func() {}, nil
	}
	return c, func() { c.Free() }, nil
}

func boolInt(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
