// Package jitload compiles CUDA C++ source for the GPU at hand and loads it, ready to launch on
// ops tensors: the Go analogue of torch.utils.cpp_extension.load_inline. It compiles with package
// jit (NVRTC, straight to a CUBIN for the device's architecture, through jit's disk cache, so
// the next run only reads the cache) and loads and launches with package ops/cuda/cumodule
// (the driver API, in the primary context that ops/cuda uses, on ops/cuda's stream).
//
//	m, err := jitload.Load(0, jit.Program{Name: "scale.cu", Source: src,
//		NameExpressions: []string{"scale<float>"}}, jitload.Options{})
//	k, err := m.Kernel("scale<float>")
//	err = k.Launch(ctx, cumodule.Dim3{X: blocks}, cumodule.Dim3{X: 256}, 0, y, x, float32(2), int64(n))
//
// Like ops/cuda/cumodule, this package does not link the CUDA driver: a program that imports it
// starts without a GPU or driver, and Load then fails with an error wrapping cuda.ErrNoDevice.
// Compiling alone (package jit) needs neither.
package jitload

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	opscuda "github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/cumodule"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/jit"
)

// Options say how Load compiles. The zero value compiles a CUBIN for the device's architecture
// through jit.DefaultCache().
type Options struct {
	// Cache is where compiled images are kept; nil means jit.DefaultCache().
	Cache *jit.Cache
	// Format is jit.CUBIN (the default: no JIT step in the driver) or jit.PTX (the driver
	// compiles it when loading; it needs a driver at least as new as NVRTC).
	Format jit.Format
	// Arch overrides the architecture to compile for; "" means the device's.
	Arch jit.Arch
}

// Module is a program compiled and loaded on one device.
type Module struct {
	mod      *cumodule.Module
	image    *jit.Image
	took     time.Duration
	fromDisk bool

	mu      sync.Mutex
	kernels map[string]*cumodule.Kernel
}

// DeviceArch returns the architecture of CUDA device n ("sm_90" on an H100).
func DeviceArch(n int) (jit.Arch, error) {
	info, err := opscuda.Info(n)
	if err != nil {
		return "", fmt.Errorf("jitload: device %d: %w", n, err)
	}
	return jit.ArchOf(info.Major, info.Minor), nil
}

// Load compiles p for CUDA device `device` (through the cache) and loads the image there.
func Load(device int, p jit.Program, opts Options) (*Module, error) {
	start := time.Now()
	arch := opts.Arch
	if arch == "" {
		var err error
		if arch, err = DeviceArch(device); err != nil {
			return nil, err
		}
	}
	cache := opts.Cache
	if cache == nil {
		var err error
		if cache, err = jit.DefaultCache(); err != nil {
			return nil, err
		}
	}
	hits := cache.Stats().Hits
	im, err := cache.Compile(p, arch, opts.Format)
	if err != nil {
		return nil, fmt.Errorf("jitload: %w", err)
	}
	fromDisk := cache.Stats().Hits > hits
	m, err := cumodule.Load(device, im.Code)
	if err != nil {
		return nil, fmt.Errorf("jitload: %s (%v for %s): %w", p.Name, im.Format, im.Arch, err)
	}
	return &Module{mod: m, image: im, took: time.Since(start), fromDisk: fromDisk, kernels: map[string]*cumodule.Kernel{}}, nil
}

// Loaded returns how long Load took (compile or disk read, and load) and
// whether the image came from the disk cache (as the cache's hit counter
// tells: another goroutine's hit on the same cache at the same moment
// counts too).
func (m *Module) Loaded() (took time.Duration, fromDisk bool) { return m.took, m.fromDisk }

// Image returns the compiled image the module was loaded from.
func (m *Module) Image() *jit.Image { return m.image }

// Device returns the device the module is loaded on.
func (m *Module) Device() ops.Device { return m.mod.Device() }

// Kernel returns a kernel by one of the program's name expressions ("silu_forward<float>") or
// by its extern "C" name; lookups are remembered.
func (m *Module) Kernel(name string) (*cumodule.Kernel, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if k, ok := m.kernels[name]; ok {
		return k, nil
	}
	k, err := m.mod.Kernel(m.image.Kernel(name))
	if err != nil {
		return nil, fmt.Errorf("jitload: %w", err)
	}
	m.kernels[name] = k
	return k, nil
}

// Close unloads the module.
func (m *Module) Close() error { return m.mod.Close() }

// Lazy loads a program on each device the first time that device asks for it, once, however
// many goroutines ask: what an op's CUDA kernel keeps in a package variable. A failed load is
// not remembered, so a later call tries again.
type Lazy struct {
	Program jit.Program
	Options Options

	mu   sync.Mutex
	mods map[int]*Module
}

// Module returns the program loaded on CUDA device `device`, loading it on first use.
func (l *Lazy) Module(device int) (*Module, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if m, ok := l.mods[device]; ok {
		return m, nil
	}
	m, err := Load(device, l.Program, l.Options)
	if err != nil {
		return nil, err
	}
	if l.mods == nil {
		l.mods = map[int]*Module{}
	}
	l.mods[device] = m
	return m, nil
}

// Blocks returns the number of blocks of `threads` threads for a grid-stride loop over n
// elements: enough to cover n, at most limit, at least 1.
func Blocks(n, threads, limit int) (int, error) {
	if n < 0 || threads <= 0 || limit <= 0 {
		return 0, errors.New("jitload: Blocks needs n >= 0, threads > 0 and limit > 0")
	}
	return min(max((n+threads-1)/threads, 1), limit), nil
}
