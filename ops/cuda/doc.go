// Package cuda is the CUDA backend of package ops. Import it for its side
// effects, like a database/sql driver:
//
//	import _ "github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
//
// Its init function registers an ops.Backend for ops.DeviceCUDA (device
// memory, host copies, synchronization) and CUDA kernels, for float32 and
// float64, for every built-in op: AddScalar, Scale, Axpby, Norm,
// NormBackward, Polynomial, PolynomialBackward, RowSoftmax,
// RowSoftmaxBackward, MatMul, Contiguous and NarrowBackward. Tensors move to
// a GPU with To(ops.CUDA(n)) and ops on them run there:
//
//	x, _ := ops.Rand(1, ops.Float32, 1<<20)
//	xd, err := x.To(ops.CUDA(0)) // fails with ErrNoDevice without a GPU
//	y, err := ops.Polynomial(xd, 1, 2, 3, 4)
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
// # Execution model
//
// Everything goes through a small C API (csrc/opscuda.h) on the CUDA
// runtime; the driver API is never used. All work is queued on the legacy
// default stream of the tensor's device, so work issued from different
// goroutines, and so from different OS threads, runs in the order it was
// issued. Every C call first makes the tensor's device current on the
// calling thread (cudaSetDevice) and issues its work in the same cgo call,
// so a goroutine moving between threads, or several devices in one process,
// cannot mix devices up. All functions, the backend and the kernels are
// therefore safe for concurrent use by many goroutines.
//
// Kernels are asynchronous: an op returns once its kernel is queued.
// Copies to the host (Float64s, To(ops.CPU), Item) and ops.Synchronize wait
// for the queued work. Memory comes from the device's stream-ordered pool
// (cudaMallocAsync/cudaFreeAsync on the legacy stream), which keeps freed
// memory for reuse, and a Free (explicit or by the garbage collector's
// cleanup) takes effect after the work already queued, so it never releases
// memory a queued kernel still reads or writes. Devices without memory pools
// fall back to cudaMalloc/cudaFree. In front of the pool, freed blocks of up
// to 64 MiB (at most 1 GiB per device) stay in a cache in Go, by size
// class, and are handed to the next allocation of their class without a
// CUDA call, like PyTorch's caching allocator; this is safe because the next
// owner's work is queued after the work on the block. EmptyCache returns
// them to the pool, and an allocation that runs out of memory does so
// before it gives up.
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
// once, like the CPU kernels. They are grid-stride loops over a grid sized
// from the SM count, with 16-byte loads and stores (float4, double2) when
// every operand is contiguous and 16-byte aligned; otherwise every input is
// indexed through its strides (dimensions that are contiguous with each
// other are merged first; at most MaxDims may remain), so non-contiguous
// inputs need no copy. Contiguous is that strided gather. Polynomial and
// PolynomialBackward are one fused kernel each (Horner's scheme). Norm is
// one kernel (float64 accumulators, warp shuffles and shared memory per
// block; the last block to finish adds the per-block sums in a fixed
// order), accurate for 2^28 float32 elements and reproducible on a given
// device. RowSoftmax and RowSoftmaxBackward are max-subtracted and add the
// row in float64; a warp (rows of up to 1024 float32 or 256 float64
// elements) or a block holds each row in registers, read with 16-byte loads
// when the rows are unit-stride and aligned; such rows over 32 KiB are
// copied into shared memory asynchronously, and rows too long for either
// take a block per row that caches the row in shared memory. Rows are
// reached through their strides, so transposed and narrowed views need no
// copy. MatMul is a tiled
// shared-memory kernel with register blocking (128x128 tiles with 8x8 per
// thread for float32, 64x64 with 4x4 for float64, double-buffered) that
// reads A and B through their strides along whichever is unit-stride and
// accumulates in the tensors' dtype.
//
// On an H100, at 2^28 float32 elements, AddScalar and Polynomial run at
// 94-95% and Axpby and PolynomialBackward at 97% of the device-to-device
// copy bandwidth (Polynomial is 8.5x faster than PyTorch's eager
// a*x**3 + b*x**2 + c*x + d), Norm at the copy bandwidth (as fast as
// PyTorch), RowSoftmax 1.02x to 1.28x torch.softmax, and MatMul at about 29
// TFLOP/s in float32 (cuBLAS without TF32: 51); ops/bench compares with
// PyTorch, bench_test.go has Go benchmarks.
package cuda
