// Package toolkit finds the CUDA toolkit on this machine and describes it: where nvcc is
// (FindNvcc), its version (ParseNvccVersion), the GPU codes it can build (ParseGPUCodeList, or
// KnownGPUCodes for a release too old to list them) and, through DetectToolkit, the toolkit's
// root, include directories and libraries (by the roles of LibraryRoles), so that a Bazel
// repository rule can expose a local toolkit under the same target names as a hermetic one.
// Command toolchains/resolver/cmd/cuda-archs prints DetectToolkit's result as JSON (--detect)
// for the local_cuda repository rule.
package toolkit

import (
	_ "embed" // nvcc_fallbacks.txt
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Toolkit describes a CUDA toolkit found on this machine: what a repository rule needs to
// expose it to Bazel. It is printed as JSON by `cuda-archs --detect`. Paths are absolute.
type Toolkit struct {
	// Nvcc is the nvcc executable (a real binary, not Debian's /usr/bin/nvcc wrapper script),
	// with symbolic links resolved.
	Nvcc string `json:"nvcc"`
	// Version is nvcc's version, e.g. "11.8.89".
	Version string `json:"version"`
	// Supported lists the codes nvcc can build (sm_80, compute_90, ...).
	Supported []string `json:"supported"`
	// SupportedSource says where Supported came from: "nvcc --list-gpu-code", "nvcc
	// --list-gpu-code and --dryrun" (with the arch- and family-specific codes ProbeVariants
	// found) or "table for nvcc X.Y".
	SupportedSource string `json:"supported_source"`
	// Root is the toolkit root, the parent of Nvcc's directory: e.g. /usr/local/cuda-13.0, or
	// /usr/lib/nvidia-cuda-toolkit for Debian's package (whose headers and libraries are in
	// /usr/include and /usr/lib/x86_64-linux-gnu instead).
	Root string `json:"root"`
	// Include is the directory holding cuda_runtime.h: Root/include,
	// Root/targets/x86_64-linux/include or, e.g. for Debian, /usr/include; "" if none has it.
	Include string `json:"include,omitempty"`
	// CCCLInclude is the directory holding thrust/ (and cub/, cuda/): include/cccl for CUDA 13,
	// include itself for older releases (Debian: /usr/include); "" if none has it. Searched in
	// the same directories as Include.
	CCCLInclude string `json:"cccl_include,omitempty"`
	// NvtxInclude is the directory holding nvtx3/, searched like Include; "" if none has it.
	NvtxInclude string `json:"nvtx_include,omitempty"`
	// Libraries maps the role (see LibraryRoles) of every library found to its path.
	Libraries map[string]string `json:"libraries"`
	// Cuobjdump is the cuobjdump executable next to nvcc (Nvcc's directory, or that of the nvcc
	// that was found, such as Debian's /usr/bin), "" if there is none.
	Cuobjdump string `json:"cuobjdump,omitempty"`
	// Searched lists the places looked at for nvcc, in order.
	Searched []string `json:"searched"`
	// Error is set, and the other fields empty, when no usable toolkit was found.
	Error string `json:"error,omitempty"`
}

// LibraryRole is a library a CUDA toolkit may provide, with the name DetectToolkit reports it
// under.
type LibraryRole struct {
	// Role is the key in Toolkit.Libraries, named like the Bazel target that exposes the
	// library (e.g. "cublas" for @cuda//:cublas).
	Role string
	// File is the library's file name. For a shared library (.so), when the unversioned file
	// is missing, the versioned one with the highest major version is taken (libcublas.so.13,
	// preferred over a longer libcublas.so.13.1.0.3).
	File string
	// StubsOnly says the library is searched in the toolkit's stubs directories only: it is the
	// link stub of a library the driver provides at run time, and the driver's own copy in a
	// system directory must not be taken for it.
	StubsOnly bool
}

// LibraryRoles are the libraries DetectToolkit looks for, by role, in a fixed order: the CUDA
// runtime, the math libraries, NVRTC, nvJitLink, the PTX compiler, nvFatbin, nvJPEG, CUPTI,
// cuFile, OpenCL, NPP, the driver's link stub, cuDNN and NCCL. A library is searched in Root/lib64, Root/lib, Root/targets/x86_64-linux/lib
// and then /usr/lib/x86_64-linux-gnu (Debian's packages, NVIDIA's cuDNN and NCCL packages); a
// StubsOnly one in Root/lib64/stubs and Root/targets/x86_64-linux/lib/stubs only. The first
// directory with a match wins.
var LibraryRoles = []LibraryRole{
	{Role: "cudart_static", File: "libcudart_static.a"},
	{Role: "cudart_shared", File: "libcudart.so"},
	{Role: "cudadevrt", File: "libcudadevrt.a"},
	{Role: "culibos", File: "libculibos.a"},
	{Role: "cublas", File: "libcublas.so"},
	{Role: "cublas_static", File: "libcublas_static.a"},
	{Role: "cublasLt", File: "libcublasLt.so"},
	{Role: "cublasLt_static", File: "libcublasLt_static.a"},
	{Role: "nvblas", File: "libnvblas.so"},
	{Role: "cufft", File: "libcufft.so"},
	{Role: "cufft_static", File: "libcufft_static.a"},
	{Role: "curand", File: "libcurand.so"},
	{Role: "curand_static", File: "libcurand_static.a"},
	{Role: "cusparse", File: "libcusparse.so"},
	{Role: "cusparse_static", File: "libcusparse_static.a"},
	{Role: "cusolver", File: "libcusolver.so"},
	{Role: "cusolver_static", File: "libcusolver_static.a"},
	{Role: "cusolverMg", File: "libcusolverMg.so"},
	{Role: "nvrtc", File: "libnvrtc.so"},
	{Role: "nvrtc_static", File: "libnvrtc_static.a"},
	{Role: "nvrtc_builtins", File: "libnvrtc-builtins.so"},
	{Role: "nvrtc_builtins_static", File: "libnvrtc-builtins_static.a"},
	{Role: "nvjitlink", File: "libnvJitLink.so"},
	{Role: "nvjitlink_static", File: "libnvJitLink_static.a"},
	{Role: "nvptxcompiler_static", File: "libnvptxcompiler_static.a"},
	{Role: "nvfatbin", File: "libnvfatbin.so"},
	{Role: "nvfatbin_static", File: "libnvfatbin_static.a"},
	{Role: "nvjpeg", File: "libnvjpeg.so"},
	{Role: "nvjpeg_static", File: "libnvjpeg_static.a"},
	{Role: "cupti", File: "libcupti.so"},
	{Role: "cufile", File: "libcufile.so"},
	{Role: "cufile_rdma", File: "libcufile_rdma.so"},
	{Role: "opencl", File: "libOpenCL.so"},
	{Role: "nppc", File: "libnppc.so"},
	{Role: "nppial", File: "libnppial.so"},
	{Role: "nppicc", File: "libnppicc.so"},
	{Role: "nppidei", File: "libnppidei.so"},
	{Role: "nppif", File: "libnppif.so"},
	{Role: "nppig", File: "libnppig.so"},
	{Role: "nppim", File: "libnppim.so"},
	{Role: "nppist", File: "libnppist.so"},
	{Role: "nppisu", File: "libnppisu.so"},
	{Role: "nppitc", File: "libnppitc.so"},
	{Role: "npps", File: "libnpps.so"},
	{Role: "cuda_driver", File: "libcuda.so", StubsOnly: true},
	{Role: "cudnn", File: "libcudnn.so"},
	{Role: "nccl", File: "libnccl.so"},
	{Role: "nccl_static", File: "libnccl_static.a"},
}

// debianNvcc is the real nvcc of Debian's nvidia-cuda-toolkit; /usr/bin/nvcc only execs it.
const debianNvcc = "/usr/lib/nvidia-cuda-toolkit/bin/nvcc"

// layout is where FindNvcc and DetectToolkit look outside $CUDA_PATH, $CUDA_HOME, $PATH and the
// toolkit root. Tests replace systemLayout's directories with temporary ones.
type layout struct {
	// nvccFallbacks are the nvcc paths tried after $CUDA_PATH, $CUDA_HOME and $PATH.
	nvccFallbacks []string
	// debianWrapper is Debian's /usr/bin/nvcc, a script that runs debianNvcc.
	debianWrapper string
	// debianNvcc is the nvcc that a found debianWrapper stands for.
	debianNvcc string
	// systemInclude is searched for headers after the toolkit root's include directories.
	systemInclude string
	// systemLibDir is searched for libraries after the toolkit root's library directories.
	systemLibDir string
}

// nvccFallbacksFile lists the nvcc paths tried after $CUDA_PATH, $CUDA_HOME and $PATH, one per
// line ('#' starts a comment); ./bazelw reads the same file.
//
//go:embed nvcc_fallbacks.txt
var nvccFallbacksFile string

// fallbackPaths returns the paths a fallbacks file lists.
func fallbackPaths(file string) []string {
	var paths []string
	for _, line := range strings.Split(file, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			paths = append(paths, line)
		}
	}
	return paths
}

