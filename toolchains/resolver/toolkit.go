package resolver

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Toolkit describes a CUDA toolkit found on this machine: what the local_cuda repository rule
// needs to expose it to Bazel. It is printed as JSON by `cuda-archs --detect`.
type Toolkit struct {
	// Nvcc is the nvcc executable (a real binary, not Debian's /usr/bin/nvcc wrapper script).
	Nvcc string `json:"nvcc"`
	// Version is nvcc's version, e.g. "11.8.89".
	Version string `json:"version"`
	// Supported lists the codes nvcc can build (sm_80, compute_90, ...).
	Supported []string `json:"supported"`
	// SupportedSource says where Supported came from: "nvcc --list-gpu-code" or "table for nvcc X.Y".
	SupportedSource string `json:"supported_source"`
	// Include is the toolkit's include directory when it is not a system directory, else "".
	Include string `json:"include,omitempty"`
	// Libraries maps cudart_static, cudart_shared and cudadevrt to the files found.
	Libraries map[string]string `json:"libraries"`
	// Searched lists the places looked at for nvcc, in order.
	Searched []string `json:"searched"`
	// Error is set, and the other fields empty, when no usable toolkit was found.
	Error string `json:"error,omitempty"`
}

// libraryFiles are the CUDA runtime libraries a toolkit is expected to have, by role.
var libraryFiles = map[string]string{
	"cudart_static": "libcudart_static.a",
	"cudart_shared": "libcudart.so",
	"cudadevrt":     "libcudadevrt.a",
}

// debianNvcc is the real nvcc of Debian's nvidia-cuda-toolkit; /usr/bin/nvcc only execs it.
const debianNvcc = "/usr/lib/nvidia-cuda-toolkit/bin/nvcc"

// DetectToolkit finds nvcc (see FindNvcc), asks it for its version and supported codes (falling
// back to KnownGPUCodes for an nvcc too old to list them), and locates the include directory and
// runtime libraries for the toolkit's layout: a CUDA root (/usr/local/cuda: bin/, include/,
// lib64/ or targets/x86_64-linux/lib/) or Debian's (/usr/bin/nvcc, /usr/include,
// /usr/lib/x86_64-linux-gnu). A missing toolkit is reported in Toolkit.Error, not as a Go error;
// the error result is for an nvcc that exists but does not work.
func DetectToolkit(env func(string) string) (Toolkit, error) {
	path, searched, err := FindNvcc(env, defaultIsExecutable)
	tk := Toolkit{Searched: searched, Libraries: map[string]string{}}
	if err != nil {
		tk.Error = err.Error()
		return tk, nil
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	if path == "/usr/bin/nvcc" && defaultIsExecutable(debianNvcc) {
		path = debianNvcc
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
		}
	}
	if tk.Supported == nil {
		codes, ok := KnownGPUCodes(v)
		if !ok {
			return tk, fmt.Errorf("%s (CUDA %s) cannot list the GPU codes it supports (--list-gpu-code) and its version is not in the built-in table; use CUDA 11.0 or newer", path, v)
		}
		tk.Supported, tk.SupportedSource = codes, fmt.Sprintf("table for nvcc %d.%d", v.Major, v.Minor)
	}

	var libDirs []string
	if path == debianNvcc {
		libDirs = []string{"/usr/lib/x86_64-linux-gnu"}
	} else {
		root := filepath.Dir(filepath.Dir(path))
		if inc := filepath.Join(root, "include"); isFile(filepath.Join(inc, "cuda_runtime.h")) && inc != "/usr/include" {
			tk.Include = inc
		}
		libDirs = []string{
			filepath.Join(root, "lib64"),
			filepath.Join(root, "lib"),
			filepath.Join(root, "targets", "x86_64-linux", "lib"),
			"/usr/lib/x86_64-linux-gnu",
		}
	}
	for role, file := range libraryFiles {
		for _, dir := range libDirs {
			if p := filepath.Join(dir, file); isFile(p) {
				tk.Libraries[role] = p
				break
			}
		}
	}
	return tk, nil
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
