package cuda

import (
	"fmt"
	"log"
	"os"
	"path"
	"path/filepath"
	"strings"

	bzl "github.com/bazelbuild/buildtools/build"

	"github.com/bazelbuild/bazel-gazelle/rule"

	"github.com/rules-cuda-go/rules_cuda_go/gazelle/cuda/internal/cpp"
)

// wantsLibrary reports whether the directory gets a cu_library: it has .cu or .cuh files; or it
// is an include directory (see isIncludeDir) with headers; or its headers or host sources
// (.cc, .cpp, .cxx), or the repository's headers they include, include a CUDA toolkit header or
// a .cuh header. A directory of plain C++ gets nothing.
func (g *generator) wantsLibrary() bool {
	if g.hasCuda {
		return true
	}
	if len(g.headers) > 0 && g.isIncludeDir() {
		return true
	}
	for _, f := range append(append([]string(nil), g.headers...), g.hostSrcs...) {
		cuda := false
		g.walkIncludes(f, func(_ string, inc cpp.Include, _ string, _ bool) bool {
			_, toolkit := toolkitHeader(inc.Path)
			cuda = toolkit || path.Ext(inc.Path) == ".cuh"
			return !cuda
		})
		if cuda {
			return true
		}
	}
	return false
}

// isIncludeDir reports whether the directory is one that other code includes headers from by
// their names alone: the directory of a cuda_include_dir directive, or a directory named include
// or inc next to CUDA code (its parent or a sibling directory has .cu or .cuh files).
func (g *generator) isIncludeDir() bool {
	if g.cc.isIncludeDir(g.args.Rel) {
		return true
	}
	base := path.Base(g.args.Rel)
	if g.args.Rel == "" || (base != "include" && base != "inc") {
		return false
	}
	parent := filepath.Dir(g.args.Dir)
	if hasCudaFiles(parent) {
		return true
	}
	entries, err := os.ReadDir(parent)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.IsDir() && e.Name() != base && hasCudaFiles(filepath.Join(parent, e.Name())) {
			return true
		}
	}
	return false
}

func hasCudaFiles(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if ext := path.Ext(e.Name()); !e.IsDir() && (ext == ".cu" || ext == ".cuh") {
			return true
		}
	}
	return false
}

// inferRdc sets rdc = True on r when its files need relocatable device code (see rdcReasons)
// and it has .cu sources. An rdc attribute of the existing rule old is the user's and stays;
// when it says False and the code needs rdc, a log line says why the build will fail.
func (g *generator) inferRdc(r, old *rule.Rule) {
	hasCu := false
	for _, f := range r.AttrStrings("srcs") {
		hasCu = hasCu || cudaSourceExts[path.Ext(f)]
	}
	if !hasCu {
		return
	}
	reasons := g.rdcReasons(r)
	if len(reasons) == 0 {
		return
	}
	if old != nil && old.Attr("rdc") != nil {
		if id, ok := old.Attr("rdc").(*bzl.Ident); ok && id.Name == "False" {
			log.Printf("%s: cu_library %s has rdc = False, but %s: nvcc needs relocatable device code (rdc = True) for that", g.buildPath(), r.Name(), strings.Join(reasons, "; "))
		}
		return
	}
	r.SetAttr("rdc", true)
}

// rdcReasons returns why the sources and headers of r need relocatable device code: kernel
// launches from device code (dynamic parallelism), and declarations of device functions and
// variables that the declaring file does not define (device code shared across files).
func (g *generator) rdcReasons(r *rule.Rule) []string {
	var reasons []string
	for _, f := range append(r.AttrStrings("srcs"), r.AttrStrings("hdrs")...) {
		ext := path.Ext(f)
		if ext != ".cu" && !headerExts[ext] {
			continue
		}
		src, ok := g.read(f)
		if !ok {
			continue
		}
		facts := cpp.ScanSource(src)
		p := path.Join(g.args.Rel, f)
		if len(facts.DeviceLaunches) > 0 {
			reasons = append(reasons, fmt.Sprintf("%s:%d launches a kernel from device code", p, facts.DeviceLaunches[0]))
		}
		if len(facts.ExternDevice) > 0 {
			reasons = append(reasons, fmt.Sprintf("%s:%d declares device code defined in another file", p, facts.ExternDevice[0]))
		}
	}
	return reasons
}

// driverLazyTarget is the toolkit target of the driver API loaded on first use: programs that
// call it start without the NVIDIA driver.
const driverLazyTarget = ToolkitRepo + "//:cuda_driver_lazy"

