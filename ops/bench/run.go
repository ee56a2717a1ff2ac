package bench

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// Config says what Run measures and how.
type Config struct {
	Device ops.Device  // where the ops run
	DTypes []ops.DType // default float32 and float64
	Ops    []string    // ops to measure (default AllOps); the copy is always measured

	Sizes         []int    // element counts of the elementwise sweep (default DefaultSizes(MaxElems))
	SoftmaxShapes [][2]int // [B, D] shapes of RowSoftmax
	MatMulSizes   []int    // n of the [n, n] MatMuls
	MaxElems      int64    // larger sizes, shapes and matrices are left out (0: no limit)

	Warmup       int           // untimed calls first (default 3)
	Repeats      int           // timed samples (default 15)
	MinBatch     time.Duration // a sample lasts at least this long (default 3 ms)
	LatencyElems int           // size of the latency measurements (default 4096; < 0: none)
	LatencyCalls int           // calls per latency measurement (default 1000)

	Log io.Writer // progress, one line per result (nil: none)
}

func (c *Config) setDefaults() {
	if len(c.DTypes) == 0 {
		c.DTypes = []ops.DType{ops.Float32, ops.Float64}
	}
	if len(c.Ops) == 0 {
		c.Ops = AllOps
	}
	if c.Sizes == nil {
		c.Sizes = DefaultSizes(c.MaxElems)
	}
	if c.Warmup <= 0 {
		c.Warmup = 3
	}
	if c.Repeats <= 0 {
		c.Repeats = 15
	}
	if c.MinBatch <= 0 {
		c.MinBatch = 3 * time.Millisecond
	}
	if c.LatencyElems == 0 {
		c.LatencyElems = 4096
	}
	if c.LatencyCalls <= 0 {
		c.LatencyCalls = 1000
	}
	if c.Log == nil {
		c.Log = io.Discard
	}
}

func (c *Config) fits(n int) bool { return c.MaxElems <= 0 || int64(n) <= c.MaxElems }

// Run measures the ops of package ops on cfg.Device and returns the
// annotated report (Device.Type and Index filled in; the caller may add the
// device's name). An op that fails at one size (say, out of memory) gives a
// Result with Error set and the run goes on; Run fails only if the inputs
// cannot be made.
func Run(cfg Config) (*Report, error) {
	cfg.setDefaults()
	rep := &Report{
		Schema: Schema,
		Impl:   ImplGo,
		Device: DeviceDesc{Type: cfg.Device.Type.String(), Index: cfg.Device.Index},
		Timer:  fmt.Sprintf("host clock around batches of calls between ops.Synchronize calls (batch >= %v), median of %d", cfg.MinBatch, cfg.Repeats),
		Date:   time.Now().UTC().Format(time.RFC3339),
		Env: map[string]string{
			"go":         runtime.Version(),
			"gomaxprocs": fmt.Sprint(runtime.GOMAXPROCS(0)),
		},
		Settings: Settings{
			Repeats:      cfg.Repeats,
			Warmup:       cfg.Warmup,
			BatchSeconds: cfg.MinBatch.Seconds(),
			LatencyCalls: cfg.LatencyCalls,
			LatencyElems: cfg.LatencyElems,
			MaxElems:     cfg.MaxElems,
		},
	}
	r := &runner{cfg: cfg, rep: rep}
	for _, dt := range cfg.DTypes {
		if err := r.runDType(dt); err != nil {
			return nil, err
		}
	}
	rep.Annotate()
	return rep, nil
}

type runner struct {
	cfg  Config
	rep  *Report
	x, y *ops.Tensor // random inputs of the largest size needed, on the device
}

func (r *runner) want(op string) bool { return slices.Contains(r.cfg.Ops, op) }

