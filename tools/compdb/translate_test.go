package main

import (
	"slices"
	"strings"
	"testing"
)

// nvccArgs is an nvcc compile's command line after nvcc itself.
var nvccArgs = []string{
	"-x", "cu", "-c", "ops/x/x.cu", "-o", "bazel-out/k8-opt/bin/ops/x/_objs/x.o",
	"-ccbin", "/usr/bin/gcc", "-Xcompiler", "--sysroot=/ob/external/sysroot", "-Xcompiler", "-fPIC", "-objtemp",
	"-Xcudafe", "--orig_src_path_name=ops/x/x.cu",
	"-gencode=arch=compute_80,code=sm_80", "-gencode=arch=compute_90,code=sm_90", "-gencode=arch=compute_90,code=compute_90",
	"-O3", "-lineinfo", "-rdc=true", "--use_fast_math", "-DFOO=1", "-I.", "-Ibazel-out/k8-opt/bin",
	"-isystem", "external/cuda_cudart/include", "--expt-relaxed-constexpr", "-Xptxas", "-v",
}

func TestTranslateNvcc(t *testing.T) {
	// One nvcc action per source, and the host action of a split compile, which carries the whole
	// compile's command line after nvcc_split.sh's "--".
	for _, a := range []action{
		{Mnemonic: "NvccCompile", Arguments: append([]string{"external/cuda_nvcc/bin/nvcc"}, nvccArgs...)},
		{Mnemonic: "NvccHost", Arguments: append([]string{"toolchains/private/nvcc_split.sh", "host", "external/cuda_nvcc/bin/nvcc",
			"bazel-out/k8-opt/bin/ops/x/_objs/x.o.device/x.o.stub.c", "bazel-out/k8-opt/bin/ops/x/_objs/x.o.device/x.o.host.s",
			"bazel-out/k8-opt/bin/ops/x/_objs/x.o.device/x.o.standin.fatbin.c", "elf:90=bazel-out/k8-opt/bin/ops/x/_objs/x.o.device/x.o.compute_90.cubin", "--"}, nvccArgs...)},
	} {
		t.Run(a.Mnemonic, func(t *testing.T) { checkNvccEntry(t, a) })
	}
	if _, err := translateNvcc(action{Mnemonic: "NvccHost", Arguments: []string{"nvcc_split.sh", "host", "nvcc"}}, options{}); err == nil {
		t.Error("an NvccHost action without -- translated without an error")
	}
}

func checkNvccEntry(t *testing.T, a action) {
	t.Helper()
	e, err := translateNvcc(a, options{execRoot: "/exec", outputBase: "/ob", clang: "clang++", maxArch: 86})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"clang++", "-x", "cuda", "--cuda-path=/ob/external/cuda_nvcc", "--no-cuda-version-check", "-nocudalib",
		"--cuda-gpu-arch=sm_86", "-fgpu-rdc", "-std=c++17", "--sysroot=/ob/external/sysroot", "-fPIC", "-O3", "-ffast-math",
		"-DFOO=1", "-I.", "-Ibazel-out/k8-opt/bin", "-isystem", "/ob/external/cuda_cudart/include",
		"-c", "ops/x/x.cu", "-o", "bazel-out/k8-opt/bin/ops/x/_objs/x.o"}
	if !slices.Equal(e.Arguments, want) {
		t.Errorf("arguments:\n got %q\nwant %q", e.Arguments, want)
	}
	if e.File != "ops/x/x.cu" || e.Directory != "/exec" {
		t.Errorf("entry = %+v", e)
	}
}

func TestTranslateCgoAndDedup(t *testing.T) {
	acts := []action{
		{Mnemonic: "GoCompilePkg", Arguments: []string{"builder", "compilepkg", "-src", "p/a.go", "-src", "p/b.c", "-src", "p/b.h",
			"-cppflags", "-Ip -D'X=a b'", "-cflags", "-O2 -fno-canonical-system-headers"}},
		{Mnemonic: "GoCompilePkg", Arguments: []string{"builder", "compilepkg", "-src", "p/b.c"}},
	}
	es, errs := translate(acts, options{execRoot: "/e", clang: "clang++"})
	if len(errs) > 0 || len(es) != 1 {
		t.Fatalf("translate = %+v, %v; want one entry", es, errs)
	}
	want := "clang -x c -Ip -DX=a b -O2 -c p/b.c"
	if got := strings.Join(es[0].Arguments, " "); got != want {
		t.Errorf("cgo entry %q, want %q", got, want)
	}
}
