// Package cuda is the CUDA backend of package ops. Import it for its side
// effects, like a database/sql driver:
//
//	import _ "github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
//
// Its init function registers an ops.Backend for ops.DeviceCUDA (device
// memory, host copies, synchronization) and CUDA kernels, for float32,
// float64, float16 (__half) and bfloat16 (__nv_bfloat16), for every built-in
// op and backward (ops.Builtin; package ops lists them with their
// arguments). The 16-bit kernels load with 16-byte vectors where the data
// is contiguous and aligned, compute in float32 (Norm and the softmax sums
// in double) and round to nearest even when storing; MatMul on them runs
// the float32 tiled kernel, widening as it loads. Tensors move to a GPU with To(ops.CUDA(n)) and ops
// on them run there:
//
//	ctx := context.Background()
//	x, _ := ops.Rand(1, ops.Float32, 1<<20)
//	xd, err := x.To(ctx, ops.CUDA(0)) // fails with ErrNoDevice without a GPU
//	y, err := ops.Polynomial(ctx, xd, 1, 2, 3, 4)
//
// # No GPU
//
// The kernels are compiled by a cu_library and linked with the static CUDA
// runtime, which loads the driver only when first used, so a program that
// imports this package starts, and runs its CPU ops, on machines without a
// GPU or without the NVIDIA driver. The backend is registered anyway; Alloc
// (and so To(ops.CUDA(n))) then returns an error wrapping ErrNoDevice that
// says why (for example "cudaErrorInsufficientDriver"). Available and
// DeviceCount report the situation up front. Built with --config=cpu (no
// CUDA toolkit), the package links a stub that reports no device.
//
// # Execution model: streams
//
// Everything goes through a small C API (csrc/opscuda.h) on the CUDA
// runtime; the driver API is never used. Every C call makes the tensor's
// device current on the calling thread (cudaSetDevice), names the stream
// its work goes to, and issues that work in the same cgo call, so a
// goroutine moving between threads, or several devices in one process,
// cannot mix devices or streams up.
//
// An op runs on the stream its context names for the device (every op
// takes a context first; see package ops), by default the device's legacy
// default stream, which orders the work of all goroutines: any number of
// goroutines may share tensors with no further thought. To overlap work,
// give the ops a context that carries a stream:
//
//	s, _ := cuda.NewStream(0)
//	defer s.Close()
//	ctx = cuda.WithStream(ctx, s)
//	y, _ := ops.AddScalar(ctx, x, 1) // queued on s
//
// Why a context and not PyTorch's "current stream": in PyTorch the current
// stream is per thread (torch.cuda.stream(s) sets it for the calling
// thread, and a new thread starts on the default stream), which is safe
// because a Python thread is a fixed OS thread. Go has no goroutine-local
// state and moves goroutines between OS threads, so a current stream would
// have to be global (one goroutine's choice leaking into every other's) or
// tied to threads (changing under a goroutine at each reschedule). A
// context is Go's way to carry a request's scope down a call chain and
// into the goroutines it starts, explicitly; each request (goroutine) can
// have its own stream, the choice cannot leak, and code that passes
// context.Background() keeps the safe default. A *Stream handle passed to
// every op would work too, but it is one more parameter for a value that a
// context already carries along with deadlines and cancellation, and the
// stream would not reach the ops a library calls on the caller's behalf.
//
// An op's output is allocated on the op's stream and belongs to it; its
// kernel runs there (StreamOf). When an op reads a tensor that
// belongs to another stream, its stream first waits, on the device, for
// the work queued so far on the tensor's stream (an event; the host does
// not block), so results are right whatever streams produced the inputs,
// and the tensor's memory is kept from reuse until the reading stream has
// passed that point (the automatic form of torch's record_stream;
// NewLaunch does it for any kernel's launch); after the launch the
// tensor's stream waits for the op's in turn (Launch.Check). Host
// copies (Float64s, To) run on the tensor's own stream. Streams from
// NewStream are non-blocking: they do not synchronize with the default
// stream except through these waits.
//
// Events (NewEvent: Record, Stream.WaitEvent, Done, Synchronize, Elapsed)
// and Stream.WaitStream order streams explicitly and time the device.
// There is one wait per level: ops.Synchronize(ctx, device) for all the
// work of a device, Stream.Synchronize(ctx) for one stream (the stream a
// context chooses is StreamFrom(ctx, n)), Event.Synchronize(ctx) for one
// point in a stream. They return ctx.Err() when the context's deadline
// passes or it is cancelled (they poll when the context can be done); the
// queued work goes on and keeps its memory until it completes.
//
// The calls that queue work on a stream they name themselves take no
// context: Stream.WaitStream and Stream.WaitEvent (the stream is the
// receiver), Event.Record (its argument) and Graph.Replay (the graph's
// stream); everything that chooses a stream takes the context that does.
//
// Autograd runs each backward op on its forward op's stream, like
// PyTorch: ops record the forward call's context and give it to the op's
// ops.BackwardFunc, so a model run with cuda.WithStream(ctx, s) is
// differentiated on s.
//
// Every kernel launches on the op's stream the same way, the built-ins'
// (registered on their ops with Op.RegisterKernel) and yours:
// NewLaunch(ctx, tensors...) gives a C launcher the stream the context
// chooses (in an op's kernel, the op's), the device, the dtype code and the
// device addresses of the tensors, after ordering that stream after the
// work that produced them, and Launch.Check turns the launcher's
// cudaError_t into an error and orders the tensors' streams after the
// launch. Package ops/cuda/cumodule (and so the JIT kernels of
// ops/cuda/jit/jitload) launches on the context's stream the same way
// (Kernel.Launch(ctx, ...)).
//
// Pinned is page-locked host memory: CopyToDeviceAsync and
// CopyToHostAsync queue copies between it and a tensor on the context's
// stream and return at once, so copies overlap kernels on other streams.
//
// # CUDA graphs
//
// Capture(ctx, s, fn) runs fn with a context on stream s and records the
// ops it queues into a CUDA graph instead of running them; Replay runs
// them again with one launch (like torch.cuda.CUDAGraph), reading the
// same input tensors (their values at replay time) and writing the same
// output tensors. Memory allocated during the capture comes from the
// graph's private pool, which nothing else uses, until Close. Work that
// cannot be captured (a synchronous host copy, a synchronization, reading
// a tensor of the capture on another stream) returns an error wrapping
// ErrNotCapturable and makes Capture fail with it; the capture runs in
// CUDA's relaxed mode so that other goroutines' work is not affected.
//
// # Memory
//
// Memory comes from the device's stream-ordered pool (cudaMallocAsync and
// cudaFreeAsync on the tensor's stream), which keeps freed memory for
// reuse; a Free (explicit or by the garbage collector's cleanup) takes
// effect after the work queued on the tensor's stream, so it never
// releases memory a queued kernel still uses. Devices without memory
// pools fall back to cudaMalloc/cudaFree. In front of the pool, freed
// blocks of up to 64 MiB (at most 1 GiB per device) stay in a cache in Go
// by device, stream and size class, and are handed to the next
// allocation of their class on the same stream without a CUDA call, like
// PyTorch's caching allocator; that is safe because the next owner's work
// is queued after the previous owner's. A block that other streams used
// waits until events recorded on those streams at free time have
// completed; a block is never handed to another stream directly (when a
// stream is closed its work has completed and its blocks go to the
// default stream). EmptyCache returns cached blocks to the pool, and an
// allocation that runs out of memory does so before it gives up.
//
// # Errors
//
// A failing CUDA call becomes an *Error naming what was being done and the
// CUDA error's name and description, e.g.
//
//	cuda: Polynomial kernel: cudaErrorInvalidDeviceFunction (invalid device function)
//
// which ops wraps with the op's name. Errors raised by a kernel while it
// runs (say an illegal address) are reported by the next call that waits
// for the device, as in CUDA itself.
//
// # Kernels
//
// Elementwise kernels compute in float64 (also for float32 data) and round
// once, like the CPU kernels (float32 AddScalar and Scale by a scalar that
// is a float compute in float32, which gives the same bits). Their grid
// covers the problem, one item per thread (blocks of 1024 threads for
// large contiguous problems, 256 otherwise; 32-bit indices whenever they
// fit), with 16-byte loads and stores (float4, double2, 8 halves) when
// every operand is contiguous and 16-byte aligned; otherwise every input is
// indexed through its strides (dimensions that are contiguous with each
// other are merged first; at most 8 may remain), so non-contiguous
// inputs need no copy. Contiguous is that strided gather. AsType converts
// on the device too (AsType's kernel), reading any
// layout, with the CPU's rounding. Polynomial and
// PolynomialBackward are one fused kernel each (Horner's scheme). Norm is
// one kernel (float64 accumulators, warp shuffles and shared memory per
// block; the last block to finish adds the per-block sums in a fixed
// order), accurate for 2^28 float32 elements and reproducible on a given
// device. RowSoftmax and RowSoftmaxBackward are max-subtracted and add the
// row in float64; a warp (rows of up to 1024 float32 or 256 float64
// elements) or a block holds each row in registers, read with 16-byte loads
// when the rows are unit-stride and aligned; such rows of 32 KiB or more are
// copied into shared memory asynchronously, and rows too long for either
// take a block per row that caches the row in shared memory. Rows are
// reached through their strides, so transposed and narrowed views need no
// copy. MatMul calls cuBLASLt (see "cuBLAS" below); the hand-written tiled
// kernel it used before is the example op ops/examples/tiledmatmul.
//
// # cuBLAS
//
// MatMul runs cublasLtMatmul on the op's stream: float32 (IEEE: compute
// type CUBLAS_COMPUTE_32F; SetAllowTF32(true) switches to TF32 tensor
// cores, like torch.backends.cuda.matmul.allow_tf32), float64
// (CUBLAS_COMPUTE_64F), and float16 and bfloat16 (CUBLAS_COMPUTE_32F:
// float32 accumulation, one rounding of the result).
// cuBLAS is column-major, so a row-major C = A·B is computed as
// Cᵀ = Bᵀ·Aᵀ; an input whose rows or columns are unit-stride (contiguous,
// transposed or narrowed views) is passed in place with a transpose flag
// and a leading dimension, any other layout is copied first (on the op's
// stream). cuBLASLt rather than the classic cuBLAS API: its handle holds
// no stream (cublasLtMatmul takes one per call), so one handle per device
// serves every goroutine without cublasSetStream races; and it takes the
// workspace per call, so the workspace (32 MiB, as PyTorch gives cuBLAS on
// Hopper) comes from this package's stream-ordered block cache, or from a
// graph's private pool during a capture: a MatMul allocates nothing
// itself and can be captured and replayed. The algorithm cuBLASLt's
// heuristic picks is cached per problem (shapes, layouts, dtype, TF32,
// pointer alignment), so a repeated MatMul costs one cublasLtMatmul call.
// Empty products need no cuBLAS (K = 0 writes zeros).
//
// The library is loaded with dlopen on the first MatMul, not linked: a
// program that imports this package must start, and run its CPU ops, on
// machines without a GPU or without cuBLAS (CI runs the tests on such
// machines), and a binary linked with libcublasLt.so would not start
// there. Linking and carrying the library in the runfiles would make
// every binary and test depend on a 500 MB shared library that most of
// them never load, and a binary copied without its runfiles would again
// not start. The declarations come from the selected toolkit's headers
// (@cuda//:cublas_headers), and the library must have the same major
// version (libcublasLt.so.13 for CUDA 13; any 13.x works). It is looked for
// in this order: the file named by $RULES_CUDA_GO_CUBLASLT (only there,
// when set); the dynamic linker's search for libcublasLt.so.13
// (LD_LIBRARY_PATH, the executable's run path, ld.so.cache);
// $CUDA_HOME/lib64, $CUDA_PATH/lib64 and /usr/local/cuda/lib64. PyTorch's
// nvidia-cublas wheel (site-packages/nvidia/cu13/lib) works too. When
// none loads, MatMul on a GPU returns an error wrapping ErrNoCuBLAS that
// lists every place tried and why it failed; CuBLASInfo reports the
// version and file loaded. cuBLAS failures become *Error values named
// after their cublasStatus_t (e.g. CUBLAS_STATUS_NOT_SUPPORTED) with
// cuBLAS's description.
//
// On an H100, at 2^28 float32 elements, AddScalar and Polynomial run at
// 94-95% and Axpby and PolynomialBackward at 97% of the device-to-device
// copy bandwidth (Polynomial is 8.5x faster than PyTorch's eager
// a*x**3 + b*x**2 + c*x + d), Norm at the copy bandwidth (as fast as
// PyTorch), RowSoftmax 1.02x to 1.28x torch.softmax; MatMul runs at
// torch.matmul's speed (the same cuBLAS; bench/results/h100-matmul-2026-11-23).
// bench compares with PyTorch, bench_test.go has Go benchmarks.
package cuda
