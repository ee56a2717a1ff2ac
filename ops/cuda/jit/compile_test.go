package jit

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var cuobjdump = flag.String("cuobjdump", "", "rootpath of the toolkit's cuobjdump (set under Bazel)")

// scaleSrc is a templated kernel that uses CCCL (libcu++) from the toolkit's headers and an
// in-memory header.
const scaleSrc = `#include <cuda/std/type_traits>
#include "scale_params.h"

template <typename T>
__global__ void scale(T* y, const T* x, T a, long long n) {
  static_assert(cuda::std::is_floating_point<T>::value, "floating point only");
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + SCALE_OFFSET;
}
`

func scaleProgram() Program {
	return Program{
		Name:            "scale.cu",
		Source:          scaleSrc,
		Headers:         map[string]string{"scale_params.h": "#define SCALE_OFFSET T(0)\n"},
		NameExpressions: []string{"scale<float>", "scale<double>"},
		Options:         []string{"-std=c++17"},
	}
}

func TestVersionAndSupportedArchs(t *testing.T) {
	v, err := Version()
	if err != nil || v == "" {
		t.Fatalf("Version() = %q, %v", v, err)
	}
	archs, err := SupportedArchs()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []int{80, 90} {
		if !slices.Contains(archs, want) {
			t.Errorf("NVRTC %s supports %v, which lacks %d", v, archs, want)
		}
	}
	t.Logf("NVRTC %s, archs %v, toolkit include dirs %v", v, archs, ToolkitIncludeDirs())
}

