// Package fusecuda runs the fused chains of package ops/fuse on CUDA
// devices; importing it registers the runner, like a database/sql driver:
//
//	import _ "github.com/rules-cuda-go/rules_cuda_go/ops/fuse/fusecuda"
//
// A chain's kernel is compiled with NVRTC (package ops/cuda/jit) to a
// CUBIN for the device's architecture through jit's disk cache, so a new
// process loads it without compiling, then loaded with package
// ops/cuda/cumodule and kept in memory, keyed by the spec's key (the
// chain's structure, dtypes, layout class and index width) and the device.
// Each call is one kernel launch on the stream its context chooses,
// ordered after the work that produced its inputs like an op's kernel, and
// capturable into a CUDA graph (cuda.Capture). Like ops/cuda, this
// package does not link the driver: a program that imports it starts on a
// machine without a GPU and runs chains on the CPU.
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
	"github.com/rules-cuda-go/rules_cuda_go/ops/fuse"
)

func init() { fuse.RegisterRunner(ops.DeviceCUDA, run) }

// maxBlocks caps the grid of kernels with 64-bit indices (they loop).
const maxBlocks = 1 << 20

type entryKey struct {
	key    string
	device int
}

// entry is a kernel loaded (or being loaded) on one device.
type entry struct {
	done chan struct{}
	k    *cumodule.Kernel
	err  error
}

var kernels struct {
	sync.Mutex
	m map[entryKey]*entry
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

// kernel returns the loaded kernel of spec s on device dev (kept in
// s.Runner by device), compiling and loading it once however many
// goroutines ask; a failure is not kept.
func kernel(s *fuse.Spec, dev int) (*cumodule.Kernel, error) {
	if k, ok := s.Runner.Load(dev); ok {
		return k.(*cumodule.Kernel), nil
	}
	k, err := loadOnce(s, dev)
	if err == nil {
		s.Runner.Store(dev, k)
	}
	return k, err
}

// loadOnce returns the kernel of s's Key on dev, loading it once.
func loadOnce(s *fuse.Spec, dev int) (*cumodule.Kernel, error) {
	k := entryKey{s.Key, dev}
	kernels.Lock()
	if kernels.m == nil {
		kernels.m = map[entryKey]*entry{}
	}
	if e, ok := kernels.m[k]; ok {
		kernels.Unlock()
		<-e.done
		if e.err == nil {
			return e.k, nil
		}
		return nil, e.err
	}
	e := &entry{done: make(chan struct{})}
	kernels.m[k] = e
	kernels.Unlock()
	e.k, e.err = load(s, dev)
	if e.err != nil {
		kernels.Lock()
		delete(kernels.m, k) // not kept: a later call tries again
		kernels.Unlock()
	}
	close(e.done)
	return e.k, e.err
}

func load(s *fuse.Spec, dev int) (*cumodule.Kernel, error) {
	start := time.Now()
	arch, err := jitload.DeviceArch(dev)
	if err != nil {
		return nil, err
	}
	cache := Cache
	if cache == nil {
		if cache, err = jit.DefaultCache(); err != nil {
			return nil, err
		}
	}
	hits := cache.Stats().Hits
	p := jit.Program{Name: s.Entry + ".cu", Source: s.Source(), Options: s.CompileOptions()}
	im, err := cache.Compile(p, arch, jit.CUBIN)
	if err != nil {
		var ce *jit.CompileError
		if errors.As(err, &ce) {
			return nil, fmt.Errorf("the generated kernel %s does not compile (check the chain's DeviceFunc sources): %w", s.Entry, err)
		}
		return nil, fmt.Errorf("compiling the kernel %s: %w", s.Entry, err)
	}
	m, err := cumodule.Load(dev, im.Code)
	if err != nil {
		return nil, fmt.Errorf("loading the kernel %s: %w", s.Entry, err)
	}
	k, err := m.Kernel(s.Entry)
	if err != nil {
		_ = m.Close()
		return nil, err
	}
	stats.Lock()
	stats.s.Loads++
	stats.s.LoadTime += time.Since(start)
	stats.s.Hits += cache.Stats().Hits - hits
	stats.Unlock()
	return k, nil
}

// Prepare compiles and loads the kernel of spec s on CUDA device dev
// ahead of its first call (before a graph capture, or to time it).
func Prepare(s *fuse.Spec, dev int) error {
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

// run launches one call: the outputs, the inputs (at their offsets), n,
// the scalars, and for the Strided class the dimensions and strides.
func run(ctx context.Context, l *fuse.Launch) error {
	if l.N == 0 {
		return nil
	}
	s := l.Spec
	dev := l.Outputs[0].Device().Index
	var buf [8]*ops.Tensor
	ts := append(append(buf[:0], l.Outputs...), l.Inputs...)
	ln, err := opscuda.NewLaunch(ctx, ts...)
	if err != nil {
		return err
	}
	if s.Layout == fuse.Vector && !aligned(ln.Ptr, ts, s.VecWidth) {
		// The spec assumed storage aligned to a vector; it is not: one
		// element per thread instead.
		if s, err = s.Chain.SpecForLayout(fuse.Linear, 0, l.N, s.InDTypes...); err != nil {
			return err
		}
	}
	k, err := kernel(s, dev)
	if err != nil {
		return err
	}
	// The parameters, in the generated kernel's order, as the 8 bytes each is passed as.
	params := make([]uint64, 0, len(ln.Ptr)+1+len(l.Consts)+len(l.Args)+len(l.Dims)*(1+len(l.Inputs)))
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
	if s.Layout == fuse.Strided {
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
	if s.Layout == fuse.Vector {
		items = l.N / s.VecWidth
	}
	blocks := max((items+fuse.Threads-1)/fuse.Threads, 1)
	if s.Index64 {
		blocks = min(blocks, maxBlocks)
	}
	return k.LaunchWith(ln, cumodule.Dim3{X: blocks}, cumodule.Dim3{X: fuse.Threads}, 0, params)
}
