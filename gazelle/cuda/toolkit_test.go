package cuda

import (
	"os"
	"path"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/bazelbuild/buildtools/build"
)

// The hub's library table and the pinned versions, read by the tests below (data of cuda_test).
const (
	componentsBzl = "../../toolchains/private/components.bzl"
	versionsBzl   = "../../toolchains/versions.bzl"
)

// hubLibrary is an entry of LIBRARIES in components.bzl: @cuda//:<name>.
type hubLibrary struct {
	component                 string
	shared, static, runtimeFs []string
}

// hubLibraries parses the LIBRARIES dict of components.bzl (a literal of _lib(...) calls).
func hubLibraries(t *testing.T) map[string]hubLibrary {
	t.Helper()
	data, err := os.ReadFile(componentsBzl)
	if err != nil {
		t.Fatalf("reading the hub's library table: %v", err)
	}
	f, err := build.ParseBzl(componentsBzl, data)
	if err != nil {
		t.Fatal(err)
	}
	strs := func(e build.Expr) []string {
		l, ok := e.(*build.ListExpr)
		if !ok {
			t.Fatalf("%s: %s is not a list literal", componentsBzl, build.FormatString(e))
		}
		var out []string
		for _, x := range l.List {
			s, ok := x.(*build.StringExpr)
			if !ok {
				t.Fatalf("%s: %s is not a string literal", componentsBzl, build.FormatString(x))
			}
			out = append(out, s.Value)
		}
		return out
	}
	libs := map[string]hubLibrary{}
	for _, stmt := range f.Stmt {
		as, ok := stmt.(*build.AssignExpr)
		if !ok {
			continue
		}
		if id, ok := as.LHS.(*build.Ident); !ok || id.Name != "LIBRARIES" {
			continue
		}
		d, ok := as.RHS.(*build.DictExpr)
		if !ok {
			t.Fatalf("%s: LIBRARIES is not a dict literal", componentsBzl)
		}
		for _, kv := range d.List {
			name := kv.Key.(*build.StringExpr).Value
			call, ok := kv.Value.(*build.CallExpr)
			if !ok || len(call.List) == 0 {
				t.Fatalf("%s: LIBRARIES[%q] is not a _lib(...) call", componentsBzl, name)
			}
			var lib hubLibrary
			for _, arg := range call.List {
				switch a := arg.(type) {
				case *build.StringExpr:
					lib.component = a.Value
				case *build.AssignExpr:
					switch a.LHS.(*build.Ident).Name {
					case "shared":
						lib.shared = strs(a.RHS)
					case "static":
						lib.static = strs(a.RHS)
					case "runtime":
						lib.runtimeFs = strs(a.RHS)
					}
				}
			}
			libs[name] = lib
		}
	}
	if len(libs) == 0 {
		t.Fatalf("%s: no LIBRARIES = {...}", componentsBzl)
	}
	return libs
}

// defaultVersion reads DEFAULT_CUDA_VERSION from versions.bzl.
func defaultVersion(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(versionsBzl)
	if err != nil {
		t.Fatalf("reading the pinned versions: %v", err)
	}
	m := regexp.MustCompile(`(?m)^DEFAULT_CUDA_VERSION = "([^"]+)"`).FindSubmatch(data)
	if m == nil {
		t.Fatalf("%s: no DEFAULT_CUDA_VERSION", versionsBzl)
	}
	return string(m[1])
}

// componentHas reports whether component has the file at p (include/x.h, lib/libx.so.1) in
// version ("" for any pinned version).
func componentHas(files []toolkitFile, component, p, version string) bool {
	for _, f := range files {
		if f.component == component && f.path == p && (version == "" || contains(f.versions, version)) {
			return true
		}
	}
	return false
}

// TestToolkitTableTargetsExist: every @cuda target the header table names is a library of the
// hub, of the component it is named for; every header named on its own is that component's; and
// in the default toolkit each such library has its files (a table entry the hub does not provide
// fails here).
func TestToolkitTableTargetsExist(t *testing.T) {
	libs := hubLibraries(t)
	files := toolkitFileLines(toolkitFiles)
	def := defaultVersion(t)
	check := func(what, component, target string) {
		lib, ok := libs[target]
		if !ok {
			t.Errorf("%s names @cuda//:%s, which components.bzl's LIBRARIES does not declare", what, target)
			return
		}
		if component != "" && lib.component != component {
			t.Errorf("%s names @cuda//:%s, a library of component %s, not %s", what, target, lib.component, component)
		}
		for _, pat := range append(append(append([]string(nil), lib.shared...), lib.static...), lib.runtimeFs...) {
			found := false
			for _, f := range files {
				name, ok := strings.CutPrefix(f.path, "lib/")
				if ok && f.component == lib.component && contains(f.versions, def) && !strings.Contains(name, ".alt.so") {
					if m, _ := path.Match(pat, name); m {
						found = true
					}
				}
			}
			if !found {
				t.Errorf("%s names @cuda//:%s, but CUDA %s's %s component has no lib/%s", what, target, def, lib.component, pat)
			}
		}
	}
	for component, target := range componentTargets {
		if target == "" {
			if !contains(alwaysOnComponents, component) {
				t.Errorf("componentTargets[%q] is \"\" (always on the compile line), but %s is not in alwaysOnComponents", component, component)
			}
			continue
		}
		check("componentTargets["+component+"]", component, target)
	}
	for header, target := range headerTargets {
		check("headerTargets["+header+"]", "", target)
		if !componentHas(files, libs[target].component, "include/"+header, "") {
			t.Errorf("headerTargets[%q] names @cuda//:%s, but no pinned %s component has include/%s", header, target, libs[target].component, header)
		}
	}
}

