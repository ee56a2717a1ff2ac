package cuda

// #include "ops/cuda/csrc/opscuda.h"
import "C"

import (
	"context"
	"fmt"
	"unsafe"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/internal/dims"
)

// The CUDA kernels of the built-in ops register as any op's CUDA kernel
// does (ops/examples/square), on the *ops.Op that package ops declares
// (ops.Builtin), and launch through NewLaunch and Launch.Check; their
// errors take the op's name and arguments from it.
func init() {
	ops.RegisterBackend(backend{})
	b := &ops.Builtin
	b.AddScalar.RegisterKernel(ops.DeviceCUDA, addScalar)
	b.Scale.RegisterKernel(ops.DeviceCUDA, scale)
	b.Axpby.RegisterKernel(ops.DeviceCUDA, axpby)
	b.Polynomial.RegisterKernel(ops.DeviceCUDA, polynomial)
	b.PolynomialBackward.RegisterKernel(ops.DeviceCUDA, polynomialBackward)
	b.Contiguous.RegisterKernel(ops.DeviceCUDA, contiguous)
	b.Norm.RegisterKernel(ops.DeviceCUDA, norm)
	b.NormBackward.RegisterKernel(ops.DeviceCUDA, normBackward)
	b.NarrowBackward.RegisterKernel(ops.DeviceCUDA, narrowBackward)
	b.RowSoftmax.RegisterKernel(ops.DeviceCUDA, rowSoftmax)
	b.RowSoftmaxBackward.RegisterKernel(ops.DeviceCUDA, rowSoftmaxBackward)
	b.MatMul.RegisterKernel(ops.DeviceCUDA, matMul)
	b.AsType.RegisterKernel(ops.DeviceCUDA, asType)
}

// argName returns the name of o's i-th tensor argument in its schema.
func argName(o *ops.Op, i int) string {
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
	return fmt.Sprintf("input %d", i)
}

// ew holds the OPSCUDA_EW parameters (csrc/opscuda.h) of an elementwise
// kernel's launch.
type ew struct {
	st      C.opscuda_stream
	device  C.int
	dtype   C.int
	out     C.opscuda_dptr
	in      *C.opscuda_dptr
	nin     C.int
	n       C.longlong
	ndim    C.int
	sizes   *C.longlong
	strides *C.longlong
}

// elementwise prepares the launch of o's elementwise kernel "out[i] =
// f(in[first:first+nin]...)" over the logical shape of in[first]: the
// kernel's OPSCUDA_EW parameters, with the dimensions of non-contiguous
// inputs merged, from NewLaunch over out and in (in order, so in[k] is
// l.Ptr[1+k]).
func elementwise(ctx context.Context, o *ops.Op, out *ops.Tensor, in []*ops.Tensor, first, nin int) (*Launch, ew, error) {
	ins := in[first : first+nin]
	e := ew{nin: C.int(nin), n: C.longlong(ins[0].Numel()), ndim: 1}
	contig := true
	for _, t := range ins {
		contig = contig && t.IsContiguous()
	}
	if !contig { // else the common case: no layout (sizes, strides NULL)
		strides := make([][]int, nin)
		for k, t := range ins {
			strides[k] = t.Strides()
		}
		sizes, merged := dims.AtLeast1(ins[0].Shape(), strides...)
		if len(sizes) > maxDims {
			return nil, ew{}, fmt.Errorf("cuda: %s: %s has %d dimensions that cannot be merged (shape %v, strides %v); the CUDA kernels index at most %d: %w",
				o.Name(), argName(o, first), len(sizes), ins[0].Shape(), ins[0].Strides(), maxDims, ops.ErrShape)
		}
		layout := make([]C.longlong, len(sizes)*(1+nin))
		for d, s := range sizes {
			layout[d] = C.longlong(s)
			for k := range ins {
				layout[len(sizes)*(1+k)+d] = C.longlong(merged[k][d])
			}
		}
		e.ndim, e.sizes, e.strides = C.int(len(sizes)), &layout[0], &layout[len(sizes)]
	}
	l, err := newOpLaunch(ctx, o, out, in)
	if err != nil {
		return nil, ew{}, err
	}
	e.st, e.device, e.dtype = C.opscuda_stream(l.Stream), C.int(l.Device), C.int(l.DType)
	e.out, e.in = C.opscuda_dptr(l.Ptr[0]), (*C.opscuda_dptr)(unsafe.Pointer(&l.Ptr[1+first]))
	return l, e, nil
}