// systemLayout is the layout of this machine (Linux x86_64).
var systemLayout = layout{
	nvccFallbacks: fallbackPaths(nvccFallbacksFile),
	debianWrapper: "/usr/bin/nvcc",
	debianNvcc:    debianNvcc,
	systemInclude: "/usr/include",
	systemLibDir:  "/usr/lib/x86_64-linux-gnu",
}

// DetectToolkit finds nvcc (see FindNvcc), asks it for its version and supported codes (falling
// back to KnownGPUCodes for an nvcc too old to list them), and locates the toolkit's include
// directories, libraries (see LibraryRoles) and cuobjdump for its layout: a CUDA root
// (/usr/local/cuda: bin/, include/ or include/cccl/, lib64/, targets/x86_64-linux/) or Debian's
// (/usr/bin/nvcc running /usr/lib/nvidia-cuda-toolkit/bin/nvcc, /usr/include,
// /usr/lib/x86_64-linux-gnu). env reads an environment variable (nil: os.Getenv). A missing
// toolkit is reported in Toolkit.Error, not as a Go error; the error result is for an nvcc that
// exists but does not work.
func DetectToolkit(env func(string) string) (Toolkit, error) {
	return detectToolkit(env, systemLayout)
}

func detectToolkit(env func(string) string, l layout) (Toolkit, error) {
	found, searched, err := findNvcc(env, defaultIsExecutable, l.nvccFallbacks)
	tk := Toolkit{Searched: searched, Libraries: map[string]string{}}
	if err != nil {
		tk.Error = err.Error()
		return tk, nil
	}
	path := found
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	if path == l.debianWrapper && defaultIsExecutable(l.debianNvcc) {
		path = l.debianNvcc
	}
	tk.Nvcc = path

	out, err := exec.Command(path, "--version").CombinedOutput()
	if err != nil {
		return tk, fmt.Errorf("running %s --version: %w: %s", path, err, firstLine(string(out)))
	}
	v, err := ParseNvccVersion(string(out))
	if err != nil {
		return tk, fmt.Errorf("%s --version: %w", path, err)
	}
	tk.Version = v.String()

	if out, err := exec.Command(path, "--list-gpu-code").Output(); err == nil {
		if codes, err := ParseGPUCodeList(string(out)); err == nil {
			tk.Supported, tk.SupportedSource = codes, "nvcc --list-gpu-code"
			if v := ProbeVariants(path, codes); len(v) > 0 {
				tk.Supported = append(tk.Supported, v...)
				tk.SupportedSource = "nvcc --list-gpu-code and --dryrun"
			}
		}
	}
	if tk.Supported == nil {
		codes, ok := KnownGPUCodes(v)
		if !ok {
			return tk, fmt.Errorf("%s (CUDA %s) cannot list the GPU codes it supports (--list-gpu-code) and its version is not in the built-in table; use CUDA 11.0 or newer", path, v)
		}
		tk.Supported, tk.SupportedSource = codes, fmt.Sprintf("table for nvcc %d.%d", v.Major, v.Minor)
	}

	tk.Root = filepath.Dir(filepath.Dir(path))
	for _, dir := range []string{filepath.Dir(path), filepath.Dir(found)} {
		if p := filepath.Join(dir, "cuobjdump"); defaultIsExecutable(p) {
			tk.Cuobjdump = p
			break
		}
	}

	target := filepath.Join(tk.Root, "targets", "x86_64-linux")
	includeDirs := []string{filepath.Join(tk.Root, "include"), filepath.Join(target, "include"), l.systemInclude}
	tk.Include = firstDir(includeDirs, func(d string) bool { return isFile(filepath.Join(d, "cuda_runtime.h")) })
	var ccclCandidates []string
	for _, d := range includeDirs {
		ccclCandidates = append(ccclCandidates, filepath.Join(d, "cccl"), d)
	}
	tk.CCCLInclude = firstDir(ccclCandidates, func(d string) bool { return isDir(filepath.Join(d, "thrust")) })
	tk.NvtxInclude = firstDir(includeDirs, func(d string) bool { return isDir(filepath.Join(d, "nvtx3")) })

	libDirs := []string{filepath.Join(tk.Root, "lib64"), filepath.Join(tk.Root, "lib"), filepath.Join(target, "lib"), l.systemLibDir}
	stubDirs := []string{filepath.Join(tk.Root, "lib64", "stubs"), filepath.Join(target, "lib", "stubs")}
	listings := map[string][]string{}
	for _, r := range LibraryRoles {
		dirs := libDirs
		if r.StubsOnly {
			dirs = stubDirs
		}
		for _, dir := range dirs {
			if p := findLibrary(dir, r.File, listings); p != "" {
				tk.Libraries[r.Role] = p
				break
			}
		}
	}
	return tk, nil
}

