// Package nvtool finds NVIDIA's command-line tools (compute-sanitizer, ncu, nsys) and the GPU,
// for the wrappers in tools/sanitize and tools/profile.
package nvtool

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// HasGPU reports whether the machine shows an NVIDIA GPU device node.
func HasGPU() bool {
	m, _ := filepath.Glob("/dev/nvidia[0-9]*")
	return len(m) > 0
}

// Find looks for an NVIDIA tool (compute-sanitizer, ncu, nsys): $envVar, PATH, the toolkit's
// usual homes and /opt/nvidia.
func Find(name, envVar string) string {
	if p := os.Getenv(envVar); p != "" {
		return p
	}
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	var dirs []string
	for _, v := range []string{"CUDA_HOME", "CUDA_PATH"} {
		if d := os.Getenv(v); d != "" {
			dirs = append(dirs, filepath.Join(d, "bin"))
		}
	}
	dirs = append(dirs, "/usr/local/cuda/bin", "/usr/local/cuda/compute-sanitizer")
	for _, d := range dirs {
		if p := filepath.Join(d, name); isExecutable(p) {
			return p
		}
	}
	for _, pattern := range []string{"/opt/nvidia/*/" + name, "/opt/nvidia/*/*/" + name, "/usr/local/cuda-*/bin/" + name} {
		if m, _ := filepath.Glob(pattern); len(m) > 0 {
			return m[len(m)-1]
		}
	}
	return ""
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// RunPlain runs the program as it is, with its exit status.
func RunPlain(args []string) int {
	c := exec.Command(args[0], args[1:]...)
	c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr
	return ExitCode(c.Run())
}

// ExitCode is the exit status of a finished command (1 where it did not run).
func ExitCode(err error) int {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		if ee.ExitCode() >= 0 {
			return ee.ExitCode()
		}
		return 1
	default:
		fmt.Fprintf(os.Stderr, "%v\n", err)
		return 1
	}
}
