// Package square is the worked example of adding an op: a CUDA kernel (square.cu) in a
// cu_library, and its registration with ops as "Square", with a CPU kernel (the fallback), a CUDA
// kernel and a backward. See the README's "Adding an op" section.
package square

// #include "ops/examples/square/square.h"
import "C"

import (
	"fmt"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
)

// squareOp is the op's registration: schema, shape rule, backward and CPU kernel. The CUDA kernel
// is added in init, the way a backend package would add kernels for its device.
var squareOp = ops.RegisterOp(ops.OpDef{
	Name: "Square",
	Args: []ops.Arg{{Name: "x", Kind: ops.KindTensor}},
	Shape: func(in []*ops.Tensor, _ []float64) ([]int, error) {
		return in[0].Shape(), nil
	},
	// d(x²)/dx = 2x, computed with ops so it runs on the tensors' device:
	// PolynomialBackward(g, x, a=0, b=1, c=0) = g*(3*0*x² + 2*1*x + 0).
	Backward: func(g *ops.Tensor, in []*ops.Tensor, _ []float64, _ *ops.Tensor) ([]*ops.Tensor, error) {
		gx, err := ops.PolynomialBackward(g, in[0], 0, 1, 0)
		return []*ops.Tensor{gx}, err
	},
	CPU: squareCPU,
})

func init() {
	ops.RegisterKernel("Square", ops.DeviceCUDA, squareCUDA)
}

// Square returns x*x elementwise, on x's device; it records itself for autograd.
func Square(x *ops.Tensor) (*ops.Tensor, error) {
	return squareOp.Call([]*ops.Tensor{x}, nil)
}

// squareCPU is the CPU kernel: out is fresh and contiguous; x may be any view.
func squareCPU(out *ops.Tensor, in []*ops.Tensor, _ []float64) error {
	x, err := in[0].Contiguous()
	if err != nil {
		return err
	}
	xs, ok := x.Storage().(*ops.CPUStorage)
	ys, ok2 := out.Storage().(*ops.CPUStorage)
	if !ok || !ok2 {
		return fmt.Errorf("square: CPU kernel got non-CPU storage")
	}
	off, n := x.Offset(), out.Numel()
	switch out.DType() {
	case ops.Float32:
		src, dst := xs.Float32()[off:off+n], ys.Float32()[:n]
		for i, v := range src {
			dst[i] = v * v
		}
	case ops.Float64:
		src, dst := xs.Float64()[off:off+n], ys.Float64()[:n]
		for i, v := range src {
			dst[i] = v * v
		}
	}
	return nil
}

// squareCUDA is the CUDA kernel: it launches square.cu's kernel on the output's stream with the
// device addresses and the C ABI's dtype code from package cuda.
func squareCUDA(out *ops.Tensor, in []*ops.Tensor, _ []float64) error {
	x, err := in[0].Contiguous()
	if err != nil {
		return err
	}
	s, err := cuda.LaunchStream(out, x) // orders it after x (a copy made here, if in[0] was a view)
	if err != nil {
		return err
	}
	xp, err := cuda.DevicePtr(x)
	if err != nil {
		return err
	}
	yp, err := cuda.DevicePtr(out)
	if err != nil {
		return err
	}
	code := C.square_launch(C.ulonglong(s.Handle()), C.int(out.Device().Index), C.int(cuda.DTypeCode(out.DType())),
		C.ulonglong(xp), C.ulonglong(yp), C.longlong(out.Numel()))
	return cuda.LaunchError("square kernel", int(code))
}