// checkOp is Launch.Check for the status of o's kernel: its error names
// "<op> kernel" (made only on failure).
func (l *Launch) checkOp(o *ops.Op, code C.int) error {
	if code != 0 {
		return check(o.Name()+" kernel", code)
	}
	return l.publish()
}

// newOpLaunch is NewLaunch(ctx, out, in...) for o's kernel, its errors
// naming o.
func newOpLaunch(ctx context.Context, o *ops.Op, out *ops.Tensor, in []*ops.Tensor) (*Launch, error) {
	var buf [4]*ops.Tensor
	l, err := NewLaunch(ctx, append(append(buf[:0], out), in...)...)
	if err != nil {
		return nil, fmt.Errorf("cuda: %s: %w", o.Name(), err)
	}
	return l, nil
}

func addScalar(ctx context.Context, out *ops.Tensor, in []*ops.Tensor, args ops.Args) error {
	o := ops.Builtin.AddScalar
	l, e, err := elementwise(ctx, o, out, in, 0, 1)
	if err != nil {
		return err
	}
	return l.checkOp(o, C.opscuda_add_scalar(e.st, e.device, e.dtype, e.out, e.in, e.nin, e.n, e.ndim, e.sizes, e.strides,
		C.double(args.Floats[0])))
}

func scale(ctx context.Context, out *ops.Tensor, in []*ops.Tensor, args ops.Args) error {
	o := ops.Builtin.Scale
	l, e, err := elementwise(ctx, o, out, in, 0, 1)
	if err != nil {
		return err
	}
	return l.checkOp(o, C.opscuda_scale(e.st, e.device, e.dtype, e.out, e.in, e.nin, e.n, e.ndim, e.sizes, e.strides,
		C.double(args.Floats[0])))
}

func axpby(ctx context.Context, out *ops.Tensor, in []*ops.Tensor, args ops.Args) error {
	o := ops.Builtin.Axpby
	l, e, err := elementwise(ctx, o, out, in, 0, 2)
	if err != nil {
		return err
	}
	return l.checkOp(o, C.opscuda_axpby(e.st, e.device, e.dtype, e.out, e.in, e.nin, e.n, e.ndim, e.sizes, e.strides,
		C.double(args.Floats[0]), C.double(args.Floats[1])))
}

func polynomial(ctx context.Context, out *ops.Tensor, in []*ops.Tensor, args ops.Args) error {
	o := ops.Builtin.Polynomial
	l, e, err := elementwise(ctx, o, out, in, 0, 1)
	if err != nil {
		return err
	}
	return l.checkOp(o, C.opscuda_polynomial(e.st, e.device, e.dtype, e.out, e.in, e.nin, e.n, e.ndim, e.sizes, e.strides,
		C.double(args.Floats[0]), C.double(args.Floats[1]), C.double(args.Floats[2]), C.double(args.Floats[3])))
}

// polynomialBackward: in = gradOut, x.
func polynomialBackward(ctx context.Context, out *ops.Tensor, in []*ops.Tensor, args ops.Args) error {
	o := ops.Builtin.PolynomialBackward
	l, e, err := elementwise(ctx, o, out, in, 0, 2)
	if err != nil {
		return err
	}
	return l.checkOp(o, C.opscuda_polynomial_backward(e.st, e.device, e.dtype, e.out, e.in, e.nin, e.n, e.ndim, e.sizes, e.strides,
		C.double(args.Floats[0]), C.double(args.Floats[1]), C.double(args.Floats[2])))
}

func contiguous(ctx context.Context, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
	o := ops.Builtin.Contiguous
	l, e, err := elementwise(ctx, o, out, in, 0, 1)
	if err != nil {
		return err
	}
	if e.dtype == C.OPSCUDA_INT32 { // a copy moves 4-byte patterns as they are
		e.dtype = C.OPSCUDA_FLOAT32
	}
	return l.checkOp(o, C.opscuda_copy(e.st, e.device, e.dtype, e.out, e.in, e.nin, e.n, e.ndim, e.sizes, e.strides))
}

