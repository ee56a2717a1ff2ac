// Package fusecuda runs the fused chains of package ops/fuse on CUDA
// devices; importing it registers the CUDA kernel of driver.ChainOp
// (package ops/fuse/driver, the contract of fuse's devices), like a
// database/sql driver:
//
//	import _ "github.com/rules-cuda-go/rules_cuda_go/ops/fuse/fusecuda"
//
// A chain's kernel is compiled and loaded once per device with package
// ops/cuda/jit/jitload (NVRTC to a CUBIN for the device's
// architecture through jit's disk cache, so a new process loads it without
// compiling), shared by every spec of one key (the chain's structure,
// dtypes, layout class and index width). The dispatcher (ops.MultiOp.Call)
// has checked the inputs, allocated the outputs on the context's stream and
// ordered them after the inputs' work; each call is then one kernel launch
// on that stream, capturable into a CUDA graph (cuda.Capture). Like
// ops/cuda, this package does not link the driver: a program that imports
// it starts on a machine without a GPU and runs chains on the CPU.
package fusecuda

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	opscuda "github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/cumodule"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/jit"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/jit/jitload"
	"github.com/rules-cuda-go/rules_cuda_go/ops/fuse/driver"
)

func init() { driver.ChainOp.RegisterKernel(ops.DeviceCUDA, run) }

// maxBlocks caps the grid of kernels with 64-bit indices (they loop).
const maxBlocks = 1 << 20

// programs holds one program per spec key, the one cache of the compiled
// kernels: a kernel is compiled and loaded once per device however many
// chains and goroutines ask. Chains of one structure under other names
// share the key, and the kernel of the spec that came first: its entry
// name is the one in the module.
var programs sync.Map // string -> *program

// program is a key's kernel: the module, compiled and loaded lazily per
// device, the name of its entry and the kernels loaded so far.
type program struct {
	lazy    *jitload.Lazy
	entry   string
	kernels sync.Map // device index -> *cumodule.Kernel
}

// Stats counts what this process did to get fused kernels.
type Stats struct {
	Loads    int           // kernels compiled or read from the disk cache, and loaded
	LoadTime time.Duration // time spent in those loads (compile + load)
	Hits     int64         // of them, images read from jit's disk cache
}

var stats struct {
	sync.Mutex
	s Stats
}

// ReadStats returns the counters of this process.
func ReadStats() Stats {
	stats.Lock()
	defer stats.Unlock()
	return stats.s
}

// Cache is the disk cache the kernels are compiled through; nil means
// jit.DefaultCache(). Set it before the first call.
var Cache *jit.Cache

// kernel returns the loaded kernel of spec s on device dev, compiling and
// loading it once however many goroutines ask; a failure is not kept.
func kernel(s *driver.Spec, dev int) (*cumodule.Kernel, error) {
	v, ok := programs.Load(s.Key)
	if !ok {
		v, _ = programs.LoadOrStore(s.Key, &program{
			lazy: &jitload.Lazy{
				Program: jit.Program{Name: s.Entry + ".cu", Source: s.Source, Options: s.Options},
				Options: jitload.Options{Cache: Cache},
			},
			entry: s.Entry,
		})
	}
	p := v.(*program)
	if k, ok := p.kernels.Load(dev); ok {
		return k.(*cumodule.Kernel), nil
	}
	m, err := p.lazy.Module(dev)
	if err != nil {
		var ce *jit.CompileError
		if errors.As(err, &ce) {
			return nil, fmt.Errorf("the generated kernel %s does not compile (check the chain's DeviceFunc sources): %w", s.Entry, err)
		}
		return nil, fmt.Errorf("loading the kernel %s: %w", s.Entry, err)
	}
	k, err := m.Kernel(p.entry)
	if err != nil {
		return nil, err
	}
	if got, loaded := p.kernels.LoadOrStore(dev, k); loaded {
		return got.(*cumodule.Kernel), nil
	}
	// The first to store the device's kernel counts its module's load.
	took, fromDisk := m.Loaded()
	stats.Lock()
	stats.s.Loads++
	stats.s.LoadTime += took
	if fromDisk {
		stats.s.Hits++
	}
	stats.Unlock()
	return k, nil
}

// Prepare compiles and loads the kernel of spec s on CUDA device dev
// ahead of its first call (before a graph capture, or to time it).
func Prepare(s *driver.Spec, dev int) error {
	_, err := kernel(s, dev)
	return err
}

// aligned reports whether every address is a multiple of vec elements of
// its tensor's dtype.
func aligned(ptrs []uintptr, ts []*ops.Tensor, vec int) bool {
	for i, p := range ptrs {
		if p%uintptr(vec*ts[i].DType().Size()) != 0 {
			return false
		}
	}
	return true
}

// run is driver.ChainOp's CUDA kernel: one launch of the call's spec with
// the outputs, the inputs (at their offsets), n, the scalars, and for the
// Strided class the dimensions and strides.
func run(ctx context.Context, outs, in []*ops.Tensor, l *driver.Launch) error {
	if l.N == 0 {
		return nil
	}
	s := l.Spec
	dev := outs[0].Device().Index
	var buf [8]*ops.Tensor
	ts := append(append(buf[:0], outs...), in...)
	ln, err := opscuda.NewLaunch(ctx, ts...)
	if err != nil {
		return err
	}
	if s.Layout == driver.Vector && !aligned(ln.Ptr, ts, s.VecWidth) {
		// The spec assumed storage aligned to a vector; it is not: one
		// element per thread instead.
		s = s.Linear
	}
	k, err := kernel(s, dev)
	if err != nil {
		return err
	}
	// The parameters, in the generated kernel's order, as the 8 bytes each is passed as.
	params := make([]uint64, 0, len(ln.Ptr)+1+len(l.Consts)+len(l.Args)+len(l.Dims)*(1+len(in)))
	for _, p := range ln.Ptr {
		params = append(params, uint64(p))
	}
	params = append(params, uint64(l.N))
	for _, v := range l.Consts {
		params = append(params, math.Float64bits(v))
	}
	for _, v := range l.Args {
		params = append(params, math.Float64bits(v))
	}
	if s.Layout == driver.Strided {
		for _, d := range l.Dims {
			params = append(params, uint64(d))
		}
		for _, st := range l.Strides {
			for _, v := range st {
				params = append(params, uint64(int64(v)))
			}
		}
	}
	items := l.N
	if s.Layout == driver.Vector {
		items = l.N / s.VecWidth
	}
	blocks := max((items+driver.Threads-1)/driver.Threads, 1)
	if s.Index64 {
		blocks = min(blocks, maxBlocks)
	}
	return k.LaunchWith(ln, cumodule.Dim3{X: blocks}, cumodule.Dim3{X: driver.Threads}, 0, params)
}
