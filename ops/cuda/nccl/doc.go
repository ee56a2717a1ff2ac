// Package nccl runs NCCL collectives on ops tensors: the Go counterpart of
// torch.distributed with the NCCL backend, for several GPUs in one process
// (one goroutine per GPU) or in several processes, with no MPI.
//
//	comms, err := nccl.NewComms(ctx, []int{0, 1}) // ranks 0 and 1 on cuda:0 and cuda:1
//	// in rank r's goroutine, with its gradients g on cuda:r:
//	err = comms[r].AllReduce(ctx, g, nccl.Avg)
//
// Across processes, one rank makes a UniqueID and the others receive it:
// Rendezvous does that over TCP (rank 0 listens, like torch's MASTER_ADDR
// and MASTER_PORT), WriteIDFile/ReadIDFile through a file, IDFromEnv from
// an environment variable set by a launcher; then every rank calls
// NewComm(ctx, device, id, rank, size).
//
// # Operations
//
// AllReduce (Sum, Prod, Max, Min, Avg), Broadcast and Reduce work in place
// on one tensor, like torch.distributed; AllGather and ReduceScatter take
// an output and an input whose first dimensions differ by the number of
// ranks; Send and Recv move a tensor between two ranks. A Group issues
// several operations at once (ncclGroupStart/ncclGroupEnd): Send/Recv
// exchanges, fused collectives, or all the ranks of an in-process
// communicator from one goroutine. Every dtype of ops (float32, float64,
// float16, bfloat16) works. Tensors must be contiguous and on the rank's
// GPU; a wrong device, dtype mix or shape is an error naming the argument,
// before anything is issued. NCCL cannot check that ranks pass matching
// shapes; mismatched counts hang or corrupt, which a context deadline
// turns into an error (see below).
//
// Every operation takes a context first, like every call in ops that
// queues device work: it runs on the stream the context chooses for the
// rank's GPU (cuda.WithStream), ordered after the work that produced its
// tensors and before their streams' later work, as ops do; it returns once
// queued. Operations can be captured into CUDA graphs (cuda.Capture).
//
// # Failures
//
// A communicator is created as a non-blocking NCCL communicator (so that a
// context can end the wait for ranks that never join) and split into a
// blocking one, which every later call uses: NCCL launches its calls on the
// calling thread, as torch.distributed's do. Every collective's
// connections are made while it is created (NCCL_RUNTIME_CONNECT=0 unless
// the environment sets it), so the calls only queue work. When a call's
// context can end, the communicator's watchdog goroutine follows the work
// the call queued (an event recorded after it); when the context is done
// before that work has completed (a rank that died, hangs or never makes
// the matching call) the communicator is aborted (ncclCommAbort): its
// kernels stop, every later call returns an error wrapping ErrAborted, and
// Comm.Synchronize(ctx), the bounded wait for a rank's queued work, returns
// one wrapping ctx.Err() too. The error is returned at once; NCCL's abort,
// which can take a second when a peer has died, finishes in the
// background. So a context must not be cancelled before the work of its
// calls has completed: wait (Synchronize) first. NCCL's asynchronous errors
// abort the communicator the same way and are returned by the next call,
// Err or Synchronize. A plain wait (Float64s, ops.Synchronize) has no
// bound. What no context bounds: the first Send or Recv between two ranks,
// which connects them on the calling thread.
//
// # Gradient buckets
//
// Reducer all-reduces a model's gradients in buckets while backward runs,
// as PyTorch's DistributedDataParallel does: see NewReducer.
//
// # No NCCL, no GPU
//
// libnccl.so.2 is loaded with dlopen when first needed, never linked: a
// program importing this package starts and runs its CPU work where NCCL
// or the GPU is missing, and the first call returns an error wrapping
// ErrNoNCCL that lists where it looked. Order: $RULES_CUDA_GO_NCCL (a file,
// only there when set); the dynamic linker's search for libnccl.so.2
// (LD_LIBRARY_PATH, run path, ld.so.cache); $CUDA_HOME/lib64,
// $CUDA_PATH/lib64, /usr/local/cuda/lib64. The nvidia-nccl-cu13 wheel (what
// @cuda//:nccl holds, and PyTorch's site-packages/nvidia/nccl/lib) works.
// The declarations come from the selected toolkit's nccl.h
// (@cuda//:nccl_headers); the library must have the same major version.
// Info reports the version and file loaded.
package nccl
