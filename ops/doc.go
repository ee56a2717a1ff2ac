// Package ops is the pure-Go core of a small tensor library: strided
// tensors on pluggable devices, ops dispatched by device to registered
// kernels, reverse-mode autograd and a gradient checker. It is the Go
// analogue of PyTorch's C++/CUDA extension workflow; CPU kernels are built
// in and the ops/cuda package registers CUDA kernels and a device backend
// when imported, like a database/sql driver:
//
//	import _ "github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
//
// # Tensors
//
// A Tensor has a shape, strides in elements, an offset, a DType (Float32,
// Float64, Float16, BFloat16 or Int32), a Device (CPU or CUDA(n)) and a
// Storage. Constructors (Zeros, Full, FromFloat32, FromFloat64,
// FromFloat32As, FromFloat16, FromBFloat16, FromInt32, Rand) create
// contiguous CPU tensors; To copies to another device; AsType converts to
// another floating-point dtype; Float64s, Float32s, Float16s and BFloat16s
// read the elements back in any dtype, Int32s those of an int32 tensor.
//
// Int32 tensors hold indices (token ids, targets): they are viewed, made
// contiguous and copied between devices like the others, and read by ops
// registered as a MultiOp (which take inputs of any dtypes); an Op
// computes on the floating-point dtypes only and refuses an int32 tensor
// with ErrDType, and an int32 tensor has no gradient.
//
// The 16-bit dtypes hold the types of package ops/half (CUDA's __half and
// __nv_bfloat16). Every built-in op and backward runs on them: kernels load
// float32, compute in float32 or wider (reductions and softmax accumulate in
// float32 or wider) and round the result to nearest even. Dtypes are never
// promoted: an op's tensor arguments share one dtype, and a mix is an
// ErrDType error that names both and the conversion to write. GradCheck
// needs float64. Transpose, Narrow and Reshape return views that share
// storage (Reshape fails when the strides allow no view: Contiguous first),
// so non-contiguous tensors are normal and every kernel accepts them. Ops
// never modify their inputs: they return new contiguous tensors on the
// inputs' device.
//
// Storage is released by the garbage collector, or explicitly (device
// memory is scarce) by Free/Close, which frees the storage of all views of
// it; using a freed tensor returns ErrFreed. A runtime cleanup frees
// unreachable device storage as a safety net.
//
// # The calling convention: a context first
//
// Every function and method that queues work on a device takes a
// context.Context as its first argument, and there is one form of each:
// the ops (AddScalar(ctx, x, s), MatMul(ctx, a, b), ...), Op.Call, the
// Tensor methods that make a new tensor (To, Contiguous, AsType), Backward
// and BackwardWithGrad, GradCheck and Synchronize, and the functions an op
// author writes (Kernel, BackwardFunc). A typical program writes
//
//	ctx := context.Background()
//	y, err := ops.AddScalar(ctx, x, 1)
//
// and, to run on a CUDA stream of its own, ctx = cuda.WithStream(ctx, s).
//
// Why a context: a GPU is a remote executor, and Go's convention for a call
// that hands work to one (database/sql, net/http, gRPC, every cloud client)
// is a context as the first parameter, named ctx, passed explicitly down
// the call chain. The context carries what chooses where the work runs
// (with ops/cuda, the stream; see its package documentation for why a
// context rather than a per-thread current stream) and what bounds a wait:
// Synchronize and Backward return ctx.Err() when it is done (queuing an op
// never blocks, so ops do not check it). Why no X/XContext pairs: the
// standard library's pairs (Query/QueryContext, Dial/DialContext) exist for
// code written before package context, which this library does not have;
// a pair doubles the API, and the form without a context drops the
// caller's stream silently in the middle of a call chain (a backward
// function calling Scale instead of ScaleContext ran on the default stream,
// which is correct, ordered, and slow). One form makes forgetting the
// context a compile error.
//
// What takes no context, because it queues no work or has nothing to
// choose: views (Transpose, Narrow, Reshape), the constructors (CPU
// tensors), reads to the host (Float64s, Float32s, Float16s, BFloat16s,
// Item: they wait for the work that produced the tensor, on the tensor's
// own stream; bound that wait with Synchronize first), Free and Close,
// HostView, and the autograd bookkeeping (SetRequiresGrad, Grad, Detach).
//
// # Errors
//
// Bad input never panics. Errors are *OpError values whose message names
// the op, the argument and what was expected, e.g.
//
//	ops.Axpby: y has dtype float32, expected float64 (same as x); ops do not promote dtypes: convert one explicitly, e.g. y.AsType(ops.Float64)
//	ops.MatMul: a has shape [3 4], b has shape [5 6]: inner dimensions must match
//
// and which wrap one of the sentinels ErrNil, ErrFreed, ErrDType,
// ErrDevice, ErrShape, ErrArg, ErrNoKernel, ErrNoBackend or ErrGrad for
// errors.Is. (The Register* functions, meant for init, panic on programmer
// errors such as duplicate registrations, like database/sql.Register.)
//
// # Ops and dispatch
//
// An op is registered once with RegisterOp (the analogue of TORCH_LIBRARY):
// a name, a schema of tensor and typed non-tensor arguments (KindFloat,
// KindInt, KindDType: float64, int and DType values, passed in Args), a
// ShapeFunc for its shape rules, an optional output dtype rule (AsType's
// output has the dtype of its argument) and an optional BackwardFunc.
// Kernels are registered on the op per DeviceType with Op.RegisterKernel
// (the analogue of TORCH_LIBRARY_IMPL), from any package: the built-in
// ops' CUDA kernels (ops/cuda) the same way as a user's. Op.Call checks, in this order,
// that the arguments match the schema, that tensor arguments are non-nil
// and not freed, that they share one device and one dtype, then runs the
// ShapeFunc, picks the kernel of the inputs' device type (a missing one is
// an ErrNoKernel error), allocates the output through the device's Backend
// for the call's context, orders the kernel after its inputs
// (Backend.Order) and runs it. Storages stay allocated while a kernel runs
// even if another goroutine calls Free.
//
// Built-in ops (Builtin) and the kernels a device backend should provide (by name;
// tensor arguments, then the others, which is how Op.Call and Kernel
// receive them):
//
//	AddScalar(x; s)                x + s
//	Scale(x; s)                    s * x
//	Axpby(x, y; a, b)              a*x + b*y      (also accumulates gradients)
//	Norm(x)                        L2 norm, 0-d output
//	NormBackward(gradOut, x, norm) gradOut*x/norm, 0 where norm == 0
//	Polynomial(x; a, b, c, d)      a*x³ + b*x² + c*x + d
//	PolynomialBackward(gradOut, x; a, b, c)
//	RowSoftmax(x)                  softmax of each row of a [B, D] tensor
//	RowSoftmaxBackward(gradOut, y) y*(gradOut - rowsum(gradOut*y))
//	MatMul(a, b)                   [M, K] x [K, N]
//	Contiguous(x)                  strided copy (optional: without it copies
//	                               go through host memory)
//	AsType(x; dtype)               conversion, output of dtype (optional:
//	                               without it through host memory)
//	NarrowBackward(gradOut; dim, start, size)
//
// The floats are Args.Floats, dim, start and size Args.Ints, dtype
// Args.DTypes. Each forward op has a function of its name (AsType and
// Contiguous are Tensor methods); the backward ops' functions are in
// package ops/backward, for a BackwardFunc of an op outside this package
// that reuses them.
//
// A device backend implements Backend (allocation for a context, host
// copies, ordering, free, synchronize) and calls RegisterBackend from init;
// its kernels reach their memory through the backend's own Storage type
// (with ops/cuda, cuda.NewLaunch) and use Shape, Strides and Offset to
// index it. Only the backend and the kernels of the ops it wants are
// needed: To, Contiguous, AsType, Float64s and Float32s work with the
// backend alone. A backend that queues work on several streams lets the
// context choose the stream an op's output is allocated for and its
// kernel runs on (with ops/cuda, cuda.WithStream), and orders every kernel
// after the work that produced its inputs (Backend.Order).
//
// # Adding an op
//
// A new op is one RegisterOp call in one file plus a wrapper function. For
// a CPU-only op outside this package:
//
//	var squareOp = ops.RegisterOp(ops.OpDef{
//		Name: "Square",
//		Args: []ops.Arg{{Name: "x", Kind: ops.KindTensor}},
//		Shape: func(in []*ops.Tensor, _ ops.Args) ([]int, error) {
//			return in[0].Shape(), nil // rules that fail return an error naming the argument
//		},
//		Backward: func(ctx context.Context, g *ops.Tensor, in []*ops.Tensor, _ ops.Args, _ *ops.Tensor) ([]*ops.Tensor, error) {
//			// d(x²)/dx = 2x; computed with ops so it runs on any device.
//			gx, err := backward.Polynomial(ctx, g, in[0], 0, 1, 0)
//			return []*ops.Tensor{gx}, err
//		},
//		CPU: ops.ContiguousInputs(squareCPU), // an ops.Kernel; see ExampleRegisterOp
//	})
//
//	// Square returns x*x elementwise.
//	func Square(ctx context.Context, x *ops.Tensor) (*ops.Tensor, error) {
//		return squareOp.Call(ctx, []*ops.Tensor{x}, ops.Args{})
//	}
//
// If Backward refers to the op's own variable (directly or through the
// wrapper), assign the variable in an init function instead to avoid an
// initialization cycle; the ops of this package do that. Rules:
//
//   - The ShapeFunc only sees inputs that passed the generic checks and
//     arguments of the schema's kinds; it returns the output shape or an
//     error naming the argument (an *OpError to choose the sentinel, any
//     other error becomes ErrShape).
//   - A Kernel gets the call's context, a fresh contiguous output (offset
//     0) and inputs with arbitrary strides; it must write every output
//     element and must not modify inputs. CPU kernels read CPUStorage's
//     slices through the strides, or are wrapped in ContiguousInputs and
//     read HostView.
//   - A BackwardFunc returns one gradient per tensor input (or nil) with the
//     input's shape, dtype and device, computed with ops called with its
//     context (it runs without recording, so double backward is not
//     supported).
//   - Other devices add kernels with squareOp.RegisterKernel(ops.DeviceCUDA, k).
//   - Test it with package ops/optest: given its reference in float64, it
//     checks every dtype, layout and device present, bad inputs and
//     GradCheck.
//
// A family of computations with several outputs and inputs of several
// dtypes whose kernels are generated at run time, like the fused chains of
// package ops/fuse, registers one MultiOp, typed by the argument its
// kernels get (a *driver.Launch for fuse's): each call (MultiOp.Call) says
// its outputs, that argument and its backward, and takes the
// same path as an op's call (one dispatcher: checks, pinning, allocation
// on the context's stream, ordering, the device's kernel, autograd); its
// backward, a FuncBackward, gets the gradients of all the outputs at once.
// A fused chain and an NVRTC-compiled kernel are kinds of kernel, not
// kinds of op.
//
// # Autograd
//
// SetRequiresGrad(true) on a leaf makes every op and view whose inputs
// require grad record a graph node on its output. Backward (for a
// one-element output) or BackwardWithGrad walks the graph in reverse
// topological order, summing the gradients of tensors used several times,
// and accumulates into Grad of the leaves; a node with several outputs
// (a MultiOp call) runs once, after everything that used any of them.
// Backward functions are ops, so they run on the tensors' device, each
// with the context of its forward call, so its ops run where the forward
// ran (with ops/cuda, on the forward's stream, like PyTorch's autograd). Detach gives a leaf that
// records nothing, which is how to compute without building a graph. Each
// graph is owned by its tensors, so independent computations may run
// concurrently; concurrent Backward calls that reach the same leaf add
// their gradients under a lock.
//
// # Concurrency
//
// All functions and methods are safe for concurrent use. The registries
// are guarded by RWMutexes (reads after init do not contend) and CPU
// kernels split large inputs into chunks over GOMAXPROCS goroutines (small
// inputs run serially).
package ops
