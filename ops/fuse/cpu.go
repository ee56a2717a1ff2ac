package fuse

import (
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/fuse/driver"
	"github.com/rules-cuda-go/rules_cuda_go/ops/half"
)

// The CPU path computes what the generated kernel computes, with the same
// roundings: each step in its compute type (a float32 step's operands are
// converted to float32 and its result rounded to float32; +, -, *, / and
// Sqrt computed in float64 and rounded once give IEEE float32's results),
// math functions from Go's math package rounded to the compute type. It
// evaluates a chunk of elements step by step (one slice per step), over
// GOMAXPROCS goroutines.

const cpuChunk = 2048

// cpuMinParallel is the number of elements below which the CPU path runs
// on the calling goroutine.
const cpuMinParallel = 1 << 15

// valsPool keeps the CPU path's per-step chunk buffers between calls.
var valsPool sync.Pool // *[][]float64

func getVals(n int) [][]float64 {
	var vals [][]float64
	if p, ok := valsPool.Get().(*[][]float64); ok {
		vals = *p
	}
	for len(vals) < n {
		vals = append(vals, make([]float64, cpuChunk))
	}
	return vals[:n]
}

func putVals(vals [][]float64) { valsPool.Put(&vals) }

func r32(x float64) float64 { return float64(float32(x)) }

// reader returns the element reader of a CPU tensor: the value of storage
// element i (offset included).
func reader(t *ops.Tensor) (func(i int) float64, error) {
	st, ok := t.Storage().(*ops.CPUStorage)
	if !ok || st == nil {
		return nil, fmt.Errorf("tensor storage %T is not CPU storage", t.Storage())
	}
	switch t.DType() {
	case ops.Float32:
		s := st.Float32()
		return func(i int) float64 { return float64(s[i]) }, nil
	case ops.Float64:
		s := st.Float64()
		return func(i int) float64 { return s[i] }, nil
	case ops.Float16:
		s := st.Float16()
		return func(i int) float64 { return float64(s[i].Float32()) }, nil
	case ops.BFloat16:
		s := st.BFloat16()
		return func(i int) float64 { return float64(s[i].Float32()) }, nil
	}
	return nil, fmt.Errorf("dtype %v", t.DType())
}

// writer returns the element writer of a contiguous CPU output.
func writer(t *ops.Tensor) (func(i int, v float64), error) {
	st, ok := t.Storage().(*ops.CPUStorage)
	if !ok || st == nil {
		return nil, fmt.Errorf("tensor storage %T is not CPU storage", t.Storage())
	}
	switch t.DType() {
	case ops.Float32:
		s := st.Float32()
		return func(i int, v float64) { s[i] = float32(v) }, nil
	case ops.Float64:
		s := st.Float64()
		return func(i int, v float64) { s[i] = v }, nil
	case ops.Float16:
		s := st.Float16()
		return func(i int, v float64) { s[i] = half.Float16From(float32(v)) }, nil
	case ops.BFloat16:
		s := st.BFloat16()
		return func(i int, v float64) { s[i] = half.BFloat16From(float32(v)) }, nil
	}
	return nil, fmt.Errorf("dtype %v", t.DType())
}

// eval computes a launch of s on the CPU: its driver.Spec's Eval, which
// driver.ChainOp's CPU kernel runs.
func (s *spec) eval(l *driver.Launch, outs, in []*ops.Tensor) error {
	c := s.chain
	for _, st := range c.steps {
		if st.kind == kCall && c.funcs[st.index].CPU == nil {
			return c.errorf(ops.ErrNoKernel, "DeviceFunc %s has no CPU implementation (DeviceFunc.CPU), so the chain cannot run on the CPU", c.funcs[st.index].Name)
		}
	}
	if l.N == 0 {
		return nil
	}
	rd := make([]func(int) float64, len(in))
	base := make([]int, len(in))
	for j, t := range in {
		r, err := reader(t)
		if err != nil {
			return c.errorf(ops.ErrDevice, "input %d: %v", j, err)
		}
		rd[j], base[j] = r, t.Offset()
	}
	wr := make([]func(int, float64), len(outs))
	for k, t := range outs {
		w, err := writer(t)
		if err != nil {
			return c.errorf(ops.ErrDevice, "output %d: %v", k, err)
		}
		wr[k] = w
	}
	chunks := (l.N + cpuChunk - 1) / cpuChunk
	workers := 1
	if l.N >= cpuMinParallel {
		workers = min(runtime.GOMAXPROCS(0), chunks)
	}
	var next int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			vals := getVals(len(c.steps))
			defer putVals(vals)
			for {
				mu.Lock()
				ch := next
				next++
				mu.Unlock()
				if ch >= chunks {
					return
				}
				lo := ch * cpuChunk
				hi := min(lo+cpuChunk, l.N)
				s.evalChunk(l, rd, base, wr, vals, lo, hi)
			}
		}()
	}
	wg.Wait()
	return nil
}

