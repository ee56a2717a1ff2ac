// Package jit compiles CUDA C++ source strings at run time with NVRTC and caches the results on
// disk: the compiler half of torch.utils.cpp_extension.load_inline (and DeepSpeed's jit_load), the
// "just in time" way of building device code (cu_library and cu_device_image are the "ahead of
// time" way). Package ops/cuda/jit/jitload compiles and loads, the whole of load_inline.
//
//	p := jit.Program{
//		Name:            "scale.cu",
//		Source:          src, // template <typename T> __global__ void scale(T* y, ...) {...}
//		NameExpressions: []string{"scale<float>", "scale<double>"},
//		Options:         []string{"-std=c++17"},
//	}
//	cache, _ := jit.DefaultCache()
//	im, err := cache.Compile(p, jit.ArchOf(9, 0), jit.CUBIN) // cached across runs
//	// im.Code is a CUBIN for sm_90; im.Kernel("scale<float>") its mangled kernel name.
//
// Compiling needs the NVRTC library (libnvrtc, linked through @cuda//:nvrtc) and no GPU or driver:
// on a machine without one, programs can still be compiled and checked, to a CUBIN (machine code
// for one architecture, the default: it needs no JIT step in the driver, so a newer NVRTC than
// the driver works) or to PTX when asked. The toolkit's headers (CCCL's cuda/std, CUB, Thrust,
// cuda_fp16.h, ...) are on the include path; see ToolkitIncludeDirs. A program that does not
// compile returns a *CompileError with NVRTC's log and its messages by file and line.
//
// This package needs no GPU and no driver. Loading images onto a GPU and launching their kernels
// on ops tensors is package ops/cuda/jit/jitload (compile for the current device, cache, load)
// over ops/cuda/cumodule; neither links the driver, so programs that import them start without a
// GPU too.
package jit