// plan returns the elementwise sizes, softmax shapes and matmul sizes to
// measure, within MaxElems.
func (r *runner) plan() (sizes []int, shapes [][2]int, mms []int) {
	for _, n := range r.cfg.Sizes {
		if r.cfg.fits(n) {
			sizes = append(sizes, n)
		}
	}
	if r.want(OpRowSoftmax) {
		for _, s := range r.cfg.SoftmaxShapes {
			if r.cfg.fits(s[0] * s[1]) {
				shapes = append(shapes, s)
			}
		}
	}
	if r.want(OpMatMul) {
		for _, n := range r.cfg.MatMulSizes {
			if r.cfg.fits(n * n) {
				mms = append(mms, n)
			}
		}
	}
	return sizes, shapes, mms
}

func (r *runner) runDType(dt ops.DType) error {
	sizes, shapes, mms := r.plan()
	// The copy baseline at every element count some op uses.
	copySizes := slices.Clone(sizes)
	for _, s := range shapes {
		if n := s[0] * s[1]; !slices.Contains(copySizes, n) {
			copySizes = append(copySizes, n)
		}
	}
	maxN := 0
	for _, n := range copySizes {
		maxN = max(maxN, n)
	}
	for _, n := range mms {
		maxN = max(maxN, n*n)
	}
	if r.cfg.LatencyElems > 0 {
		maxN = max(maxN, r.cfg.LatencyElems)
	}
	if maxN == 0 {
		return nil
	}
	var err error
	if r.x, err = RandOn(r.cfg.Device, 1, dt, maxN); err != nil {
		return err
	}
	defer r.x.Free()
	if r.y, err = RandOn(r.cfg.Device, 2, dt, maxN); err != nil {
		return err
	}
	defer r.y.Free()
	r.warmDevice(maxN)

	for _, op := range ElementwiseOps {
		if op != OpCopy && !r.want(op) {
			continue
		}
		ns := sizes
		if op == OpCopy {
			ns = copySizes
		}
		for _, n := range ns {
			r.measureOp(op, dt, []int{n})
		}
	}
	for _, s := range shapes {
		r.measureOp(OpRowSoftmax, dt, s[:])
	}
	for _, n := range mms {
		r.measureOp(OpMatMul, dt, []int{n, n})
	}
	if n := r.cfg.LatencyElems; n > 0 {
		for _, op := range AllOps {
			if op != OpCopy && !r.want(op) {
				continue
			}
			shape := []int{n}
			if op == OpRowSoftmax || op == OpMatMul {
				side := int(math.Sqrt(float64(n)))
				shape = []int{side, side}
			}
			r.measureLatency(op, dt, shape)
		}
	}
	return nil
}

// deviceWarmup is how long warmDevice keeps the device busy.
const deviceWarmup = 300 * time.Millisecond

// warmDevice copies n elements for deviceWarmup, so that a GPU runs at
// its working clocks when the measurements start.
func (r *runner) warmDevice(n int) {
	if r.cfg.Device.Type == ops.DeviceCPU {
		return
	}
	c, err := r.prepare(OpCopy, []int{n})
	if err != nil {
		return
	}
	for t0 := time.Now(); time.Since(t0) < deviceWarmup; {
		if _, err := r.timeBatch(c, 1); err != nil {
			return
		}
	}
}

// call is one call of an op, its outputs freed; after runs untimed between
// samples (nil: nothing).
type call struct {
	run   func() error
	after func()
}

