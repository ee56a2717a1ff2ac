package fusecuda_test

import (
	"context"
	"errors"
	"math"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/jit"
	"github.com/rules-cuda-go/rules_cuda_go/ops/fuse"
	"github.com/rules-cuda-go/rules_cuda_go/ops/fuse/driver"
	"github.com/rules-cuda-go/rules_cuda_go/ops/fuse/fusecuda"
	"github.com/rules-cuda-go/rules_cuda_go/ops/fuse/fusetest"
	"github.com/rules-cuda-go/rules_cuda_go/ops/optest"
)

var ctx = context.Background()

func needGPU(t *testing.T) {
	t.Helper()
	if ok, why := cuda.Available(); !ok {
		t.Skipf("no CUDA device: %v", why)
	}
}

// TestCompile compiles the kernel of every case (forward and backward) in
// every dtype, and in the other layout classes and with 64-bit indices in
// some, with NVRTC for sm_90: it needs no GPU.
func TestCompile(t *testing.T) {
	if _, err := jit.Version(); err != nil {
		t.Skipf("NVRTC is not available: %v", err)
	}
	type job struct {
		what, src, entry string
		opts             []string
	}
	var jobs []job
	for _, c := range fusetest.Cases() {
		for _, d := range fusetest.AllDTypes {
			dts := make([]ops.DType, c.Chain.NumInputs())
			for j := range dts {
				dts[j] = d
			}
			layouts := []struct {
				class driver.LayoutClass
				rank  int
				n     int
			}{{driver.Vector, 0, 100}}
			switch d {
			case ops.Float16:
				layouts = append(layouts, struct {
					class driver.LayoutClass
					rank  int
					n     int
				}{driver.Strided, 3, 100})
			case ops.Float64:
				layouts = append(layouts, struct {
					class driver.LayoutClass
					rank  int
					n     int
				}{driver.Linear, 0, 1 << 32})
			}
			for _, l := range layouts {
				s, err := c.Chain.SpecForLayout(l.class, l.rank, l.n, dts...)
				if err != nil {
					t.Fatalf("%s %v: %v", c.Name, d, err)
				}
				jobs = append(jobs, job{c.Name + " " + d.String() + " " + l.class.String(), s.Source, s.Entry, s.Options})
			}
			if c.NoGrad || d == ops.BFloat16 {
				continue
			}
			for k := range c.Chain.NumOutputs() {
				src, err := c.Chain.GradSourceFor([]int{k}, 100, dts...)
				if err != nil {
					t.Fatalf("%s %v backward %d: %v", c.Name, d, k, err)
				}
				if src != "" {
					entry := src[strings.Index(src, "fuse_"):]
					entry = entry[:strings.Index(entry, "(")]
					jobs = append(jobs, job{c.Name + " backward " + d.String(), src, entry, nil})
				}
			}
		}
	}
	var wg sync.WaitGroup
	next := make(chan job)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				if _, err := jit.Compile(jit.Program{Name: j.entry + ".cu", Source: j.src, Options: j.opts}, jit.ArchOf(9, 0), jit.CUBIN); err != nil {
					t.Errorf("%s: %v\n%s", j.what, err, j.src)
				}
			}
		}()
	}
	for _, j := range jobs {
		next <- j
	}
	close(next)
	wg.Wait()
	t.Logf("compiled %d kernels", len(jobs))
}

func TestCasesGPU(t *testing.T) {
	needGPU(t)
	for _, c := range fusetest.Cases() {
		t.Run(c.Name, func(t *testing.T) {
			if err := fusetest.CheckValues(ctx, c, ops.CUDA(0)); err != nil {
				t.Error(err)
			}
			if !c.NoGrad {
				if err := fusetest.CheckGrad(ctx, c, ops.CUDA(0)); err != nil {
					t.Error(err)
				}
			}
		})
	}
	if err := fusetest.CheckBroadcast(ctx, ops.CUDA(0)); err != nil {
		t.Error(err)
	}
	if err := fusetest.CheckGradBroadcast(ctx, ops.CUDA(0)); err != nil {
		t.Error(err)
	}
}

