package cuda

import (
	_ "embed" // toolkit_files.txt
	"path"
	"sort"
	"strings"
	"sync"
)

// ToolkitRepo is the repository whose targets name the CUDA toolkit's libraries
// (@cuda//:cublas, ...): the hub that rules_cuda_go's cuda module extension creates.
const ToolkitRepo = "@cuda"

// toolkitFiles lists the files of every component of the pinned CUDA toolkits, per version
// (`bazel run //tools/cudapins -- contents` writes it from NVIDIA's wheels).
//
//go:embed toolkit_files.txt
var toolkitFiles string

// toolkitHeader reports whether include (as written between the quotes or angle brackets) is a
// header of the CUDA toolkit, and which @cuda target provides it. The headers are those of the
// pinned toolkits' components (toolkit_files.txt). target is "" for headers that every cu_library
// compile already sees: the runtime, driver and profiler API headers (cuda_runtime.h,
// cuda_fp16.h, cooperative_groups.h, cuda_profiler_api.h, ...), CCCL (thrust/, cub/, cuda/, nv/)
// and nvcc's own, which the CUDA toolchain puts on the include path of every nvcc action. Library
// headers (cublas_v2.h, cufft.h, nvml.h, npp.h, ...) name the library's target, e.g.
// "@cuda//:cublas", whose headers and shared library a cu_library gets through deps.
func toolkitHeader(include string) (target string, ok bool) {
	name, comps := toolkitHeaderComponents(include)
	if len(comps) == 0 {
		return "", false
	}
	if t, ok := headerTargets[name]; ok {
		return ToolkitRepo + "//:" + t, true
	}
	for _, c := range comps {
		if t, ok := componentTargets[c]; ok {
			if t == "" {
				return "", true
			}
			return ToolkitRepo + "//:" + t, true
		}
	}
	return "", false
}

// toolkitHeaderComponents returns the name under which include is listed (the file, or its
// directory two levels below include/ for deeper files) and the components that have it, in
// componentOrder.
func toolkitHeaderComponents(include string) (string, []string) {
	p := path.Clean(include)
	if strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") {
		return p, nil
	}
	idx := toolkitHeaderIndex()
	if comps := idx[p]; len(comps) > 0 {
		return p, comps
	}
	if parts := strings.SplitN(p, "/", 3); len(parts) == 3 {
		dir := parts[0] + "/" + parts[1] + "/"
		return dir, idx[dir]
	}
	return p, nil
}

// alwaysOnComponents are the components whose include directories the CUDA toolchain puts on
// every nvcc compile: the runtime (with the driver and profiler API headers), crt, CCCL and nvcc's
// own include directory (its nvcc.profile adds it).
var alwaysOnComponents = []string{"cudart", "crt", "cccl", "nvcc"}

// componentTargets maps a component to the @cuda target a header of it names ("" for the
// always-on components). Components without an entry have no headers of their own to offer.
var componentTargets = map[string]string{
	"cudart":        "",
	"crt":           "",
	"cccl":          "",
	"nvcc":          "",
	"nvtx":          "nvtx",
	"cublas":        "cublas",
	"cufft":         "cufft",
	"curand":        "curand",
	"cusparse":      "cusparse",
	"cusolver":      "cusolver",
	"nvrtc":         "nvrtc",
	"nvjitlink":     "nvjitlink",
	"nvptxcompiler": "nvptxcompiler_static",
	"nvfatbin":      "nvfatbin",
	"nvml":          "nvml",
	"cupti":         "cupti",
	"sanitizer":     "sanitizer",
	"opencl":        "opencl",
	"cufile":        "cufile",
	"npp":           "npp",
	"nvjpeg":        "nvjpeg",
	"cudnn":         "cudnn",
	"nccl":          "nccl",
}

// headerTargets are the headers whose target is not their component's.
var headerTargets = map[string]string{
	"cublasLt.h":              "cublasLt",
	"nvblas.h":                "nvblas",
	"cufftw.h":                "cufftw",
	"cusolverMg.h":            "cusolverMg",
	"cupti_checkpoint.h":      "cupti_checkpoint",
	"cupti_pcsampling_util.h": "pcsamplingutil",
	"nvperf_host.h":           "nvperf_host",
	"nvperf_cuda_host.h":      "nvperf_host",
	"nvperf_target.h":         "nvperf_target",
	"nvvm.h":                  "nvvm",
	// In CUDA 12's nvcc wheel (the 12.9 crt component) as in CUDA 13's PTX compiler wheel: the
	// library is the PTX compiler's.
	"nvPTXCompiler.h": "nvptxcompiler_static",
}

// componentOrder ranks components for a header several of them ship: the always-on ones first,
// then as listed (CUPTI's copies of the generated_*_meta.h headers before the sanitizer's).
var componentOrder = func() map[string]int {
	order := append(append([]string(nil), alwaysOnComponents...),
		"cupti", "sanitizer", "nvptxcompiler")
	m := map[string]int{}
	for i, c := range order {
		m[c] = i + 1
	}
	return m
}()

// toolkitHeaderIndex maps each header listed in toolkitFiles (relative to include/) to the
// components that have it in any pinned version, in componentOrder.
var toolkitHeaderIndex = sync.OnceValue(func() map[string][]string {
	idx := map[string][]string{}
	for _, f := range toolkitFileLines(toolkitFiles) {
		name, ok := strings.CutPrefix(f.path, "include/")
		if !ok {
			continue
		}
		if !contains(idx[name], f.component) {
			idx[name] = append(idx[name], f.component)
		}
	}
	for _, comps := range idx {
		sort.SliceStable(comps, func(i, j int) bool { return rank(comps[i]) < rank(comps[j]) })
	}
	return idx
})

// rank returns the place of component in componentOrder (after all of them when unlisted).
func rank(component string) int {
	if r, ok := componentOrder[component]; ok {
		return r
	}
	return len(componentOrder) + 1
}

// toolkitFile is a file line of toolkit_files.txt.
type toolkitFile struct {
	path, component string
	versions        []string
}

// toolkitFileLines parses the file lines of a contents file ("file PATH COMPONENT VERSION...").
func toolkitFileLines(data string) []toolkitFile {
	var out []toolkitFile
	for _, line := range strings.Split(data, "\n") {
		f := strings.Fields(line)
		if len(f) < 4 || f[0] != "file" {
			continue
		}
		out = append(out, toolkitFile{path: f[1], component: f[2], versions: f[3:]})
	}
	return out
}
