// Command jitbench measures run-time compilation on a GPU: the first-use compile and the warm
// (cached) load of jitsilu's kernels through ops/cuda/jit/jitload, and the launch cost of the
// JIT-compiled forward kernel against the same kernel built by a cu_library. It needs a GPU.
//
// Each phase prints a table and "RESULT name value" lines; -phase=report reads such lines (from
// jitbench and from bench/cmd/jitbench/torch_jit.py, which times
// torch.utils.cpp_extension.load_inline on the same source) and prints the comparison as a
// Markdown table. run_gpu.sh runs the phases, each warm load in a new process.
//
//	jitbench -phase=source > silu.cu          # the kernels' source, for torch_jit.py
//	jitbench -phase=cold -cache=DIR           # empty DIR: NVRTC compile + load
//	jitbench -phase=warm -cache=DIR           # a new process: cache read + load
//	jitbench -phase=launch                    # launch cost, JIT vs cu_library
//	jitbench -phase=report -results=FILE      # the comparison table
package main

// #include "bench/cmd/jitbench/aot.h"
import "C"

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	opscuda "github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/cumodule"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/jit"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/jit/jitload"
	"github.com/rules-cuda-go/rules_cuda_go/ops/examples/jitsilu"
)

func main() {
	phase := flag.String("phase", "", "source, cold, warm, launch or report")
	cacheDir := flag.String("cache", "", "cache directory (cold: must be empty)")
	results := flag.String("results", "", "report: file of RESULT lines")
	elems := flag.Int("n", 4096, "launch: elements per launch")
	iters := flag.Int("iters", 20000, "launch: launches per timing")
	flag.Parse()
	var err error
	switch *phase {
	case "source":
		_, err = io.WriteString(os.Stdout, jitsilu.Source)
	case "cold", "warm":
		err = load(*phase, *cacheDir)
	case "launch":
		err = launch(*elems, *iters)
	case "report":
		err = report(*results)
	default:
		err = fmt.Errorf("unknown -phase %q", *phase)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "jitbench:", err)
		os.Exit(1)
	}
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

// initDevice creates the CUDA context (outside the timings, as torch's are) and describes it.
func initDevice() (string, error) {
	ctx := context.Background()
	x, err := ops.Zeros(ops.Float32, 1)
	if err == nil {
		_, err = x.To(ctx, ops.CUDA(0))
	}
	if err != nil {
		return "", err
	}
	info, err := opscuda.Info(0)
	if err != nil {
		return "", err
	}
	v, err := jit.Version()
	return fmt.Sprintf("%s (sm_%d%d), NVRTC %s", info.Name, info.Major, info.Minor, v), err
}

// load times jitload.Load of jitsilu's program: a compile with an empty cache, a cache read after.
func load(phase, dir string) error {
	ctx := context.Background()
	if dir == "" {
		return fmt.Errorf("-phase=%s needs -cache", phase)
	}
	dev, err := initDevice()
	if err != nil {
		return err
	}
	cache := &jit.Cache{Dir: dir}
	start := time.Now()
	m, err := jitload.Load(0, jitsilu.Program(), jitload.Options{Cache: cache})
	took := time.Since(start)
	if err != nil {
		return err
	}
	defer m.Close()
	s := cache.Stats()
	if (phase == "cold") != (s.Compiles == 1) {
		return fmt.Errorf("-phase=%s: the cache did %+v", phase, s)
	}
	// The loaded kernel computes SiLU.
	x, err := ops.FromFloat32([]float32{-2, 0, 3}, 3)
	if err == nil {
		x, err = x.To(ctx, ops.CUDA(0))
	}
	y, err2 := ops.Zeros(ops.Float32, 3)
	if err == nil && err2 == nil {
		y, err = y.To(ctx, ops.CUDA(0))
	}
	if err != nil || err2 != nil {
		return fmt.Errorf("tensors: %v %v", err, err2)
	}
	k, err := m.Kernel(jitsilu.ForwardKernel(ops.Float32))
	if err == nil {
		err = k.Launch(ctx, cumodule.Dim3{X: 1}, cumodule.Dim3{X: 32}, 0, y, x, int64(3))
	}
	if err != nil {
		return err
	}
	got, err := y.Float64s()
	if err != nil {
		return err
	}
	for i, v := range []float64{-2, 0, 3} {
		if d := got[i] - jitsilu.Silu(v); d > 1e-6 || d < -1e-6 {
			return fmt.Errorf("silu(%v) = %v on the GPU, want %v", v, got[i], jitsilu.Silu(v))
		}
	}
	fmt.Printf("| %s | jitload.Load, %s cache | %.2f ms |\n", dev, phase, ms(took))
	fmt.Printf("RESULT ours_%s_ms %.3f\n", phase, ms(took))
	fmt.Printf("RESULT device %s\n", dev)
	return nil
}

// median runs f reps times and returns the median duration.
func median(reps int, f func() (time.Duration, error)) (time.Duration, error) {
	var ds []time.Duration
	for range reps {
		d, err := f()
		if err != nil {
			return 0, err
		}
		ds = append(ds, d)
	}
	slices.Sort(ds)
	return ds[len(ds)/2], nil
}