// offsets fills off with the storage offsets of elements lo..hi-1 of input j.
func offsets(l *driver.Launch, j, base, lo, hi int, off []int) {
	if l.Spec.Layout != driver.Strided {
		for i := lo; i < hi; i++ {
			off[i-lo] = base + i
		}
		return
	}
	dims, st := l.Dims, l.Strides[j]
	for i := lo; i < hi; i++ {
		rest, p := i, base
		for d := len(dims) - 1; d >= 0; d-- {
			p += (rest % dims[d]) * st[d]
			rest /= dims[d]
		}
		off[i-lo] = p
	}
}

func (s *spec) evalChunk(l *driver.Launch, rd []func(int) float64, base []int, wr []func(int, float64), vals [][]float64, lo, hi int) {
	c := s.chain
	n := hi - lo
	var offBuf [cpuChunk]int
	off := offBuf[:n]
	for i, st := range c.steps {
		v := vals[i][:n]
		f32 := !s.compute64(i)
		arg := func(k int) []float64 { return vals[st.args[k]][:n] }
		conv := func(k int, e int) float64 { // argument k at element e, in step i's compute type
			x := vals[st.args[k]][e]
			if f32 && s.compute64(st.args[k]) {
				return r32(x)
			}
			return x
		}
		round := func(x float64) float64 {
			if f32 {
				return r32(x)
			}
			return x
		}
		switch st.kind {
		case kInput:
			offsets(l, st.index, base[st.index], lo, hi, off)
			r := rd[st.index]
			for e := range v {
				v[e] = r(off[e])
			}
		case kConst, kArg:
			var x float64
			if st.kind == kArg {
				x = l.Args[st.index]
			} else {
				x = l.Consts[st.index]
			}
			for e := range v {
				v[e] = x
			}
		case kCast:
			a := arg(0)
			for e := range v {
				switch st.dtype {
				case ops.Float32:
					v[e] = r32(a[e])
				case ops.Float16:
					v[e] = float64(half.Float16From(float32(a[e])).Float32())
				case ops.BFloat16:
					v[e] = float64(half.BFloat16From(float32(a[e])).Float32())
				default:
					v[e] = a[e]
				}
			}
		case kWhere:
			cond := arg(0)
			for e := range v {
				if cond[e] != 0 {
					v[e] = conv(1, e)
				} else {
					v[e] = conv(2, e)
				}
			}
		case kUnary:
			for e := range v {
				v[e] = round(unaryCPU(st.op, conv(0, e), f32))
			}
		case kBinary:
			for e := range v {
				v[e] = round(binaryCPU(st.op, conv(0, e), conv(1, e)))
			}
		case kCall:
			fn := c.funcs[st.index].CPU
			args := make([]float64, len(st.args))
			for e := range v {
				for k := range args {
					args[k] = conv(k, e)
				}
				v[e] = round(fn(args))
			}
		}
	}
	for k, o := range c.outputs {
		v, w := vals[o][:n], wr[k]
		for e := range v {
			w(lo+e, v[e])
		}
	}
}

func unaryCPU(o op, x float64, f32 bool) float64 {
	switch o {
	case opNeg:
		return -x
	case opAbs:
		return math.Abs(x)
	case opExp:
		return math.Exp(x)
	case opLog:
		return math.Log(x)
	case opSqrt:
		return math.Sqrt(x)
	case opTanh:
		return math.Tanh(x)
	case opSigmoid: // 1 / (1 + exp(-x)), each step rounded like the kernel's
		e := math.Exp(-x)
		if f32 {
			return 1 / r32(1+r32(e))
		}
		return 1 / (1 + e)
	case opErf:
		return math.Erf(x)
	case opSin:
		return math.Sin(x)
	case opCos:
		return math.Cos(x)
	}
	return math.NaN()
}

// fmin and fmax as C's: a NaN operand gives the other.
func fmin(a, b float64) float64 {
	switch {
	case math.IsNaN(a):
		return b
	case math.IsNaN(b):
		return a
	}
	return math.Min(a, b)
}

func fmax(a, b float64) float64 {
	switch {
	case math.IsNaN(a):
		return b
	case math.IsNaN(b):
		return a
	}
	return math.Max(a, b)
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func binaryCPU(o op, a, b float64) float64 {
	switch o {
	case opAdd:
		return a + b
	case opSub:
		return a - b
	case opMul:
		return a * b
	case opDiv:
		return a / b
	case opPow:
		return math.Pow(a, b)
	case opMin:
		return fmin(a, b)
	case opMax:
		return fmax(a, b)
	case opLt:
		return b2f(a < b)
	case opLe:
		return b2f(a <= b)
	case opGt:
		return b2f(a > b)
	case opGe:
		return b2f(a >= b)
	case opEq:
		return b2f(a == b)
	case opNe:
		return b2f(a != b)
	}
	return math.NaN()
}