func TestParseArch(t *testing.T) {
	for in, want := range map[string]Arch{"sm_90": "sm_90", "compute_80": "sm_80", "9.0": "sm_90", "9.0a": "sm_90a",
		"sm_90a": "sm_90a", "12.0": "sm_120", "100": "sm_100", "sm_100f": "sm_100f", "8.6": ArchOf(8, 6)} {
		if got, err := ParseArch(in); err != nil || got != want {
			t.Errorf("ParseArch(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "sm_9", "hopper", "9", "sm_90x", "9.0.1"} {
		if got, err := ParseArch(bad); err == nil {
			t.Errorf("ParseArch(%q) = %q, want an error", bad, got)
		}
	}
}

// elfInfo returns what the toolkit's cuobjdump -elf says about a CUBIN: its header line
// ("64-bit ELF: type=ET_EXEC, ABI=8, sm=90, ...") and the whole listing (section names hold the
// kernels' names). -elf needs no nvdisasm (-sass would run whichever nvdisasm is on PATH).
func elfInfo(t *testing.T, code []byte) (header, listing string) {
	t.Helper()
	if *cuobjdump == "" {
		t.Skip("no -cuobjdump: run under Bazel (bazel test //ops/cuda/jit:jit_test)")
	}
	bin := *cuobjdump
	if !filepath.IsAbs(bin) {
		bin = filepath.Join(os.Getenv("TEST_SRCDIR"), os.Getenv("TEST_WORKSPACE"), bin)
	}
	path := filepath.Join(t.TempDir(), "image.cubin")
	if err := os.WriteFile(path, code, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "-elf", path).CombinedOutput()
	if err != nil {
		t.Fatalf("cuobjdump -elf: %v\n%s", err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		// CUDA 12 and later print "... ELF: type=2, ...", 11.8 "64bit elf: type=2, ...".
		if strings.Contains(strings.ToLower(line), "elf: type=") {
			return line, string(out)
		}
	}
	t.Fatalf("cuobjdump -elf printed no ELF header line:\n%.500s", out)
	return "", ""
}

func TestCompileCUBIN(t *testing.T) {
	archs := []Arch{"sm_80", "sm_90"}
	if v, _ := Version(); !strings.HasPrefix(v, "11.") {
		archs = append(archs, "sm_90a") // arch-specific targets came with CUDA 12
	}
	for _, arch := range archs {
		im, err := Compile(scaleProgram(), arch, CUBIN)
		if err != nil {
			t.Fatalf("Compile(%s): %v", arch, err)
		}
		if !bytes.HasPrefix(im.Code, []byte("\x7fELF")) || len(im.Code) < 20 || binary.LittleEndian.Uint16(im.Code[18:]) != 190 {
			t.Fatalf("%s: the CUBIN (%d bytes) is not a CUDA ELF (EM_CUDA = 190)", arch, len(im.Code))
		}
		const mangled = "_Z5scaleIfEvPT_PKS0_S0_x" // void scale<float>(float*, const float*, float, long long)
		if got := im.Kernel("scale<float>"); got != mangled || !bytes.Contains(im.Code, []byte(mangled)) {
			t.Errorf("%s: scale<float> lowered to %q, want %q in the image", arch, got, mangled)
		}
		if got := im.Kernel("plain_c_kernel"); got != "plain_c_kernel" {
			t.Errorf("Kernel of a name that is no name expression = %q", got)
		}
		header, listing := elfInfo(t, im.Code)
		if !strings.Contains(header+",", " sm="+strings.TrimPrefix(string(arch), "sm_")+",") || !strings.Contains(listing, ".text."+mangled) {
			t.Errorf("cuobjdump -elf of the %s CUBIN: %q; want sm=%s and the section .text.%s", arch, header, strings.TrimPrefix(string(arch), "sm_"), mangled)
		}
		if im.Format != CUBIN || im.Arch != arch || im.NVRTC == "" {
			t.Errorf("image says %v %v NVRTC %q", im.Format, im.Arch, im.NVRTC)
		}
	}
}

func TestCompilePTX(t *testing.T) {
	im, err := Compile(scaleProgram(), "sm_90", PTX)
	if err != nil {
		t.Fatal(err)
	}
	text := string(im.Code)
	for _, want := range []string{".target sm_90", ".entry " + im.Kernel("scale<double>")} {
		if !strings.Contains(text, want) {
			t.Errorf("PTX lacks %q:\n%s", want, text)
		}
	}
	if bytes.IndexByte(im.Code, 0) >= 0 {
		t.Errorf("PTX text contains a NUL byte")
	}
}

// brokenSrc fails on line 4, in a header on line 2.
const brokenSrc = `#include "helper.h"
extern "C" __global__ void broken(float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = helper(undeclared_offset);
}
`

func TestCompileError(t *testing.T) {
	p := Program{Name: "broken.cu", Source: brokenSrc, Headers: map[string]string{
		"helper.h": "__device__ float helper(float x) {\n  return x * not_declared_either;\n}\n"}}
	_, err := Compile(p, "sm_90", CUBIN)
	var ce *CompileError
	if !errors.As(err, &ce) {
		t.Fatalf("Compile of broken source: %v, want a *CompileError", err)
	}
	if len(ce.Diagnostics) == 0 {
		t.Fatalf("no diagnostics parsed from the log:\n%s", ce.Log)
	}
	want := map[string]int{"broken.cu": 4, "helper.h": 2}
	got := map[string]int{}
	for _, d := range ce.Diagnostics {
		if d.Severity == "error" {
			got[d.File] = d.Line
		}
	}
	for file, line := range want {
		if got[file] != line {
			t.Errorf("no error at %s(%d) among %v\nlog:\n%s", file, line, ce.Diagnostics, ce.Log)
		}
	}
	msg := err.Error()
	if !strings.Contains(msg, "(and 1 more errors)") || !strings.Contains(msg, ce.Diagnostics[0].String()) || ce.Arch != "sm_90" {
		t.Errorf("error message %q lacks the first error's place and text", msg)
	}
	t.Logf("%v", err)
}

func TestCompileBadInput(t *testing.T) {
	good := scaleProgram()
	cases := map[string]func() error{
		"empty source":  func() error { _, err := Compile(Program{Source: "  "}, "sm_90", CUBIN); return err },
		"NUL in source": func() error { _, err := Compile(Program{Source: "a\x00b"}, "sm_90", CUBIN); return err },
		"arch option": func() error {
			p := good
			p.Options = []string{"-arch=sm_80"}
			_, err := Compile(p, "sm_90", CUBIN)
			return err
		},
		"repeated name expr": func() error {
			p := good
			p.NameExpressions = []string{"scale<float>", "scale<float>"}
			_, err := Compile(p, "sm_90", CUBIN)
			return err
		},
		"invalid arch":     func() error { _, err := Compile(good, "hopper", CUBIN); return err },
		"unsupported arch": func() error { _, err := Compile(good, "sm_20", CUBIN); return err },
		"invalid format":   func() error { _, err := Compile(good, "sm_90", Format(7)); return err },
		"bad option": func() error {
			p := good
			p.Options = []string{"--no-such-option"}
			_, err := Compile(p, "sm_90", CUBIN)
			var nerr *Error
			if !errors.As(err, &nerr) || nerr.Code == nvrtcCompilation {
				return nil // want an NVRTC API error (invalid option), not a compile error
			}
			return err
		},
		"unknown name expr": func() error {
			p := good
			p.NameExpressions = []string{"no_such_kernel<int>"}
			_, err := Compile(p, "sm_90", CUBIN)
			return err
		},
	}
	for name, f := range cases {
		if err := f(); err == nil {
			t.Errorf("%s: no error", name)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
}

func ExampleCompile() {
	p := Program{
		Name:            "axpy.cu",
		Source:          "template <typename T>\n__global__ void axpy(T* y, const T* x, T a, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) y[i] += a * x[i];\n}\n",
		NameExpressions: []string{"axpy<float>"},
	}
	im, err := Compile(p, ArchOf(9, 0), CUBIN)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(im.Format, im.Arch, im.Kernel("axpy<float>"))
	// Output: cubin sm_90 _Z4axpyIfEvPT_PKS0_S0_i
}

func TestParseLog(t *testing.T) {
	log := "k.cu(7): warning #177-D: variable \"u\" was declared but never referenced\n" +
		"  int u;\n      ^\n\n" +
		"Remark: The warnings can be suppressed with \"-diag-suppress <warning-number>\"\n\n" +
		"dir/h.cuh(12): error: expected a \";\"\n" +
		"k.cu(3): catastrophic error: cannot open source file \"missing.h\"\n" +
		"2 errors detected in the compilation of \"k.cu\".\n"
	got := parseLog(log)
	want := []Diagnostic{
		{File: "dir/h.cuh", Line: 12, Severity: "error", Message: `expected a ";"`},
		{File: "k.cu", Line: 3, Severity: "catastrophic error", Message: `cannot open source file "missing.h"`},
		{File: "k.cu", Line: 7, Severity: "warning", Message: `variable "u" was declared but never referenced`},
	}
	if !slices.Equal(got, want) {
		t.Errorf("parseLog:\n got %v\nwant %v", got, want)
	}
	e := &CompileError{Program: "k.cu", Arch: "sm_90", Log: log, Diagnostics: got}
	if msg := e.Error(); msg != `jit: compiling k.cu for sm_90: dir/h.cuh(12): error: expected a ";" (and 1 more errors)` {
		t.Errorf("Error() = %q", msg)
	}
}
