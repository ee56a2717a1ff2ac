package cuda

import (
	"fmt"
	"path"

	"github.com/rules-cuda-go/rules_cuda_go/gazelle/cuda/internal/cpp"
)

// compileNeeds are what a cu_library's compiles need, as its code shows (see inferNeeds); each
// string says why, for the log line when the existing rule says otherwise.
type compileNeeds struct {
	// rdc are the reasons for relocatable device code (rdc = True); only for a rule with .cu
	// sources.
	rdc []string
	// asCuda names a C++ source that reaches device code, which only nvcc compiles
	// (host_srcs_as_cuda = True).
	asCuda string
	// lambda is where a source that nvcc compiles reaches a __device__ lambda (--extended-lambda).
	lambda string
	// driver is where a source reaches a driver API call and cuda.h (a dep on the lazily loaded
	// driver API).
	driver string
}

// inferNeeds returns what the compiles of a cu_library with the files srcs and hdrs (of the
// directory, as the rule lists them) need, from the code of its sources and of the repository
// headers they include (see codeFacts):
//   - rdc when a .cu rule's files need relocatable device code (see rdcReasons);
//   - host_srcs_as_cuda when a C++ source (.cc, .cpp, .cxx) reaches device code (a kernel it
//     defines or launches, or one defined in a header it includes), which only nvcc compiles;
//   - --extended-lambda when a source that nvcc compiles reaches a __device__ lambda;
//   - the lazily loaded driver API when a source reaches a driver API call and cuda.h.
func inferNeeds(d *dirInput, srcs, hdrs []string) compileNeeds {
	var n compileNeeds
	for _, f := range srcs {
		if cudaSourceExts[path.Ext(f)] {
			n.rdc = rdcReasons(d, concat(srcs, hdrs))
			break
		}
	}

	type reachedCode struct {
		facts  codeFacts
		path   string
		cudaH  bool
		isHost bool
	}
	var units [][]reachedCode
	for _, f := range srcs {
		ext := path.Ext(f)
		if !cudaSourceExts[ext] && !hostSourceExts[ext] {
			continue
		}
		if !d.srcs.file(f).readable() {
			continue
		}
		self := path.Join(d.rel, f)
		files := []string{self}
		cudaH := false
		d.walkIncludes(f, func(_ string, inc cpp.Include, located string, found bool) bool {
			if found {
				files = append(files, located)
			} else if inc.Path == "cuda.h" || inc.Path == "cudaTypedefs.h" {
				cudaH = true
			}
			return true
		})
		var unit []reachedCode
		for _, p := range files {
			unit = append(unit, reachedCode{facts: d.codeFacts.of(p), path: p, cudaH: cudaH, isHost: hostSourceExts[ext] && ext != ".c"})
		}
		units = append(units, unit)
	}
	for _, unit := range units {
		for _, c := range unit {
			if c.isHost && c.facts.DeviceCode > 0 && n.asCuda == "" {
				n.asCuda = fmt.Sprintf("%s reaches device code (%s:%d)", unit[0].path, c.path, c.facts.DeviceCode)
			}
			if c.cudaH && c.facts.DriverCall > 0 && n.driver == "" {
				n.driver = fmt.Sprintf("%s:%d", c.path, c.facts.DriverCall)
			}
		}
	}
	for _, unit := range units {
		if !unit[0].isHost || n.asCuda != "" {
			for _, c := range unit {
				if c.facts.ExtendedLambda > 0 && n.lambda == "" {
					n.lambda = fmt.Sprintf("%s:%d", c.path, c.facts.ExtendedLambda)
				}
			}
		}
	}
	return n
}

// rdcReasons returns why files (of the directory) need relocatable device code: kernel launches
// from device code (dynamic parallelism), and declarations of device functions and variables
// that the declaring file does not define (device code shared across files).
func rdcReasons(d *dirInput, files []string) []string {
	var reasons []string
	for _, f := range files {
		ext := path.Ext(f)
		if ext != ".cu" && !headerExts[ext] {
			continue
		}
		sf := d.srcs.file(f)
		if !sf.readable() {
			continue
		}
		facts := sf.facts()
		p := path.Join(d.rel, f)
		if len(facts.DeviceLaunches) > 0 {
			reasons = append(reasons, fmt.Sprintf("%s:%d launches a kernel from device code", p, facts.DeviceLaunches[0]))
		}
		if len(facts.ExternDevice) > 0 {
			reasons = append(reasons, fmt.Sprintf("%s:%d declares device code defined in another file", p, facts.ExternDevice[0]))
		}
	}
	return reasons
}