// extendedLambdaFlags are the nvcc flags that allow __device__ lambdas.
var extendedLambdaFlags = []string{"--extended-lambda", "--expt-extended-lambda", "-extended-lambda", "-expt-extended-lambda"}

// inferCompile sets what r's compiles need, from the code of its sources and of the repository
// headers they include (see codeFacts):
//   - host_srcs_as_cuda = True when a C++ source (.cc, .cpp, .cxx) reaches device code (a kernel
//     it defines or launches, or one defined in a header it includes), which only nvcc compiles;
//   - copts = ["--extended-lambda"] when a source that nvcc compiles reaches a __device__ lambda;
//   - a dep on the lazily loaded driver API when a source reaches a driver API call and cuda.h.
//
// An attribute of the existing rule old is the user's and stays; a log line says when it
// contradicts the code.
func (g *generator) inferCompile(r, old *rule.Rule, u *libUnit) {
	type reachedCode struct {
		facts  codeFacts
		path   string
		cudaH  bool
		isHost bool
	}
	var units [][]reachedCode
	for _, f := range r.AttrStrings("srcs") {
		ext := path.Ext(f)
		if !cudaSourceExts[ext] && !hostSourceExts[ext] {
			continue
		}
		if _, ok := g.read(f); !ok {
			continue
		}
		self := path.Join(g.args.Rel, f)
		files := []string{self}
		cudaH := false
		g.walkIncludes(f, func(_ string, inc cpp.Include, located string, found bool) bool {
			if found {
				files = append(files, located)
			} else if inc.Path == "cuda.h" || inc.Path == "cudaTypedefs.h" {
				cudaH = true
			}
			return true
		})
		var unit []reachedCode
		for _, p := range files {
			unit = append(unit, reachedCode{facts: g.pp.codeFacts(p), path: p, cudaH: cudaH, isHost: hostSourceExts[ext] && ext != ".c"})
		}
		units = append(units, unit)
	}
	var device, lambda, driver string
	for _, unit := range units {
		for _, c := range unit {
			if c.isHost && c.facts.DeviceCode > 0 && device == "" {
				device = fmt.Sprintf("%s reaches device code (%s:%d)", unit[0].path, c.path, c.facts.DeviceCode)
			}
			if c.cudaH && c.facts.DriverCall > 0 && driver == "" {
				driver = fmt.Sprintf("%s:%d", c.path, c.facts.DriverCall)
			}
		}
	}
	asCuda := device != ""
	if asCuda {
		if old == nil || old.Attr("host_srcs_as_cuda") == nil {
			r.SetAttr("host_srcs_as_cuda", true)
		} else if id, ok := old.Attr("host_srcs_as_cuda").(*bzl.Ident); ok && id.Name == "False" {
			log.Printf("%s: cu_library %s has host_srcs_as_cuda = False, but %s: only nvcc compiles that (host_srcs_as_cuda = True)", g.buildPath(), r.Name(), device)
		}
	}
	for _, unit := range units {
		if !unit[0].isHost || asCuda {
			for _, c := range unit {
				if c.facts.ExtendedLambda > 0 && lambda == "" {
					lambda = fmt.Sprintf("%s:%d", c.path, c.facts.ExtendedLambda)
				}
			}
		}
	}
	if lambda != "" {
		g.inferExtendedLambda(r, old, lambda)
	}
	if driver != "" {
		u.deps = append(append([]string(nil), u.deps...), driverLazyTarget)
	}
}

// inferExtendedLambda adds --extended-lambda to r's copts for the __device__ lambda at where,
// unless the existing rule old has copts of its own (then a log line says what is missing).
func (g *generator) inferExtendedLambda(r, old *rule.Rule, where string) {
	has := func(copts []string) bool {
		for _, c := range copts {
			for _, f := range extendedLambdaFlags {
				if c == f {
					return true
				}
			}
		}
		return false
	}
	if old != nil && old.Attr("copts") != nil && len(g.cc.compile.copts) == 0 {
		if !has(old.AttrStrings("copts")) {
			log.Printf("%s: cu_library %s compiles a __device__ lambda (%s), but its copts lack --extended-lambda: nvcc rejects it without", g.buildPath(), r.Name(), where)
		}
		return
	}
	copts := r.AttrStrings("copts")
	if len(g.cc.compile.copts) > 0 {
		copts = nil // the directive's copts replace inherited ones (see applyCompileFlags)
	}
	if has(copts) || (r.Attr("copts") != nil && copts == nil && len(g.cc.compile.copts) == 0) {
		return // there already, or copts inherited as an expression gazelle does not edit
	}
	r.SetAttr("copts", append(copts, "--extended-lambda"))
}
