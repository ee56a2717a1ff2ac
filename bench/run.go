package bench

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
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

	// Clock times the throughput batches (MetricTime); nil: a HostClock of
	// Device. Latencies are always taken from the host clock.
	Clock Clock

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
	if c.Clock == nil {
		c.Clock = &HostClock{Device: c.Device}
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
		Timer:  fmt.Sprintf("%v (batch >= %v), median of %d; latency: host clock", cfg.Clock, cfg.MinBatch, cfg.Repeats),
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
	r := &runner{cfg: cfg, rep: rep, host: &HostClock{Device: cfg.Device}}
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
	host *HostClock  // calibration and latencies
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
		if _, err := r.timeBatch(r.host, c, 1); err != nil {
			return
		}
	}
}
