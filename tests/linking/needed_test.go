// Package linking checks how programs built with the rules link the CUDA libraries: each program
// records in NEEDED only the CUDA libraries it calls, each by its major soname (libcufft.so.12,
// which any release of that major version provides, never libnvrtc-builtins.so.13.2), and starts
// on a machine without a GPU.
package linking

import (
	"debug/elf"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// binaries maps a program's name to its path (-binary=name=path, repeated).
type binaries map[string]string

func (b binaries) String() string { return fmt.Sprint(map[string]string(b)) }

func (b binaries) Set(v string) error {
	name, path, ok := strings.Cut(v, "=")
	if !ok || name == "" || path == "" {
		return fmt.Errorf("-binary=%q: want NAME=PATH", v)
	}
	b[name] = path
	return nil
}

var programs = binaries{}

func init() {
	flag.Var(programs, "binary", "NAME=PATH of a program to check (repeated)")
}

// want is, per program, the stems of the CUDA libraries it calls, and whether to run it here (the
// Go test is only linked: running it is //tests:all's business; NVML needs the driver).
var want = map[string]struct {
	needed []string
	run    bool
}{
	// Depends on cuBLAS, cuFFT and NVRTC, calls cuFFT.
	"only_cufft": {needed: []string{"libcufft"}, run: true},
	// cuSOLVER's own needs (cuBLAS, cuSPARSE, nvJitLink) are found beside it, not NEEDED here.
	"only_cusolver": {needed: []string{"libcusolver"}, run: true},
	// NVRTC loads its builtins itself: they are not NEEDED.
	"nvrtc_compile": {needed: []string{"libnvrtc"}, run: true},
	// cgo: a go_test whose cu_library calls cuBLAS, cuRAND and NVRTC.
	"libs_test": {needed: []string{"libcublas", "libcurand", "libnvrtc"}},
	// cgo: ops/cuda/jit compiling with NVRTC; runs without a GPU.
	"jitcompile": {needed: []string{"libnvrtc"}, run: true},
	// The profiler API through the static runtime: no CUDA library at all.
	"profiler": {needed: nil, run: true},
	// NVML: the driver's library, by its soname (it starts only where the driver is).
	"nvml_link": {needed: []string{"libnvidia-ml"}},
	// The driver API loaded on first use (@cuda//:cuda_driver_lazy): no libcuda.so.1 in NEEDED,
	// and it runs with or without a driver.
	"driver_lazy": {needed: nil, run: true},
}

// system are the stems of the C and C++ runtime libraries, which any program may need.
var system = map[string]bool{
	"libc": true, "libm": true, "libdl": true, "libpthread": true, "librt": true,
	"libstdc++": true, "libgcc_s": true, "ld-linux-x86-64": true,
}

// majorSoname is a soname with one version number: libcublas.so.13.
var majorSoname = regexp.MustCompile(`^lib[^/]+\.so\.[0-9]+$`)

// cuda11Sonames are the sonames NVIDIA gave CUDA 11's libraries with a minor version in them; any
// CUDA 11 release provides them (a local toolkit may be CUDA 11).
var cuda11Sonames = map[string]bool{"libnvrtc.so.11.2": true, "libcudart.so.11.0": true}

func stem(soname string) string {
	if i := strings.Index(soname, ".so"); i >= 0 {
		return soname[:i]
	}
	return soname
}

func TestNeeded(t *testing.T) {
	if len(programs) == 0 {
		t.Fatal("no -binary flags: run through bazel test //tests/linking:linking_test")
	}
	for name, path := range programs {
		w, ok := want[name]
		if !ok {
			t.Errorf("-binary=%s: no expectation for it in want", name)
			continue
		}
		if root := os.Getenv("TEST_SRCDIR"); root != "" && !filepath.IsAbs(path) {
			path = filepath.Join(root, os.Getenv("TEST_WORKSPACE"), path) // a rootpath
		}
		t.Run(name, func(t *testing.T) {
			f, err := elf.Open(path)
			if err != nil {
				t.Fatalf("reading %s: %v", path, err)
			}
			defer f.Close()
			needed, err := f.ImportedLibraries()
			if err != nil {
				t.Fatalf("NEEDED of %s: %v", path, err)
			}
			var cuda []string
			for _, n := range needed {
				if system[stem(n)] {
					continue
				}
				cuda = append(cuda, stem(n))
				if !majorSoname.MatchString(n) && !cuda11Sonames[n] {
					t.Errorf("%s NEEDs %s: a library must be needed by its major soname (lib<name>.so.<major>), which every release of that major version provides", name, n)
				}
			}
			sort.Strings(cuda)
			exp := append([]string(nil), w.needed...)
			sort.Strings(exp)
			if strings.Join(cuda, " ") != strings.Join(exp, " ") {
				t.Errorf("%s NEEDs the CUDA libraries %q (all NEEDED: %q), want %q: only the libraries it calls", name, cuda, needed, exp)
			}
			if !w.run {
				return
			}
			out, err := exec.Command(path).CombinedOutput()
			if err != nil {
				t.Fatalf("running %s: %v\n%s", path, err, out)
			}
			t.Logf("%s: %s", name, strings.TrimSpace(string(out)))
		})
	}
	for name := range want {
		if _, ok := programs[name]; !ok {
			t.Errorf("no -binary=%s=PATH: every program in want must be checked", name)
		}
	}
}
