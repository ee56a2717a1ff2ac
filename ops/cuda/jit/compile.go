package jit

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Program is CUDA C++ source to compile at run time.
type Program struct {
	// Name is the program's file name in NVRTC's messages ("silu.cu(12): error: ..."); "kernel.cu"
	// when empty.
	Name string
	// Source is the CUDA C++ source. Kernels that are not templates should be extern "C" so that
	// their names are not mangled; templated kernels are named through NameExpressions.
	Source string
	// Headers are in-memory headers: include name -> contents (#include "name" finds them).
	Headers map[string]string
	// NameExpressions are expressions naming __global__ functions or __device__ variables, such
	// as "silu_forward<float>": NVRTC instantiates them, and Image.Lowered maps each to the
	// (mangled) name a module lookup needs.
	NameExpressions []string
	// Options are NVRTC options ("-std=c++20", "--use_fast_math", "-DBLOCK=256", "-I/dir",
	// "-lineinfo", ...). Compile adds -arch and the toolkit's include directories itself.
	Options []string
}

// Image is a compiled program.
type Image struct {
	Format Format
	Arch   Arch
	// Code is the CUBIN (ELF) or the PTX text; either loads with cuModuleLoadData.
	Code []byte
	// Lowered maps each of the program's NameExpressions to its lowered (mangled) name.
	Lowered map[string]string
	// Log is NVRTC's log of a successful compile (warnings), often empty.
	Log string
	// NVRTC is the version of NVRTC that compiled it, e.g. "13.2".
	NVRTC string
}

// Kernel returns the name a module lookup needs for a kernel: the lowered name of a name
// expression, else name itself (an extern "C" kernel).
func (im *Image) Kernel(name string) string {
	if low, ok := im.Lowered[name]; ok {
		return low
	}
	return name
}

func (p Program) name() string {
	if p.Name == "" {
		return "kernel.cu"
	}
	return p.Name
}

// check returns an error for a program NVRTC cannot take.
func (p Program) check() error {
	if strings.TrimSpace(p.Source) == "" {
		return errors.New("jit: the program's Source is empty")
	}
	if strings.ContainsRune(p.Source, 0) {
		return errors.New("jit: the program's Source contains a NUL byte")
	}
	for name, src := range p.Headers {
		if name == "" || strings.ContainsRune(name+src, 0) {
			return fmt.Errorf("jit: header %q: empty name or a NUL byte", name)
		}
	}
	for _, o := range p.Options {
		if strings.HasPrefix(o, "-arch") || strings.HasPrefix(o, "--gpu-architecture") {
			return fmt.Errorf("jit: option %q: the architecture is Compile's arch argument", o)
		}
	}
	for i, e := range p.NameExpressions {
		if strings.TrimSpace(e) == "" || slices.Contains(p.NameExpressions[:i], e) {
			return fmt.Errorf("jit: name expression %q is empty or repeated", e)
		}
	}
	return nil
}

// headerLists returns the headers' names and contents, sorted by name (a stable order for the
// cache key and for NVRTC).
func (p Program) headerLists() (names, srcs []string) {
	for n := range p.Headers {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		srcs = append(srcs, p.Headers[n])
	}
	return names, srcs
}

// options returns every option NVRTC gets: the program's, -arch, and -I for the toolkit headers.
func (p Program) options(arch Arch, format Format) []string {
	opts := append(slices.Clone(p.Options), arch.flag(format))
	for _, dir := range ToolkitIncludeDirs() {
		opts = append(opts, "-I"+dir)
	}
	return opts
}

// Compile compiles a program with NVRTC for one architecture, to a CUBIN (machine code for arch)
// or PTX (for arch's virtual architecture). It needs no GPU and no driver. The toolkit's headers
// (CCCL's cuda/std, cub and thrust, cuda_fp16.h, ...) are on the include path (see
// ToolkitIncludeDirs). A program that does not compile returns a *CompileError holding NVRTC's
// log and its messages with file and line. Compile does not cache: Cache.Compile does.
func Compile(p Program, arch Arch, format Format) (*Image, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	if format != CUBIN && format != PTX {
		return nil, fmt.Errorf("jit: invalid format %v", format)
	}
	if err := arch.check(); err != nil {
		return nil, err
	}
	v, err := Version()
	if err != nil {
		return nil, err
	}
	names, srcs := p.headerLists()
	opts := p.options(arch, format)
	raw, err := nvrtcCompile(p.name(), p.Source, names, srcs, opts, p.NameExpressions, format == CUBIN)
	if err != nil {
		var nerr *Error
		if errors.As(err, &nerr) && nerr.Code == nvrtcCompilation {
			return nil, &CompileError{Program: p.name(), Arch: arch, Options: opts, Log: raw.log, Diagnostics: parseLog(raw.log)}
		}
		if raw.log != "" {
			return nil, fmt.Errorf("jit: compiling %s for %s: %w\n%s", p.name(), arch, err, raw.log)
		}
		return nil, fmt.Errorf("jit: compiling %s for %s: %w", p.name(), arch, err)
	}
	im := &Image{Format: format, Arch: arch, Code: raw.code, Log: raw.log, NVRTC: v, Lowered: map[string]string{}}
	for i, e := range p.NameExpressions {
		im.Lowered[e] = raw.lowered[i]
	}
	return im, nil
}
