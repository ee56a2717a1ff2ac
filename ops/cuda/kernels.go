package cuda

// #include "ops/cuda/csrc/opscuda.h"
import "C"

import (
	"fmt"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

func init() {
	ops.RegisterBackend(backend{})
	for name, k := range map[string]ops.Kernel{
		"AddScalar":          addScalar,
		"Scale":              scale,
		"Axpby":              axpby,
		"Polynomial":         polynomial,
		"PolynomialBackward": polynomialBackward,
		"Contiguous":         contiguous,
		"Norm":               norm,
		"NormBackward":       normBackward,
		"NarrowBackward":     narrowBackward,
		"RowSoftmax":         rowSoftmax,
		"RowSoftmaxBackward": rowSoftmaxBackward,
		"MatMul":             matMul,
	} {
		ops.RegisterKernel(name, ops.DeviceCUDA, k)
	}
}

// dtypeCode maps an ops.DType to the C API's OPSCUDA_FLOAT32/64.
func dtypeCode(d ops.DType) C.int {
	if d == ops.Float32 {
		return C.OPSCUDA_FLOAT32
	}
	return C.OPSCUDA_FLOAT64
}

// outputOf returns the storage of a kernel's output tensor.
func outputOf(op string, out *ops.Tensor) (*Storage, error) {
	s, err := storageOf(out.Storage())
	if err != nil {
		return nil, fmt.Errorf("cuda: %s: output: %w", op, err)
	}
	return s, nil
}

// inputOf returns the device address of t's first element, checking that
// t lives on device dev.
func inputOf(op, arg string, t *ops.Tensor, dev int) (C.opscuda_dptr, error) {
	s, err := storageOf(t.Storage())
	if err != nil {
		return 0, fmt.Errorf("cuda: %s: %s: %w", op, arg, err)
	}
	if s.device != dev {
		return 0, fmt.Errorf("cuda: %s: %s is on cuda:%d, the output on cuda:%d: %w", op, arg, s.device, dev, ops.ErrDevice)
	}
	return s.at(t.Offset()), nil
}

// elementwise describes the problem "out[i] = f(in...)" over the logical
// shape of in[0] for the C API, with the inputs' dimensions merged.
func elementwise(op string, out *ops.Tensor, names []string, in ...*ops.Tensor) (*C.opscuda_ew, error) {
	o, err := outputOf(op, out)
	if err != nil {
		return nil, err
	}
	e := new(C.opscuda_ew)
	e.device = C.int(o.device)
	e.dtype = dtypeCode(out.DType())
	e.nin = C.int(len(in))
	e.n = C.longlong(in[0].Numel())
	e.out = o.at(0)
	strides := make([][]int, len(in))
	for k, t := range in {
		if e.in[k], err = inputOf(op, names[k], t, o.device); err != nil {
			return nil, err
		}
		strides[k] = t.Strides()
	}
	sizes, merged := coalesce(in[0].Shape(), strides)
	if len(sizes) == 0 {
		sizes = []int{1}
		for k := range merged {
			merged[k] = []int{1}
		}
	}
	if len(sizes) > MaxDims {
		return nil, fmt.Errorf("cuda: %s: %s has %d dimensions that cannot be merged (shape %v, strides %v); the CUDA kernels index at most %d: %w",
			op, names[0], len(sizes), in[0].Shape(), in[0].Strides(), MaxDims, ops.ErrShape)
	}
	e.ndim = C.int(len(sizes))
	for d, s := range sizes {
		e.sizes[d] = C.longlong(s)
		for k := range in {
			e.strides[k][d] = C.longlong(merged[k][d])
		}
	}
	return e, nil
}

func addScalar(out *ops.Tensor, in []*ops.Tensor, sc []float64) error {
	e, err := elementwise("AddScalar", out, []string{"x"}, in[0])
	if err != nil {
		return err
	}
	return check("AddScalar kernel", C.opscuda_add_scalar(e, C.double(sc[0])))
}

func scale(out *ops.Tensor, in []*ops.Tensor, sc []float64) error {
	e, err := elementwise("Scale", out, []string{"x"}, in[0])
	if err != nil {
		return err
	}
	return check("Scale kernel", C.opscuda_scale(e, C.double(sc[0])))
}

func axpby(out *ops.Tensor, in []*ops.Tensor, sc []float64) error {
	e, err := elementwise("Axpby", out, []string{"x", "y"}, in[0], in[1])
	if err != nil {
		return err
	}
	return check("Axpby kernel", C.opscuda_axpby(e, C.double(sc[0]), C.double(sc[1])))
}

func polynomial(out *ops.Tensor, in []*ops.Tensor, sc []float64) error {
	e, err := elementwise("Polynomial", out, []string{"x"}, in[0])
	if err != nil {
		return err
	}
	return check("Polynomial kernel", C.opscuda_polynomial(e, C.double(sc[0]), C.double(sc[1]), C.double(sc[2]), C.double(sc[3])))
}

func polynomialBackward(out *ops.Tensor, in []*ops.Tensor, sc []float64) error {
	e, err := elementwise("PolynomialBackward", out, []string{"gradOut", "x"}, in[0], in[1])
	if err != nil {
		return err
	}
	return check("PolynomialBackward kernel", C.opscuda_polynomial_backward(e, C.double(sc[0]), C.double(sc[1]), C.double(sc[2])))
}

func contiguous(out *ops.Tensor, in []*ops.Tensor, _ []float64) error {
	e, err := elementwise("Contiguous", out, []string{"x"}, in[0])
	if err != nil {
		return err
	}
	return check("Contiguous kernel", C.opscuda_copy(e))
}

func norm(out *ops.Tensor, in []*ops.Tensor, _ []float64) error {
	e, err := elementwise("Norm", out, []string{"x"}, in[0])
	if err != nil {
		return err
	}
	return check("Norm kernel", C.opscuda_norm(e))
}

// normBackward: in = gradOut (0-d), x, norm (0-d).
func normBackward(out *ops.Tensor, in []*ops.Tensor, _ []float64) error {
	const op = "NormBackward"
	e, err := elementwise(op, out, []string{"x"}, in[1])
	if err != nil {
		return err
	}
	dev := int(e.device)
	g, err := inputOf(op, "gradOut", in[0], dev)
	if err != nil {
		return err
	}
	n, err := inputOf(op, "norm", in[2], dev)
	if err != nil {
		return err
	}
	return check("NormBackward kernel", C.opscuda_norm_backward(e, g, n))
}

// narrowBackward: in = gradOut; sc = dim, start, size. The dimensions
// before dim and those after it are merged separately; dim stays.
func narrowBackward(out *ops.Tensor, in []*ops.Tensor, sc []float64) error {
	const op = "NarrowBackward"
	o, err := outputOf(op, out)
	if err != nil {
		return err
	}
	if out.Numel() == 0 {
		return nil
	}
	g := in[0]
	gp, err := inputOf(op, "gradOut", g, o.device)
	if err != nil {
		return err
	}
	dim, start := int(sc[0]), int(sc[1])
	shape, gst := out.Shape(), g.Strides()
	pre, preSt := coalesce(shape[:dim], [][]int{gst[:dim]})
	post, postSt := coalesce(shape[dim+1:], [][]int{gst[dim+1:]})
	sizes := append(append(append([]int{}, pre...), shape[dim]), post...)
	strides := append(append(append([]int{}, preSt[0]...), gst[dim]), postSt[0]...)
	if len(sizes) > MaxDims {
		return fmt.Errorf("cuda: %s: gradOut has %d dimensions that cannot be merged (shape %v, strides %v); the CUDA kernels index at most %d: %w",
			op, len(sizes), g.Shape(), gst, MaxDims, ops.ErrShape)
	}
	var cs, cg [MaxDims]C.longlong
	for d := range sizes {
		cs[d], cg[d] = C.longlong(sizes[d]), C.longlong(strides[d])
	}
	return check("NarrowBackward kernel", C.opscuda_narrow_backward(C.int(o.device), dtypeCode(out.DType()), o.at(0), gp,
		C.int(len(sizes)), &cs[0], &cg[0], C.int(len(pre)), C.longlong(start), C.longlong(g.Shape()[dim])))
}

func rowSoftmax(out *ops.Tensor, in []*ops.Tensor, _ []float64) error {
	const op = "RowSoftmax"
	o, err := outputOf(op, out)
	if err != nil {
		return err
	}
	x := in[0]
	xp, err := inputOf(op, "x", x, o.device)
	if err != nil {
		return err
	}
	sh, st := x.Shape(), x.Strides()
	return check("RowSoftmax kernel", C.opscuda_row_softmax(C.int(o.device), dtypeCode(out.DType()), o.at(0), xp,
		C.longlong(sh[0]), C.longlong(sh[1]), C.longlong(st[0]), C.longlong(st[1])))
}

// rowSoftmaxBackward: in = gradOut, y.
func rowSoftmaxBackward(out *ops.Tensor, in []*ops.Tensor, _ []float64) error {
	const op = "RowSoftmaxBackward"
	o, err := outputOf(op, out)
	if err != nil {
		return err
	}
	g, y := in[0], in[1]
	gp, err := inputOf(op, "gradOut", g, o.device)
	if err != nil {
		return err
	}
	yp, err := inputOf(op, "y", y, o.device)
	if err != nil {
		return err
	}
	sh, gs, ys := g.Shape(), g.Strides(), y.Strides()
	return check("RowSoftmaxBackward kernel", C.opscuda_row_softmax_backward(C.int(o.device), dtypeCode(out.DType()), o.at(0),
		gp, C.longlong(gs[0]), C.longlong(gs[1]), yp, C.longlong(ys[0]), C.longlong(ys[1]), C.longlong(sh[0]), C.longlong(sh[1])))
}

func matMul(out *ops.Tensor, in []*ops.Tensor, _ []float64) error {
	const op = "MatMul"
	o, err := outputOf(op, out)
	if err != nil {
		return err
	}
	a, b := in[0], in[1]
	ap, err := inputOf(op, "a", a, o.device)
	if err != nil {
		return err
	}
	bp, err := inputOf(op, "b", b, o.device)
	if err != nil {
		return err
	}
	as, bs := a.Strides(), b.Strides()
	M, K, N := a.Shape()[0], a.Shape()[1], b.Shape()[1]
	return check("MatMul kernel", C.opscuda_matmul(C.int(o.device), dtypeCode(out.DType()), o.at(0),
		ap, C.longlong(as[0]), C.longlong(as[1]), bp, C.longlong(bs[0]), C.longlong(bs[1]),
		C.longlong(M), C.longlong(N), C.longlong(K)))
}
