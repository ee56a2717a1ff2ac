// Package fuse compiles chains of elementwise operations into one kernel:
// the Go analogue of cupy.fuse and of what torch.compile's Inductor does for
// pointwise code. A chain reads its inputs once and writes its outputs once,
// so a 20-op chain costs one launch and one pass over memory instead of 20.
//
//	x := fuse.In(0)
//	gelu := fuse.MustNew("gelu", []fuse.Expr{
//		x.MulScalar(0.5).Mul(fuse.Const(1).Add(fuse.Erf(x.MulScalar(1 / math.Sqrt2)))),
//	}, fuse.Options{})
//	...
//	y, err := gelu.Call1(ctx, []*ops.Tensor{t}) // one kernel on ctx's stream
//
// # The shape of the API: a chain built once, called like an op
//
// A chain is an explicit value: Exprs (In, Const, Arg and the operations)
// combined into outputs and checked by New, then called with Call(ctx,
// inputs, scalars...) as often as needed, like a regexp.Regexp or a
// text/template.Template compiled once and executed many times. The other
// shape, deferred tensors (every ops call records instead of computing, and
// a later read or Flush compiles what was recorded), was rejected:
//
//   - Go has no operator overloading and no tracing: the traced function
//     of cupy.fuse or jax.jit would have to be written against a special
//     tensor type anyway, so nothing reads more naturally than Exprs, and
//     the chain is visible in the code as what it is.
//   - Errors belong at the call that causes them. With deferred tensors an
//     ops.AddScalar on mismatched dtypes would fail at some later read, far
//     from its cause; here New reports structural errors and Call reports
//     dtype and shape errors naming the chain and the step ("step 3
//     (Add): operands have dtypes float32 and float64").
//   - Contexts decide streams (the calling convention of package ops: a
//     context first on everything that queues work). A deferred op has no
//     context of its own when it finally runs, so which stream, which
//     deadline and which graph capture it belongs to would be decided by
//     whoever flushes. A Call queues exactly one kernel on its context's
//     stream, at the call, so it composes with cuda.WithStream, with
//     cuda.Capture (the call becomes one graph node) and with autograd
//     (each output is one node, whose backward is one fused kernel too).
//   - Nothing changes for code that does not fuse: ops keep their eager
//     semantics, and a chain is an ordinary function from tensors to
//     tensors that can be wrapped in an op-like function.
//
// # Semantics
//
// Inputs are In(0), In(1), ...: tensors on one device, of any dtypes and
// layouts (strided, transposed, narrowed, offset views are read in place),
// broadcast to one shape by NumPy's rules. Scalars are Const values (fixed
// when the chain is built) and Arg values (passed to each Call); both are
// kernel arguments, never part of the generated code, so changing them
// never recompiles. Each step has a dtype: an input's, a Cast's, or its
// operands' (which must agree: fuse does not promote, like package ops; a
// scalar takes the dtype of what it meets). It computes in float32 for
// float32, float16 and bfloat16 and in float64 for float64: 16-bit inputs
// are widened exactly, intermediate values stay in float32, and each output
// is rounded once when stored (to nearest even). A Cast rounds to its
// dtype's precision (float64 to a 16-bit type through float32). Comparisons
// give 1 or 0; Where picks by a nonzero condition; Min and Max follow C's
// fmin and fmax on NaN. DeviceFunc brings functions written in CUDA C++,
// with a Go form for the CPU and an optional derivative for autograd.
//
// Outputs are new contiguous tensors of the broadcast shape, each of its
// Expr's dtype (a scalar-only output takes input 0's dtype).
//
// # Devices, caching and exactness
//
// A chain is called through driver.ChainOp (package ops/fuse/driver, the
// contract between this package and the device packages, as
// database/sql/driver is database/sql's), an ops.MultiOp: the dispatcher that
// runs every op checks and pins the inputs, allocates the outputs on the
// context's stream, orders them after the inputs' work, runs the kernel
// registered for the device and records the call for autograd. A fused
// chain is a kind of kernel, not a kind of op. On the CPU the kernel
// computes the chain in Go with the same roundings (the reference in tests
// and the fallback without a GPU). Importing ops/fuse/fusecuda registers
// the CUDA kernel: the generated source (see SpecFor and driver.Spec's
// Source) is compiled with NVRTC through ops/cuda/jit's disk cache and
// loaded with ops/cuda/cumodule. Kernels are cached by spec key
// (driver.Spec.Key): the chain's structure, the inputs' dtypes, the layout class (Vector:
// contiguous and aligned, each thread moves 16-byte vectors; Linear:
// contiguous; Strided: per-input strides over the merged dimensions) and
// the index width, plus the device's architecture; in memory per process
// and on disk across processes.
//
// By default the GPU compiler may contract a*b+c into one fused
// multiply-add, which can change the last bit of a float32 or float64
// result against the CPU path. Options.Exact turns contraction off; then
// +, -, *, /, Sqrt, comparisons, Min, Max, Where, Abs, Neg and Casts give
// the CPU path's bits exactly. Exp, Log, Tanh, Sigmoid, Erf, Pow, Sin and
// Cos are CUDA's math functions (within their documented ulp bounds) on the
// GPU and Go's on the CPU, in both modes.
//
// # Autograd
//
// When an input requires grad, a call records one autograd node over all
// its outputs (ops.MultiOp.Call). Backward runs it once, after everything
// that used any output, with the gradients of the outputs that received
// one; its backward is one chain derived by reverse-mode differentiation of
// the steps, seeded with those gradients, and compiled and cached (per
// dtypes and set of outputs with gradients) like any chain: one kernel
// reads the inputs and those gradients, recomputes what the derivatives
// need and writes every input's gradient. The gradient of a broadcast input
// is then summed over its broadcast dimensions (a MatMul by a vector of
// ones). GradSourceFor returns a backward kernel's source.
package fuse