// firstDir returns the first of dirs for which ok holds, or "".
func firstDir(dirs []string, ok func(string) bool) string {
	for _, d := range dirs {
		if ok(d) {
			return d
		}
	}
	return ""
}

// findLibrary returns dir/file if it is a file. For a shared library (file ends in .so) without
// one, it returns the versioned file (file.N, file.N.M...) with the highest major version,
// preferring the fewest version components (the soname link). listings caches directory
// listings by directory.
func findLibrary(dir, file string, listings map[string][]string) string {
	if p := filepath.Join(dir, file); isFile(p) {
		return p
	}
	if !strings.HasSuffix(file, ".so") {
		return ""
	}
	names, ok := listings[dir]
	if !ok {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			names = append(names, e.Name())
		}
		listings[dir] = names
	}
	type candidate struct {
		name    string
		version []int
	}
	var cands []candidate
	for _, n := range names {
		suffix, ok := strings.CutPrefix(n, file+".")
		if !ok {
			continue
		}
		version, ok := parseVersionSuffix(suffix)
		if ok && isFile(filepath.Join(dir, n)) {
			cands = append(cands, candidate{n, version})
		}
	}
	if len(cands) == 0 {
		return ""
	}
	sort.Slice(cands, func(i, j int) bool {
		a, b := cands[i].version, cands[j].version
		if a[0] != b[0] {
			return a[0] > b[0]
		}
		if len(a) != len(b) {
			return len(a) < len(b)
		}
		for k := range a {
			if a[k] != b[k] {
				return a[k] > b[k]
			}
		}
		return cands[i].name < cands[j].name
	})
	return filepath.Join(dir, cands[0].name)
}

// parseVersionSuffix parses "13" or "13.1.0.3" (decimal numbers separated by dots).
func parseVersionSuffix(s string) ([]int, bool) {
	var version []int
	for _, part := range strings.Split(s, ".") {
		if part == "" || len(part) > 9 || strings.Trim(part, "0123456789") != "" {
			return nil, false
		}
		n, _ := strconv.Atoi(part)
		version = append(version, n)
	}
	return version, true
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