func norm(ctx context.Context, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
	o := ops.Builtin.Norm
	l, e, err := elementwise(ctx, o, out, in, 0, 1)
	if err != nil {
		return err
	}
	return l.checkOp(o, C.opscuda_norm(e.st, e.device, e.dtype, e.out, e.in, e.nin, e.n, e.ndim, e.sizes, e.strides))
}

// normBackward: in = gradOut (0-d), x, norm (0-d); elementwise over x.
func normBackward(ctx context.Context, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
	o := ops.Builtin.NormBackward
	l, e, err := elementwise(ctx, o, out, in, 1, 1)
	if err != nil {
		return err
	}
	return l.checkOp(o, C.opscuda_norm_backward(e.st, e.device, e.dtype, e.out, e.in, e.nin, e.n, e.ndim, e.sizes, e.strides,
		C.opscuda_dptr(l.Ptr[1]), C.opscuda_dptr(l.Ptr[3])))
}

// narrowBackward: in = gradOut; args.Ints = dim, start, size. The dimensions
// before dim and those after it are merged separately; dim stays.
func narrowBackward(ctx context.Context, out *ops.Tensor, in []*ops.Tensor, args ops.Args) error {
	o := ops.Builtin.NarrowBackward
	if out.Numel() == 0 {
		return nil
	}
	g := in[0]
	dim, start := args.Ints[0], args.Ints[1]
	shape, gst := out.Shape(), g.Strides()
	pre, preSt := dims.Merge(shape[:dim], gst[:dim])
	post, postSt := dims.Merge(shape[dim+1:], gst[dim+1:])
	sizes := append(append(append([]int{}, pre...), shape[dim]), post...)
	strides := append(append(append([]int{}, preSt[0]...), gst[dim]), postSt[0]...)
	if len(sizes) > maxDims {
		return fmt.Errorf("cuda: %s: %s has %d dimensions that cannot be merged (shape %v, strides %v); the CUDA kernels index at most %d: %w",
			o.Name(), argName(o, 0), len(sizes), g.Shape(), gst, maxDims, ops.ErrShape)
	}
	l, err := newOpLaunch(ctx, o, out, in)
	if err != nil {
		return err
	}
	var cs, cg [maxDims]C.longlong
	for d := range sizes {
		cs[d], cg[d] = C.longlong(sizes[d]), C.longlong(strides[d])
	}
	return l.checkOp(o, C.opscuda_narrow_backward(C.opscuda_stream(l.Stream), C.int(l.Device), C.int(l.DType),
		C.opscuda_dptr(l.Ptr[0]), C.opscuda_dptr(l.Ptr[1]),
		C.int(len(sizes)), &cs[0], &cg[0], C.int(len(pre)), C.longlong(start), C.longlong(g.Shape()[dim])))
}

func rowSoftmax(ctx context.Context, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
	o := ops.Builtin.RowSoftmax
	l, err := newOpLaunch(ctx, o, out, in)
	if err != nil {
		return err
	}
	sh, st := in[0].Shape(), in[0].Strides()
	return l.checkOp(o, C.opscuda_row_softmax(C.opscuda_stream(l.Stream), C.int(l.Device), C.int(l.DType),
		C.opscuda_dptr(l.Ptr[0]), C.opscuda_dptr(l.Ptr[1]),
		C.longlong(sh[0]), C.longlong(sh[1]), C.longlong(st[0]), C.longlong(st[1])))
}

// rowSoftmaxBackward: in = gradOut, y.
func rowSoftmaxBackward(ctx context.Context, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
	o := ops.Builtin.RowSoftmaxBackward
	l, err := newOpLaunch(ctx, o, out, in)
	if err != nil {
		return err
	}
	sh, gs, ys := in[0].Shape(), in[0].Strides(), in[1].Strides()
	return l.checkOp(o, C.opscuda_row_softmax_backward(C.opscuda_stream(l.Stream), C.int(l.Device), C.int(l.DType),
		C.opscuda_dptr(l.Ptr[0]), C.opscuda_dptr(l.Ptr[1]), C.longlong(gs[0]), C.longlong(gs[1]),
		C.opscuda_dptr(l.Ptr[2]), C.longlong(ys[0]), C.longlong(ys[1]), C.longlong(sh[0]), C.longlong(sh[1])))
}