// launch times back-to-back launches of the forward kernel on n float32 elements, iters at a
// time followed by one synchronisation: per launch, the median of 7 such runs.
func launch(n, iters int) error {
	ctx := context.Background()
	dev, err := initDevice()
	if err != nil {
		return err
	}
	x, err := ops.Rand(1, ops.Float32, n)
	if err == nil {
		x, err = x.To(ctx, ops.CUDA(0))
	}
	y, err2 := ops.Zeros(ops.Float32, n)
	if err == nil && err2 == nil {
		y, err = y.To(ctx, ops.CUDA(0))
	}
	if err != nil || err2 != nil {
		return fmt.Errorf("tensors: %v %v", err, err2)
	}
	m, err := jitload.Load(0, jitsilu.Program(), jitload.Options{})
	if err != nil {
		return err
	}
	k, err := m.Kernel(jitsilu.ForwardKernel(ops.Float32))
	if err != nil {
		return err
	}
	const threads = 256
	blocks := (n + threads - 1) / threads
	l, err := opscuda.NewLaunch(ctx, y, x) // the device addresses, for the raw-pointer launches
	if err != nil {
		return err
	}
	yp, xp := l.Ptr[0], l.Ptr[1]
	variants := []struct {
		name string
		one  func() error
	}{
		{"cu_library kernel, cgo launcher (cudaLaunchKernel)", func() error {
			if code := C.jitbench_silu_forward(C.ulonglong(yp), C.ulonglong(xp), C.longlong(n), C.int(blocks), threads); code != 0 {
				return fmt.Errorf("launch: %s", C.GoString(C.jitbench_error_name(code)))
			}
			return nil
		}},
		{"JIT kernel, cumodule.Kernel.Launch on tensors (cuLaunchKernel)", func() error {
			return k.Launch(ctx, cumodule.Dim3{X: blocks}, cumodule.Dim3{X: threads}, 0, y, x, int64(n))
		}},
		{"JIT kernel, cumodule.Kernel.Launch on raw device pointers", func() error {
			return k.Launch(ctx, cumodule.Dim3{X: blocks}, cumodule.Dim3{X: threads}, 0, yp, xp, int64(n))
		}},
	}
	fmt.Printf("Launch cost on %s: %d float32 elements, %d launches back to back then one synchronisation, median of 7\n\n", dev, n, iters)
	fmt.Println("| launch path | per launch |")
	fmt.Println("| --- | ---: |")
	for i, v := range variants {
		d, err := median(7, func() (time.Duration, error) {
			for range iters / 10 { // warm-up
				if err := v.one(); err != nil {
					return 0, err
				}
			}
			if err := ops.Synchronize(ctx, ops.CUDA(0)); err != nil {
				return 0, err
			}
			start := time.Now()
			for range iters {
				if err := v.one(); err != nil {
					return 0, err
				}
			}
			err := ops.Synchronize(ctx, ops.CUDA(0))
			return time.Since(start) / time.Duration(iters), err
		})
		if err != nil {
			return fmt.Errorf("%s: %w", v.name, err)
		}
		fmt.Printf("| %s | %.2f µs |\n", v.name, float64(d.Nanoseconds())/1e3)
		fmt.Printf("RESULT launch_%d_us %.3f\n", i, float64(d.Nanoseconds())/1e3)
	}
	// The results agree.
	got, err := y.Float32s()
	if err != nil {
		return err
	}
	xs, _ := x.Float32s()
	for i := range xs {
		if want := float32(jitsilu.Silu(float64(xs[i]))); got[i] != want {
			return fmt.Errorf("y[%d] = %v, want %v", i, got[i], want)
		}
	}
	return nil
}

// report prints the comparison of the RESULT lines in path (several runs of a name are listed
// in order).
func report(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	res := map[string][]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if name, val, ok := strings.Cut(strings.TrimPrefix(sc.Text(), "RESULT "), " "); ok && strings.HasPrefix(sc.Text(), "RESULT ") {
			res[name] = append(res[name], val)
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	join := func(name, unit string) string {
		if len(res[name]) == 0 {
			return "not measured"
		}
		return strings.Join(res[name], " / ") + " " + unit
	}
	ratio := func(a, b string) string {
		if len(res[a]) == 0 || len(res[b]) == 0 {
			return ""
		}
		x, err1 := strconv.ParseFloat(res[a][0], 64)
		y, err2 := strconv.ParseFloat(res[b][0], 64)
		if err1 != nil || err2 != nil || x == 0 {
			return ""
		}
		return fmt.Sprintf("%.0fx", y/x)
	}
	fmt.Printf("Device: %s; PyTorch: %s\n\n", first(res["device"]), first(res["torch"]))
	fmt.Println("| what | ours (ops/cuda/jit) | torch.utils.cpp_extension.load_inline | torch / ours |")
	fmt.Println("| --- | ---: | ---: | ---: |")
	fmt.Printf("| first use: compile + load (empty cache) | %s | %s | %s |\n", join("ours_cold_ms", "ms"), join("torch_cold_ms", "ms"), ratio("ours_cold_ms", "torch_cold_ms"))
	fmt.Printf("| warm: cached load in a new process | %s | %s | %s |\n", join("ours_warm_ms", "ms"), join("torch_warm_ms", "ms"), ratio("ours_warm_ms", "torch_warm_ms"))
	fmt.Println()
	fmt.Println("| launch path (4096 float32, back to back) | per launch, runs |")
	fmt.Println("| --- | ---: |")
	for i, name := range []string{"cu_library kernel, cgo launcher", "JIT kernel, cumodule.Kernel.Launch on tensors", "JIT kernel, cumodule.Kernel.Launch on raw pointers"} {
		fmt.Printf("| %s | %s |\n", name, join(fmt.Sprintf("launch_%d_us", i), "µs"))
	}
	return nil
}

func first(s []string) string {
	if len(s) == 0 {
		return "unknown"
	}
	return s[0]
}
