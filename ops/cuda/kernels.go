package cuda

// #include "ops/cuda/csrc/opscuda.h"
import "C"

import (
	"context"
	"fmt"
	"sync"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/internal/dims"
)

// kernels are the CUDA kernels of the built-in ops, by op name: the only
// place this package names them. Each gets the name it is registered under
// (for its errors); argument names come from the op's schema (argName).
var kernels = map[string]kernel{
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
	"AsType":             asType,
}

// kernel is an ops.Kernel that also gets its op's name. The kernels run on
// their output's stream, the one the op's context chose, and ignore the
// context otherwise.
type kernel func(op string, out *ops.Tensor, in []*ops.Tensor, args ops.Args) error

func init() {
	ops.RegisterBackend(backend{})
	// The way any op gets a CUDA kernel: Op.RegisterKernel.
	for name, k := range kernels {
		ops.LookupOp(name).RegisterKernel(ops.DeviceCUDA, func(_ context.Context, out *ops.Tensor, in []*ops.Tensor, args ops.Args) error {
			return k(name, out, in, args)
		})
	}
}

// argName returns the name of op's i-th tensor argument in its schema.
func argName(op string, i int) string {
	if o := ops.LookupOp(op); o != nil {
		k := 0
		for _, a := range o.Args() {
			if a.Kind != ops.KindTensor {
				continue
			}
			if k == i {
				return a.Name
			}
			k++
		}
	}
	return fmt.Sprintf("input %d", i)
}

// launched turns the code of a kernel launch into an error naming the op.
func launched(op string, code C.int) error {
	if code == 0 {
		return nil
	}
	return check(op+" kernel", code)
}

// outputOf returns the storage of a kernel's output tensor.
func outputOf(op string, out *ops.Tensor) (*storage, error) {
	s, err := storageOf(out.Storage())
	if err != nil {
		return nil, fmt.Errorf("cuda: %s: output: %w", op, err)
	}
	return s, nil
}

// inputOf returns the device address of the first element of in[i],
// checking that it lives on device dev.
func inputOf(op string, in []*ops.Tensor, i int, dev int) (C.opscuda_dptr, error) {
	s, err := storageOf(in[i].Storage())
	if err != nil {
		return 0, fmt.Errorf("cuda: %s: %s: %w", op, argName(op, i), err)
	}
	if s.device != dev {
		return 0, fmt.Errorf("cuda: %s: %s is on cuda:%d, the output on cuda:%d: %w", op, argName(op, i), s.device, dev, ops.ErrDevice)
	}
	return s.at(in[i].Offset()), nil
}

// ewPool recycles the C problem descriptions of elementwise (240 bytes,
// one per launch otherwise): the C functions do not keep them.
var ewPool = sync.Pool{New: func() any { return new(C.opscuda_ew) }}

// elementwise describes the problem "out[i] = f(in[first:first+nin]...)"
// over the logical shape of in[first] for the C API, with the inputs'
// dimensions merged, and returns the output's stream. The caller gives the
// description back with ewPool.Put once the C call returned.
func elementwise(op string, out *ops.Tensor, all []*ops.Tensor, first, nin int) (*C.opscuda_ew, C.opscuda_stream, error) {
	o, err := outputOf(op, out)
	if err != nil {
		return nil, 0, err
	}
	in := all[first : first+nin]
	e := ewPool.Get().(*C.opscuda_ew)
	*e = C.opscuda_ew{}
	e.device = C.int(o.device)
	e.dtype = dtypeCode(out.DType())
	e.nin = C.int(len(in))
	e.n = C.longlong(in[0].Numel())
	e.out = o.at(0)
	contiguous := true
	for k, t := range in {
		if e.in[k], err = inputOf(op, all, first+k, o.device); err != nil {
			ewPool.Put(e)
			return nil, 0, err
		}
		contiguous = contiguous && t.IsContiguous()
	}
	if contiguous { // the common case, without merging dimensions
		e.ndim, e.sizes[0] = 1, e.n
		for k := range in {
			e.strides[k][0] = 1
		}
		return e, o.queue(), nil
	}
	strides := make([][]int, len(in))
	for k, t := range in {
		strides[k] = t.Strides()
	}
	sizes, merged := dims.AtLeast1(in[0].Shape(), strides...)
	if len(sizes) > MaxDims {
		ewPool.Put(e)
		return nil, 0, fmt.Errorf("cuda: %s: %s has %d dimensions that cannot be merged (shape %v, strides %v); the CUDA kernels index at most %d: %w",
			op, argName(op, first), len(sizes), in[0].Shape(), in[0].Strides(), MaxDims, ops.ErrShape)
	}
	e.ndim = C.int(len(sizes))
	for d, s := range sizes {
		e.sizes[d] = C.longlong(s)
		for k := range in {
			e.strides[k][d] = C.longlong(merged[k][d])
		}
	}
	return e, o.queue(), nil
}

func addScalar(op string, out *ops.Tensor, in []*ops.Tensor, args ops.Args) error {
	e, st, err := elementwise(op, out, in, 0, 1)
	if err != nil {
		return err
	}
	defer ewPool.Put(e)
	return launched(op, C.opscuda_add_scalar(st, e, C.double(args.Floats[0])))
}

func scale(op string, out *ops.Tensor, in []*ops.Tensor, args ops.Args) error {
	e, st, err := elementwise(op, out, in, 0, 1)
	if err != nil {
		return err
	}
	defer ewPool.Put(e)
	return launched(op, C.opscuda_scale(st, e, C.double(args.Floats[0])))
}