// prepare returns the call measuring op on views of r.x and r.y of the given
// shape.
func (r *runner) prepare(op string, shape []int) (call, error) {
	n := numel(shape)
	view := func(t *ops.Tensor) (*ops.Tensor, error) {
		v, err := t.Narrow(0, 0, n)
		if err != nil {
			return nil, err
		}
		return v.Reshape(shape...)
	}
	x, err := view(r.x)
	if err != nil {
		return call{}, err
	}
	y, err := view(r.y)
	if err != nil {
		return call{}, err
	}
	one := func(f func() (*ops.Tensor, error)) call {
		return call{run: func() error {
			out, err := f()
			if err != nil {
				return err
			}
			return out.Free()
		}}
	}
	switch op {
	case OpCopy:
		contiguous := ops.LookupOp("Contiguous")
		if contiguous == nil {
			return call{}, errors.New("ops has no Contiguous op")
		}
		return one(func() (*ops.Tensor, error) { return contiguous.Call([]*ops.Tensor{x}, nil) }), nil
	case OpAddScalar:
		return one(func() (*ops.Tensor, error) { return ops.AddScalar(x, AddScalarS) }), nil
	case OpAxpby:
		return one(func() (*ops.Tensor, error) { return ops.Axpby(AxpbyA, x, AxpbyB, y) }), nil
	case OpNorm:
		return one(func() (*ops.Tensor, error) { return ops.Norm(x) }), nil
	case OpPolynomial:
		return one(func() (*ops.Tensor, error) { return ops.Polynomial(x, PolyA, PolyB, PolyC, PolyD) }), nil
	case OpPolyFwdBwd:
		g := y
		return call{run: func() error {
			out, err := ops.Polynomial(x, PolyA, PolyB, PolyC, PolyD)
			if err != nil {
				return err
			}
			defer out.Free()
			dx, err := ops.PolynomialBackward(g, x, PolyA, PolyB, PolyC)
			if err != nil {
				return err
			}
			return dx.Free()
		}}, nil
	case OpPolyAutograd:
		g := y
		xg := x.Detach()
		if err := xg.SetRequiresGrad(true); err != nil {
			return call{}, err
		}
		return call{
			run: func() error {
				out, err := ops.Polynomial(xg, PolyA, PolyB, PolyC, PolyD)
				if err != nil {
					return err
				}
				defer out.Free()
				if err := out.BackwardWithGrad(g); err != nil {
					return err
				}
				dx := xg.Grad()
				xg.ZeroGrad()
				return dx.Free()
			},
			// Backward's intermediate gradient (PolynomialBackward's
			// output) is not reachable to free it: only the garbage
			// collector's cleanup frees its device memory. Collect between
			// samples so large sizes do not run out of memory.
			after: func() { runtime.GC(); time.Sleep(time.Millisecond) },
		}, nil
	case OpRowSoftmax:
		return one(func() (*ops.Tensor, error) { return ops.RowSoftmax(x) }), nil
	case OpMatMul:
		return one(func() (*ops.Tensor, error) { return ops.MatMul(x, y) }), nil
	}
	return call{}, fmt.Errorf("unknown op %q", op)
}

// timeBatch times k calls between two synchronizations.
func (r *runner) timeBatch(c call, k int) (time.Duration, error) {
	if err := ops.Synchronize(r.cfg.Device); err != nil {
		return 0, err
	}
	t0 := time.Now()
	for range k {
		if err := c.run(); err != nil {
			return 0, err
		}
	}
	if err := ops.Synchronize(r.cfg.Device); err != nil {
		return 0, err
	}
	d := time.Since(t0)
	if c.after != nil {
		c.after()
	}
	return d, nil
}

// maxBatch bounds the calls in one sample.
const maxBatch = 1 << 16

// measureOp appends the MetricTime result of op on dtype dt and shape.
func (r *runner) measureOp(op string, dt ops.DType, shape []int) {
	res := Result{Op: op, DType: dt.String(), Shape: slices.Clone(shape), Elems: int64(numel(shape)), Metric: MetricTime}
	err := func() error {
		c, err := r.prepare(op, shape)
		if err != nil {
			return err
		}
		for range r.cfg.Warmup {
			if err := c.run(); err != nil {
				return err
			}
		}
		if c.after != nil {
			c.after()
		}
		// Calibrate the batch: one call, then ten if that was short.
		d, err := r.timeBatch(c, 1)
		if err != nil {
			return err
		}
		per := d.Seconds()
		if d < r.cfg.MinBatch/10 {
			if d, err = r.timeBatch(c, 10); err != nil {
				return err
			}
			per = d.Seconds() / 10
		}
		k := BatchSize(r.cfg.MinBatch.Seconds(), per)
		samples := make([]float64, r.cfg.Repeats)
		for i := range samples {
			d, err := r.timeBatch(c, k)
			if err != nil {
				return err
			}
			samples[i] = d.Seconds() / float64(k)
		}
		res.Seconds, res.MinSeconds, res.Repeats, res.Batch = Median(samples), Min(samples), len(samples), k
		return nil
	}()
	r.add(res, err)
}