// TestOptest runs the op-author kit over the one-output cases: values in
// every dtype and layout on the CPU and the GPU, GradCheck, bad inputs, and
// a run on a stream of its own.
func TestOptest(t *testing.T) {
	for _, c := range fusetest.Cases() {
		if c.Chain.NumOutputs() != 1 || c.Name == "casts_grad" {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			ref := c.Ref
			sc := c.Scalars
			optest.Run(t, optest.Spec{
				Name: c.Name,
				Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
					return c.Chain.Call1(ctx, in, sc...)
				},
				Ref:    optest.Elementwise(func(v []float64) float64 { return ref(v, sc)[0] }),
				Inputs: c.Chain.NumInputs(),
				NoGrad: c.NoGrad,
				Lo:     c.Lo, Hi: c.Hi,
				Tol: func(d ops.DType) (float64, float64) {
					tol := fusetest.Tolerance(d)
					return tol, tol
				},
			})
		})
	}
}

// TestGraph captures the 20-op chain and its backward into a CUDA graph
// and replays it.
func TestGraph(t *testing.T) {
	needGPU(t)
	s, err := cuda.NewStream(0)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sctx := cuda.WithStream(ctx, s)
	c := fusetest.Chain20()
	x, _, err := fusetest.Input(ctx, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}, []int{9}, ops.Float32, "contiguous", ops.CUDA(0))
	if err != nil {
		t.Fatal(err)
	}
	want, err := c.Call1(sctx, []*ops.Tensor{x}) // compiles and loads before the capture
	if err != nil {
		t.Fatal(err)
	}
	var y *ops.Tensor
	g, err := cuda.Capture(sctx, s, func(ctx context.Context) error {
		var err error
		y, err = c.Call1(ctx, []*ops.Tensor{x})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	for range 3 {
		if err := g.Replay(); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Synchronize(ctx); err != nil {
		t.Fatal(err)
	}
	got, _ := y.Float64s()
	w, _ := want.Float64s()
	for i := range w {
		if got[i] != w[i] {
			t.Fatalf("replayed graph: element %d is %v, want %v", i, got[i], w[i])
		}
	}
}

// TestPolynomial compares the fused polynomial with ops.Polynomial.
func TestPolynomial(t *testing.T) {
	needGPU(t)
	p := fusetest.Polynomial()
	for _, d := range fusetest.AllDTypes {
		x, _, err := fusetest.Input(ctx, []float64{-1.5, -0.5, 0, 0.25, 1, 2.5, 3, 7, 11}, []int{9}, d, "contiguous", ops.CUDA(0))
		if err != nil {
			t.Fatal(err)
		}
		a, b, c, dd := 0.5, -1.25, 2.0, 0.75
		got, err := p.Call1(ctx, []*ops.Tensor{x}, a, b, c, dd)
		if err != nil {
			t.Fatal(err)
		}
		want, err := ops.Polynomial(ctx, x, a, b, c, dd)
		if err != nil {
			t.Fatal(err)
		}
		g, _ := got.Float64s()
		w, _ := want.Float64s()
		tol := fusetest.Tolerance(d)
		for i := range w {
			if math.Abs(g[i]-w[i]) > tol*(1+math.Abs(w[i])) {
				t.Errorf("%v element %d: fused %v, ops.Polynomial %v", d, i, g[i], w[i])
			}
		}
	}
}

// TestCompileError: a DeviceFunc that does not compile gives an error naming
// the chain with NVRTC's messages, and leaves the caches usable.
func TestCompileError(t *testing.T) {
	needGPU(t)
	bad := &fuse.DeviceFunc{Name: "bad", Source: "__device__ float bad(float x) { return x +; }", Arity: 1,
		CPU: func(a []float64) float64 { return a[0] }}
	c := fuse.MustNew("broken", []fuse.Expr{bad.Call(fuse.In(0))}, fuse.Options{})
	x, _, err := fusetest.Input(ctx, []float64{1, 2}, []int{2}, ops.Float32, "contiguous", ops.CUDA(0))
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		_, err = c.Call(ctx, []*ops.Tensor{x})
		var ce *jit.CompileError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), "fuse.broken") {
			t.Fatalf("error %v, want a *jit.CompileError naming fuse.broken", err)
		}
	}
	good := fuse.MustNew("fine", []fuse.Expr{fuse.In(0).AddScalar(1)}, fuse.Options{})
	if _, err := good.Call(ctx, []*ops.Tensor{x}); err != nil {
		t.Fatal(err)
	}
	if st := fusecuda.ReadStats(); st.Loads == 0 {
		t.Errorf("stats %+v: no load counted", st)
	}
}