func axpby(op string, out *ops.Tensor, in []*ops.Tensor, args ops.Args) error {
	e, st, err := elementwise(op, out, in, 0, 2)
	if err != nil {
		return err
	}
	defer ewPool.Put(e)
	return launched(op, C.opscuda_axpby(st, e, C.double(args.Floats[0]), C.double(args.Floats[1])))
}

func polynomial(op string, out *ops.Tensor, in []*ops.Tensor, args ops.Args) error {
	e, st, err := elementwise(op, out, in, 0, 1)
	if err != nil {
		return err
	}
	defer ewPool.Put(e)
	return launched(op, C.opscuda_polynomial(st, e, C.double(args.Floats[0]), C.double(args.Floats[1]), C.double(args.Floats[2]), C.double(args.Floats[3])))
}

// polynomialBackward: in = gradOut, x.
func polynomialBackward(op string, out *ops.Tensor, in []*ops.Tensor, args ops.Args) error {
	e, st, err := elementwise(op, out, in, 0, 2)
	if err != nil {
		return err
	}
	defer ewPool.Put(e)
	return launched(op, C.opscuda_polynomial_backward(st, e, C.double(args.Floats[0]), C.double(args.Floats[1]), C.double(args.Floats[2])))
}

func contiguous(op string, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
	e, st, err := elementwise(op, out, in, 0, 1)
	if err != nil {
		return err
	}
	defer ewPool.Put(e)
	return launched(op, C.opscuda_copy(st, e))
}

func norm(op string, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
	e, st, err := elementwise(op, out, in, 0, 1)
	if err != nil {
		return err
	}
	defer ewPool.Put(e)
	return launched(op, C.opscuda_norm(st, e))
}

// normBackward: in = gradOut (0-d), x, norm (0-d).
func normBackward(op string, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
	e, st, err := elementwise(op, out, in, 1, 1)
	if err != nil {
		return err
	}
	defer ewPool.Put(e)
	dev := int(e.device)
	g, err := inputOf(op, in, 0, dev)
	if err != nil {
		return err
	}
	n, err := inputOf(op, in, 2, dev)
	if err != nil {
		return err
	}
	return launched(op, C.opscuda_norm_backward(st, e, g, n))
}

// narrowBackward: in = gradOut; args.Ints = dim, start, size. The dimensions
// before dim and those after it are merged separately; dim stays.
func narrowBackward(op string, out *ops.Tensor, in []*ops.Tensor, args ops.Args) error {
	o, err := outputOf(op, out)
	if err != nil {
		return err
	}
	if out.Numel() == 0 {
		return nil
	}
	g := in[0]
	gp, err := inputOf(op, in, 0, o.device)
	if err != nil {
		return err
	}
	dim, start := args.Ints[0], args.Ints[1]
	shape, gst := out.Shape(), g.Strides()
	pre, preSt := dims.Merge(shape[:dim], gst[:dim])
	post, postSt := dims.Merge(shape[dim+1:], gst[dim+1:])
	sizes := append(append(append([]int{}, pre...), shape[dim]), post...)
	strides := append(append(append([]int{}, preSt[0]...), gst[dim]), postSt[0]...)
	if len(sizes) > MaxDims {
		return fmt.Errorf("cuda: %s: %s has %d dimensions that cannot be merged (shape %v, strides %v); the CUDA kernels index at most %d: %w",
			op, argName(op, 0), len(sizes), g.Shape(), gst, MaxDims, ops.ErrShape)
	}
	var cs, cg [MaxDims]C.longlong
	for d := range sizes {
		cs[d], cg[d] = C.longlong(sizes[d]), C.longlong(strides[d])
	}
	return launched(op, C.opscuda_narrow_backward(o.queue(), C.int(o.device), dtypeCode(out.DType()), o.at(0), gp,
		C.int(len(sizes)), &cs[0], &cg[0], C.int(len(pre)), C.longlong(start), C.longlong(g.Shape()[dim])))
}

func rowSoftmax(op string, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
	o, err := outputOf(op, out)
	if err != nil {
		return err
	}
	xp, err := inputOf(op, in, 0, o.device)
	if err != nil {
		return err
	}
	sh, st := in[0].Shape(), in[0].Strides()
	return launched(op, C.opscuda_row_softmax(o.queue(), C.int(o.device), dtypeCode(out.DType()), o.at(0), xp,
		C.longlong(sh[0]), C.longlong(sh[1]), C.longlong(st[0]), C.longlong(st[1])))
}

// rowSoftmaxBackward: in = gradOut, y.
func rowSoftmaxBackward(op string, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
	o, err := outputOf(op, out)
	if err != nil {
		return err
	}
	gp, err := inputOf(op, in, 0, o.device)
	if err != nil {
		return err
	}
	yp, err := inputOf(op, in, 1, o.device)
	if err != nil {
		return err
	}
	sh, gs, ys := in[0].Shape(), in[0].Strides(), in[1].Strides()
	return launched(op, C.opscuda_row_softmax_backward(o.queue(), C.int(o.device), dtypeCode(out.DType()), o.at(0),
		gp, C.longlong(gs[0]), C.longlong(gs[1]), yp, C.longlong(ys[0]), C.longlong(ys[1]), C.longlong(sh[0]), C.longlong(sh[1])))
}