// BatchSize returns the number of calls of perCall seconds each that last
// at least minBatch seconds, between 1 and 65536.
func BatchSize(minBatch, perCall float64) int {
	if perCall <= 0 || math.IsNaN(perCall) {
		return maxBatch
	}
	k := math.Ceil(minBatch / perCall)
	return int(min(max(k, 1), maxBatch))
}

// measureLatency appends the MetricLatencySync and MetricLatencyBatch
// results of op on dtype dt and shape.
func (r *runner) measureLatency(op string, dt ops.DType, shape []int) {
	base := Result{Op: op, DType: dt.String(), Shape: slices.Clone(shape), Elems: int64(numel(shape))}
	calls := r.cfg.LatencyCalls
	c, err := r.prepare(op, shape)
	if err == nil {
		for i := 0; i < max(r.cfg.Warmup, 10) && err == nil; i++ {
			err = c.run()
		}
	}
	// One call and a synchronization, calls times.
	syncRes := base
	syncRes.Metric = MetricLatencySync
	if err == nil {
		err = func() error {
			samples := make([]float64, calls)
			for i := range samples {
				t0 := time.Now()
				if err := c.run(); err != nil {
					return err
				}
				if err := ops.Synchronize(r.cfg.Device); err != nil {
					return err
				}
				samples[i] = time.Since(t0).Seconds()
			}
			syncRes.Seconds, syncRes.MinSeconds, syncRes.Repeats, syncRes.Batch = Median(samples), Min(samples), calls, 1
			return nil
		}()
	}
	r.add(syncRes, err)
	// calls calls back to back, one synchronization; 5 samples.
	batchRes := base
	batchRes.Metric = MetricLatencyBatch
	if err == nil {
		err = func() error {
			samples := make([]float64, 5)
			for i := range samples {
				d, err := r.timeBatch(c, calls)
				if err != nil {
					return err
				}
				samples[i] = d.Seconds() / float64(calls)
			}
			batchRes.Seconds, batchRes.MinSeconds, batchRes.Repeats, batchRes.Batch = Median(samples), Min(samples), len(samples), calls
			return nil
		}()
	}
	r.add(batchRes, err)
}

func (r *runner) add(res Result, err error) {
	if err != nil {
		res.Error = err.Error()
		// Let the device finish and drop what the failed call left.
		_ = ops.Synchronize(r.cfg.Device)
		runtime.GC()
		fmt.Fprintf(r.cfg.Log, "%-28s %-8s %-12s %-13s error: %v\n", res.Op, res.DType, ShapeString(res.Shape), res.Metric, err)
	} else {
		fmt.Fprintf(r.cfg.Log, "%-28s %-8s %-12s %-13s %12.3f µs  (batch %d)\n", res.Op, res.DType, ShapeString(res.Shape), res.Metric, res.Seconds*1e6, res.Batch)
	}
	r.rep.Results = append(r.rep.Results, res)
}

// RandOn returns a 1-D tensor of n uniform values in [0, 1) on dev, filled
// on the host by all CPUs (PCG streams per chunk of 2^20 elements, so the
// values depend only on seed, dtype and n) and copied to dev.
func RandOn(dev ops.Device, seed uint64, dt ops.DType, n int) (*ops.Tensor, error) {
	h, err := ops.Zeros(dt, n)
	if err != nil {
		return nil, err
	}
	st := h.Storage().(*ops.CPUStorage)
	const chunk = 1 << 20
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for lo := 0; lo < n; lo += chunk {
		hi := min(lo+chunk, n)
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			rng := rand.New(rand.NewPCG(seed, uint64(lo/chunk)))
			if dt == ops.Float32 {
				s := st.Float32()[lo:hi]
				for i := range s {
					s[i] = rng.Float32()
				}
			} else {
				s := st.Float64()[lo:hi]
				for i := range s {
					s[i] = rng.Float64()
				}
			}
		}()
	}
	wg.Wait()
	if dev.Type == ops.DeviceCPU {
		return h, nil
	}
	d, err := h.To(dev)
	h.Free()
	return d, err
}