// TestAgainstUnfusedOps compares the 20-op chain with the same 20 ops
// (ops.AddScalar and ops.Scale) on the CPU and the GPU, in every dtype: the
// ops round after each op where the chain rounds once, so they agree within
// the dtype's tolerance, not bit for bit.
func TestAgainstUnfusedOps(t *testing.T) {
	devs := []ops.Device{ops.CPU}
	if ok, _ := cuda.Available(); ok {
		devs = append(devs, ops.CUDA(0))
	}
	c := fusetest.Chain20()
	for _, dev := range devs {
		for _, d := range fusetest.AllDTypes {
			data := make([]float64, 1000)
			for i := range data {
				data[i] = float64(i)/100 - 5
			}
			x, _, err := fusetest.Input(ctx, data, []int{10, 100}, d, "transposed", dev)
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.Call1(ctx, []*ops.Tensor{x})
			if err != nil {
				t.Fatal(err)
			}
			y := x
			for i := range 20 {
				if i%2 == 0 {
					y, err = ops.AddScalar(ctx, y, 0.25)
				} else {
					y, err = ops.Scale(ctx, y, 0.5)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			g, _ := got.Float64s()
			w, _ := y.Float64s()
			tol := fusetest.Tolerance(d)
			if d != ops.Float64 {
				tol *= 4 // the ops' roundings after each op
			}
			for i := range w {
				if math.Abs(g[i]-w[i]) > tol*(1+math.Abs(w[i])) {
					t.Fatalf("%v on %v, element %d: fused %v, unfused %v", d, dev, i, g[i], w[i])
				}
			}
		}
	}
}

// TestCaptureFirstUse captures a chain's first call (compile, module load
// and launch during the capture) and replays it.
func TestCaptureFirstUse(t *testing.T) {
	needGPU(t)
	s, err := cuda.NewStream(0)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := fuse.MustNew("capture_first", []fuse.Expr{fuse.Exp(fuse.In(0)).MulScalar(3)}, fuse.Options{})
	x, vals, err := fusetest.Input(ctx, []float64{0, 0.5, 1, 2}, []int{4}, ops.Float32, "contiguous", ops.CUDA(0))
	if err != nil {
		t.Fatal(err)
	}
	var y *ops.Tensor
	g, err := cuda.Capture(cuda.WithStream(ctx, s), s, func(ctx context.Context) error {
		var err error
		y, err = c.Call1(ctx, []*ops.Tensor{x})
		return err
	})
	if err != nil {
		t.Fatalf("capturing a chain's first call: %v", err)
	}
	defer g.Close()
	if err := g.Replay(); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(ctx); err != nil {
		t.Fatal(err)
	}
	got, _ := y.Float64s()
	for i, v := range vals {
		if w := 3 * math.Exp(v); math.Abs(got[i]-w) > 1e-5*w {
			t.Errorf("element %d: %v, want %v", i, got[i], w)
		}
	}
}
