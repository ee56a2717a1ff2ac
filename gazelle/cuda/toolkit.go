package cuda

import (
	"path"
	"strings"
)

// ToolkitRepo is the repository whose targets name the CUDA toolkit's libraries
// (@cuda//:cublas, ...): the hub that rules_cuda_go's cuda module extension creates.
const ToolkitRepo = "@cuda"

// ToolkitHeader reports whether include (as written between the quotes or angle brackets) is a
// header of the CUDA toolkit, and which @cuda target provides it. target is "" for headers that
// every cu_library compile already sees: the runtime and driver headers (cuda_runtime.h,
// cuda_fp16.h, cooperative_groups.h, ...) and CCCL (thrust/, cub/, cuda/, nv/), which the CUDA
// toolchain puts on the include path of every nvcc action. Library headers (cublas_v2.h,
// cufft.h, curand.h, ...) name the library's target, e.g. "@cuda//:cublas", whose headers and
// shared library a cu_library gets through deps.
func ToolkitHeader(include string) (target string, ok bool) {
	p := path.Clean(include)
	if dir, _, found := strings.Cut(p, "/"); found {
		switch dir {
		case "thrust", "cub", "cuda", "nv":
			return "", true // CCCL: Thrust, CUB, libcu++
		case "cooperative_groups", "crt":
			return "", true // runtime headers
		case "nvtx3":
			return ToolkitRepo + "//:nvtx", true
		}
		return "", false
	}
	if runtimeHeaders[p] {
		return "", true
	}
	for _, lib := range libraryHeaders {
		if lib.matches(p) {
			return ToolkitRepo + "//:" + lib.target, true
		}
	}
	return "", false
}

// runtimeHeaders are the headers of the CUDA runtime and driver (the cudart and crt components)
// that are not in a subdirectory: every nvcc compile of a cu_library sees them.
var runtimeHeaders = setOf(
	"builtin_types.h", "channel_descriptor.h", "common_functions.h", "cooperative_groups.h",
	"cuComplex.h", "cuda.h", "cudaEGL.h", "cudaEGLTypedefs.h", "cudaGL.h", "cudaGLTypedefs.h",
	"cudaProfiler.h", "cudaProfilerTypedefs.h", "cudaTypedefs.h", "cudaVDPAU.h", "cudaVDPAUTypedefs.h",
	"cuda_egl_interop.h", "cuda_gl_interop.h", "cuda_vdpau_interop.h", "cudart_platform.h", "cuda_awbarrier.h",
	"cuda_awbarrier_helpers.h", "cuda_awbarrier_primitives.h", "cuda_bf16.h", "cuda_bf16.hpp",
	"cuda_device_runtime_api.h", "cuda_fp16.h", "cuda_fp16.hpp", "cuda_fp4.h", "cuda_fp4.hpp",
	"cuda_fp6.h", "cuda_fp6.hpp", "cuda_fp8.h", "cuda_fp8.hpp", "cuda_occupancy.h",
	"cuda_pipeline.h", "cuda_pipeline_helpers.h", "cuda_pipeline_primitives.h",
	"cuda_profiler_api.h", "cuda_runtime.h", "cuda_runtime_api.h", "cuda_surface_types.h",
	"cuda_texture_types.h", "device_atomic_functions.h", "device_double_functions.h",
	"device_functions.h", "device_launch_parameters.h", "device_types.h", "driver_functions.h",
	"driver_types.h", "host_config.h", "host_defines.h", "library_types.h", "math_constants.h",
	"math_functions.h", "mma.h", "sm_20_atomic_functions.h", "sm_20_intrinsics.h",
	"sm_30_intrinsics.h", "sm_32_atomic_functions.h", "sm_32_intrinsics.h", "sm_35_atomic_functions.h",
	"sm_35_intrinsics.h", "sm_60_atomic_functions.h", "sm_61_intrinsics.h", "surface_functions.h",
	"surface_indirect_functions.h", "surface_types.h", "texture_fetch_functions.h",
	"texture_indirect_functions.h", "texture_types.h", "vector_functions.h", "vector_functions.hpp",
	"vector_types.h",
)

// libraryHeader maps header names to a library target of the @cuda hub: the exact names, or
// every ".h" name that starts with prefix but not with one of except (the headers of separate
// products that share the prefix).
type libraryHeader struct {
	target string
	exact  []string
	prefix string
	except []string
}

func (l libraryHeader) matches(p string) bool {
	for _, e := range l.exact {
		if p == e {
			return true
		}
	}
	if l.prefix == "" || !strings.HasPrefix(p, l.prefix) || !strings.HasSuffix(p, ".h") {
		return false
	}
	for _, e := range l.except {
		if strings.HasPrefix(p, e) {
			return false
		}
	}
	return true
}

// libraryHeaders are checked in order: the first match wins (cublasLt.h before cublas*.h).
// The targets are those toolchains/private/components.bzl declares (shared libraries, which
// every toolkit source ships).
var libraryHeaders = []libraryHeader{
	{target: "cublasLt", exact: []string{"cublasLt.h"}},
	{target: "cublas", prefix: "cublas"}, // cublas.h, cublas_v2.h, cublas_api.h, cublasXt.h
	{target: "cufftw", exact: []string{"cufftw.h"}},
	{target: "cufft", prefix: "cufft"},   // cufft.h, cufftXt.h
	{target: "curand", prefix: "curand"}, // curand.h, curand_kernel.h and its parts
	// cuSPARSELt (cusparseLt.h) is a product of its own.
	{target: "cusparse", prefix: "cusparse", except: []string{"cusparseLt"}},
	{target: "cusolver", prefix: "cusolver"}, // cusolverDn.h, cusolverSp.h, cusolver_common.h, ...
	{target: "nvrtc", exact: []string{"nvrtc.h"}},
	{target: "nvjitlink", exact: []string{"nvJitLink.h"}},
	{target: "nvtx", prefix: "nvToolsExt"},
	// The cuDNN frontend (cudnn_frontend.h) is a header-only project of its own.
	{target: "cudnn", prefix: "cudnn", except: []string{"cudnn_frontend"}},
	{target: "nccl", exact: []string{"nccl.h", "nccl_net.h"}},
}

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
