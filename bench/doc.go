// Package bench measures the ops of package ops against the memory
// bandwidth of the device and against PyTorch, and reports the results as
// JSON, markdown tables and PNG plots.
//
// The command bench/cmd/bench runs the measurements (Run) on the CPU or
// a GPU and compares its JSON with the JSON of bench/torch_bench.py,
// which times the same ops in PyTorch the same way (Compare).
//
// # What is measured
//
// Every op is timed on the device it runs on. A sample is a batch of k
// calls timed by Config.Clock; the time per call is the batch's time
// divided by k, where k is chosen once per op and size so that a batch lasts
// at least Config.MinBatch (3 ms by default). The default clock, HostClock,
// reads the host's clock between two ops.Synchronize calls, which adds the
// first launch and the wake-up (~10 µs, under 1% of a batch); cmd/bench
// times GPU batches with CUDA events, as PyTorch's side does, so both sides
// are timed the same way. After Config.Warmup calls, Config.Repeats samples
// are taken; the result is their median (and minimum). Every call
// allocates its output and frees it explicitly, as PyTorch eager does
// through its caching allocator.
//
// Bandwidth is the bytes an op must move (Bytes: every input read once and
// every output written once) divided by the time per call. Each op's
// bandwidth is also given as a fraction of the bandwidth of a
// device-to-device copy of the same number of elements and dtype, measured
// in the same run ("copy": the ops Contiguous kernel for Go, Tensor.copy_
// for PyTorch).
//
// Per-call latency is measured at Config.LatencyElems (4096) elements in
// two ways, the same in Go and Python: MetricLatencySync is the median over
// Config.LatencyCalls calls of the host time of one call followed by a
// synchronization (a synchronous op, launch and round trip included);
// MetricLatencyBatch is the host time of LatencyCalls calls issued back to
// back and one synchronization, divided by LatencyCalls (the launch
// throughput), median of 5 samples.
//
// # Targets
//
// Compare judges the design's targets on float32 at TargetElems (2^28)
// elements, or at the largest size measured if smaller: AddScalar, Axpby,
// Polynomial, Polynomial+PolynomialBackward and the same through Go's
// autograd at >= 90% of the copy's bandwidth; Polynomial >= 6x PyTorch
// eager, its forward and backward >= 5x PyTorch autograd, Axpby >= 2x, Norm
// and RowSoftmax (every shape) at least as fast as PyTorch; the per-call
// latency at 4096 elements at most half of PyTorch's, judged on the batched
// latency (the design's "per call from Python" figures, e.g. x+s 8.1 µs,
// are PyTorch's batched latency; its call+sync latency is about 5 µs
// more).
//
// Where the Go report has float16 or bfloat16 results (--dtypes
// float32,float16,bfloat16), Compare also judges issue 14's targets in
// each of them at TargetElems (or the largest size measured in that dtype):
// AddScalar, Axpby, Polynomial and Polynomial+PolynomialBackward at >= 90%
// of the copy's bandwidth in the same dtype and at least as fast as
// PyTorch in the same dtype; Norm and RowSoftmax (every shape) at least as
// fast as PyTorch in bfloat16 (bandwidth counts 2 bytes per element). The
// Go-autograd variant of the polynomial, and Norm and RowSoftmax in
// float16, are reported for information.
//
// The Go-autograd variant's speed against PyTorch, the
// call+sync latency (which no op can bring under the device's launch and
// synchronization floor), AddScalar's and the copy's speed against PyTorch
// are reported for information; MatMul is reported against cuBLAS
// (torch.matmul, TF32 off) without a target.
package bench