// TestToolkitHeadersMapToTheirComponent: every header of every pinned component is a toolkit
// header for Gazelle, and the target it names is of a component that has the header (or none, for
// a header of a component on every compile line).
func TestToolkitHeadersMapToTheirComponent(t *testing.T) {
	libs := hubLibraries(t)
	comps := map[string][]string{}
	for _, f := range toolkitFileLines(toolkitFiles) {
		if name, ok := strings.CutPrefix(f.path, "include/"); ok {
			comps[name] = append(comps[name], f.component)
		}
	}
	if len(comps) < 300 {
		t.Fatalf("toolkit_files.txt lists %d headers: regenerate it with bazel run //tools/cudapins -- contents", len(comps))
	}
	names := make([]string, 0, len(comps))
	for n := range comps {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		include := strings.TrimSuffix(name, "/") + "/x.h" // a header inside a listed directory
		if !strings.HasSuffix(name, "/") {
			include = name
		}
		target, ok := toolkitHeader(include)
		if !ok {
			t.Errorf("%s (component %s) is not a toolkit header for Gazelle: add its component to componentTargets", include, strings.Join(comps[name], ", "))
			continue
		}
		if target == "" {
			on := false
			for _, c := range comps[name] {
				on = on || contains(alwaysOnComponents, c)
			}
			if !on {
				t.Errorf("%s is treated as always on the compile line, but its components %v are not", include, comps[name])
			}
			continue
		}
		lib := libs[strings.TrimPrefix(target, ToolkitRepo+"//:")]
		if !contains(comps[name], lib.component) {
			t.Errorf("%s maps to %s (component %q), but only %v have it", include, target, lib.component, comps[name])
		}
	}
}

// TestToolkitHeadersOfAFullInstall: headers that programs include as with a full CUDA install are
// in every pinned toolkit, where Gazelle says they are.
func TestToolkitHeadersOfAFullInstall(t *testing.T) {
	files := toolkitFileLines(toolkitFiles)
	versions := map[string]bool{}
	for _, f := range files {
		for _, v := range f.versions {
			versions[v] = true
		}
	}
	for header, want := range map[string]struct{ component, target string }{
		"cuda_profiler_api.h":    {"cudart", ""},
		"cudaProfiler.h":         {"cudart", ""},
		"cuda_runtime.h":         {"cudart", ""},
		"nvml.h":                 {"nvml", "@cuda//:nvml"},
		"cupti.h":                {"cupti", "@cuda//:cupti"},
		"npp.h":                  {"npp", "@cuda//:npp"},
		"nvjpeg.h":               {"nvjpeg", "@cuda//:nvjpeg"},
		"CL/cl.h":                {"opencl", "@cuda//:opencl"},
		"cufile.h":               {"cufile", "@cuda//:cufile"},
		"nvFatbin.h":             {"nvfatbin", "@cuda//:nvfatbin"},
		"sanitizer.h":            {"sanitizer", "@cuda//:sanitizer"},
		"cublasLt.h":             {"cublas", "@cuda//:cublasLt"},
		"thrust/device_vector.h": {"cccl", ""},
	} {
		for v := range versions {
			if !componentHas(files, want.component, "include/"+header, v) {
				t.Errorf("CUDA %s: the %s component has no %s", v, want.component, header)
			}
		}
		if got, ok := toolkitHeader(header); !ok || got != want.target {
			t.Errorf("ToolkitHeader(%q) = %q, %v; want %q, true", header, got, ok, want.target)
		}
	}
	// Headers of other projects, which the toolkit does not ship.
	for _, header := range []string{"cudnn_frontend.h", "cusparseLt.h", "cutlass/cutlass.h", "helper_cuda.h"} {
		if got, ok := toolkitHeader(header); ok {
			t.Errorf("ToolkitHeader(%q) = %q, true; no pinned toolkit has it", header, got)
		}
	}
}

func TestToolkitHeader(t *testing.T) {
	for include, want := range map[string]string{
		"cuda_runtime.h":            "",
		"cuda_fp16.h":               "",
		"cooperative_groups/scan.h": "",
		"thrust/sort.h":             "",
		"cub/cub.cuh":               "",
		"cuda/std/atomic":           "",
		"cublas_v2.h":               "@cuda//:cublas",
		"cublasLt.h":                "@cuda//:cublasLt",
		"cufftXt.h":                 "@cuda//:cufft",
		"cufftw.h":                  "@cuda//:cufftw",
		"curand_kernel.h":           "@cuda//:curand",
		"cusolverDn.h":              "@cuda//:cusolver",
		"cusparse.h":                "@cuda//:cusparse",
		"nvrtc.h":                   "@cuda//:nvrtc",
		"nvJitLink.h":               "@cuda//:nvjitlink",
		"nvtx3/nvToolsExt.h":        "@cuda//:nvtx",
		"cudnn.h":                   "@cuda//:cudnn",
		"nccl.h":                    "@cuda//:nccl",
	} {
		got, ok := toolkitHeader(include)
		if !ok || got != want {
			t.Errorf("ToolkitHeader(%q) = %q, %v; want %q, true", include, got, ok, want)
		}
	}
	for _, include := range []string{"vector", "helper_cuda.h", "mylib/cuda_utils.h", "nccl_extra.hpp", "cudnn_frontend.h", "cudnn_frontend_utils.h", "cusparseLt.h"} {
		if got, ok := toolkitHeader(include); ok {
			t.Errorf("ToolkitHeader(%q) = %q, true; want not a toolkit header", include, got)
		}
	}
}
