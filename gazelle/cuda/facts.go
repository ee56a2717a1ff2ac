package cuda

import (
	"bytes"
	"regexp"

	"github.com/rules-cuda-go/rules_cuda_go/gazelle/cuda/internal/cpp"
)

// codeFacts are what a compile needs that a file's code shows, besides its includes: the first
// line of each, 0 for none. Comments, string and character literals and preprocessor directives
// are skipped; conditional compilation is not evaluated.
type codeFacts struct {
	// ExtendedLambda is a lambda annotated __device__ (or __host__ __device__): nvcc compiles it
	// only with --extended-lambda.
	ExtendedLambda int
	// DeviceCode is a kernel definition (a __global__ function with a body), a kernel launch
	// (<<<) or a use of the device's built-in variables or barriers (threadIdx, __syncthreads):
	// code that only a CUDA compile accepts.
	DeviceCode int
	// DriverCall is a call of a CUDA driver API function (cuInit, cuMemAlloc, cuModuleLoad, ...;
	// not cuComplex's cuCadd and friends, nor cuFile's).
	DriverCall int
}

var (
	// A lambda's capture list, then optionally its parameters and mutable, then the annotation:
	// [=] __device__ (int i) {...}, [] (int i) __host__ __device__ {...}.
	extendedLambdaRE = regexp.MustCompile(`\[[^\[\]{};]*\]\s*(?:\([^()]*(?:\([^()]*\)[^()]*)*\)\s*)?(?:mutable\s+)?(?:__host__\s+)?__device__\b`)
	deviceCodeRE     = regexp.MustCompile(`<<<|\b(?:threadIdx|blockIdx|blockDim|gridDim|__syncthreads\w*|__syncwarp)\b|\b__global__\b[^;{}]*\)[^;{}]*\{`)
	driverCallRE     = regexp.MustCompile(`\bcu[A-Z]\w*\s*\(`)
	// Functions named cu[A-Z]... that are not the driver's: cuComplex.h's and cuFile's.
	notDriverRE = regexp.MustCompile(`^cu(?:C(?:real|imag|add|sub|mul|div|abs|fma)|Conj|Complex|File)`)
)

// scanCode returns the codeFacts of one source or header.
func scanCode(src []byte) codeFacts {
	clean, starts := cpp.StripComments(src)
	text := cpp.BlankLiterals(cpp.BlankDirectives(clean))
	lineOf := func(i int) int {
		return starts[bytes.Count(text[:i], []byte("\n"))]
	}
	var f codeFacts
	if m := extendedLambdaRE.FindIndex(text); m != nil {
		f.ExtendedLambda = lineOf(m[0])
	}
	if m := deviceCodeRE.FindIndex(text); m != nil {
		f.DeviceCode = lineOf(m[0])
	}
	for _, m := range driverCallRE.FindAllIndex(text, -1) {
		if !notDriverRE.Match(text[m[0]:m[1]]) {
			f.DriverCall = lineOf(m[0])
			break
		}
	}
	return f
}
