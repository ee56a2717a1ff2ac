package ops

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/rules-cuda-go/rules_cuda_go/ops/half"
)

// Shape helpers and constructors: checked shapes and dtypes, allocation, Zeros, Full, From*, Rand.

func numel(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

func contiguousStrides(shape []int) []int {
	st := make([]int, len(shape))
	acc := 1
	for d := len(shape) - 1; d >= 0; d-- {
		st[d] = acc
		acc *= shape[d]
	}
	return st
}

// checkShape validates dims (non-negative, product fits in an int) and
// returns a private copy.
func checkShape(op string, shape []int) ([]int, error) {
	n := uint(1)
	for i, d := range shape {
		if d < 0 {
			return nil, opErr(op, "shape", ErrShape, "shape %v has negative dimension %d at index %d", shape, d, i)
		}
		hi, lo := bits.Mul(n, uint(d))
		if hi != 0 || lo > uint(maxInt) {
			return nil, opErr(op, "shape", ErrShape, "shape %v has too many elements", shape)
		}
		n = lo
	}
	return append(make([]int, 0, len(shape)), shape...), nil
}

const maxInt = int(^uint(0) >> 1)

func checkDType(op string, d DType) error {
	if !d.valid() {
		return opErr(op, "dtype", ErrDType, "dtype %v is not supported, expected float32, float64, float16, bfloat16 or int32", d)
	}
	return nil
}

// allocTensor allocates a contiguous tensor for the work ctx selects;
// shape must be owned.
func allocTensor(ctx context.Context, op string, dev Device, dtype DType, shape []int) (*Tensor, error) {
	b, err := backendFor(op, dev)
	if err != nil {
		return nil, err
	}
	n := numel(shape)
	st, err := b.Alloc(ctx, dev, dtype, n)
	if err != nil {
		return nil, fmt.Errorf("ops.%s: allocating %d %v elements on %v: %w", op, n, dtype, dev, err)
	}
	if st == nil || st.Len() != n || st.DType() != dtype {
		return nil, fmt.Errorf("ops.%s: backend %s returned bad storage for %d %v elements", op, b.Name(), n, dtype)
	}
	return &Tensor{shape: shape, strides: contiguousStrides(shape), dtype: dtype, device: dev, buf: newBuffer(st, b)}, nil
}

func newHost(op string, dtype DType, shape []int) (*Tensor, error) {
	if err := checkDType(op, dtype); err != nil {
		return nil, err
	}
	shape, err := checkShape(op, shape)
	if err != nil {
		return nil, err
	}
	return allocTensor(context.Background(), op, CPU, dtype, shape)
}

// ---------------------------------------------------------------------------
// Constructors. All create contiguous CPU tensors; use To to move them.
// An empty shape gives a 0-d (scalar) tensor with one element.

// Zeros returns a CPU tensor of the given dtype and shape filled with 0.
func Zeros(dtype DType, shape ...int) (*Tensor, error) {
	return newHost("Zeros", dtype, shape)
}

// Full returns a CPU tensor of the given dtype and shape filled with value
// (rounded to nearest, through float32 for the 16-bit dtypes; for Int32,
// value must be an integer in int32's range).
func Full(value float64, dtype DType, shape ...int) (*Tensor, error) {
	if dtype == Int32 && (value != math.Trunc(value) || value < math.MinInt32 || value > math.MaxInt32) {
		return nil, opErr("Full", "value", ErrArg, "value %v is not an int32 (an integer in [%d, %d])", value, math.MinInt32, math.MaxInt32)
	}
	t, err := newHost("Full", dtype, shape)
	if err != nil {
		return nil, err
	}
	s := t.cpu()
	switch dtype {
	case Float32:
		for i := range s.f32 {
			s.f32[i] = float32(value)
		}
	case Float64:
		for i := range s.f64 {
			s.f64[i] = value
		}
	case Float16:
		v := half.Float16From(float32(value))
		for i := range s.f16 {
			s.f16[i] = v
		}
	case BFloat16:
		v := half.BFloat16From(float32(value))
		for i := range s.bf16 {
			s.bf16[i] = v
		}
	case Int32:
		for i := range s.i32 {
			s.i32[i] = int32(value)
		}
	}
	return t, nil
}

// FromFloat32 returns a float32 CPU tensor holding a copy of data in
// row-major order. With no shape, the tensor is 1-D of length len(data).
func FromFloat32(data []float32, shape ...int) (*Tensor, error) {
	if shape == nil {
		shape = []int{len(data)}
	}
	t, err := newHost("FromFloat32", Float32, shape)
	if err != nil {
		return nil, err
	}
	if n := t.Numel(); n != len(data) {
		return nil, opErr("FromFloat32", "data", ErrShape, "data has %d elements, shape %v needs %d", len(data), shape, n)
	}
	copy(t.cpu().f32, data)
	return t, nil
}

// FromFloat32As returns a CPU tensor of dtype holding data in row-major
// order, converted: rounded to nearest even for float16 and bfloat16 (the
// usual way to make a half-precision tensor), exact for float32 and float64.
// With no shape, the tensor is 1-D of length len(data).
func FromFloat32As(dtype DType, data []float32, shape ...int) (*Tensor, error) {
	const op = "FromFloat32As"
	if shape == nil {
		shape = []int{len(data)}
	}
	t, err := newHost(op, dtype, shape)
	if err != nil {
		return nil, err
	}
	if n := t.Numel(); n != len(data) {
		return nil, opErr(op, "data", ErrShape, "data has %d elements, shape %v needs %d", len(data), shape, n)
	}
	storeRounded(t.cpu(), data)
	return t, nil
}

// FromFloat16 returns a float16 CPU tensor holding a copy of data (bit
// patterns, see package half) in row-major order. With no shape, the tensor
// is 1-D of length len(data).
func FromFloat16(data []half.Float16, shape ...int) (*Tensor, error) {
	return fromElems("FromFloat16", Float16, data, shape)
}

// FromBFloat16 returns a bfloat16 CPU tensor holding a copy of data (bit
// patterns, see package half) in row-major order. With no shape, the tensor
// is 1-D of length len(data).
func FromBFloat16(data []half.BFloat16, shape ...int) (*Tensor, error) {
	return fromElems("FromBFloat16", BFloat16, data, shape)
}

func fromElems[T elem](op string, dtype DType, data []T, shape []int) (*Tensor, error) {
	if shape == nil {
		shape = []int{len(data)}
	}
	t, err := newHost(op, dtype, shape)
	if err != nil {
		return nil, err
	}
	if n := t.Numel(); n != len(data) {
		return nil, opErr(op, "data", ErrShape, "data has %d elements, shape %v needs %d", len(data), shape, n)
	}
	copy(cpuData[T](t), data)
	return t, nil
}

// FromFloat64 returns a float64 CPU tensor holding a copy of data in
// row-major order. With no shape, the tensor is 1-D of length len(data).
func FromFloat64(data []float64, shape ...int) (*Tensor, error) {
	if shape == nil {
		shape = []int{len(data)}
	}
	return fromFloat64("FromFloat64", data, shape)
}

func fromFloat64(op string, data []float64, shape []int) (*Tensor, error) {
	t, err := newHost(op, Float64, shape)
	if err != nil {
		return nil, err
	}
	if n := t.Numel(); n != len(data) {
		return nil, opErr(op, "data", ErrShape, "data has %d elements, shape %v needs %d", len(data), shape, n)
	}
	copy(t.cpu().f64, data)
	return t, nil
}

// Rand returns a CPU tensor of independent uniform values in [0, 1). The
// values depend only on seed, dtype and the number of elements (PCG from
// math/rand/v2), so they are reproducible across runs and platforms. The
// 16-bit dtypes get float32 draws rounded to nearest, those that would round
// up to 1 replaced by the largest value below 1. Int32 is an ErrDType error.
func Rand(seed uint64, dtype DType, shape ...int) (*Tensor, error) {
	if dtype == Int32 {
		return nil, opErr("Rand", "dtype", ErrDType, "dtype int32 has no uniform values in [0, 1): expected float32, float64, float16 or bfloat16")
	}
	t, err := newHost("Rand", dtype, shape)
	if err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	s := t.cpu()
	switch dtype {
	case Float32:
		for i := range s.f32 {
			s.f32[i] = r.Float32()
		}
	case Float64:
		for i := range s.f64 {
			s.f64[i] = r.Float64()
		}
	case Float16:
		const belowOne = half.Float16(0x3bff) // 1 - 2^-11
		for i := range s.f16 {
			s.f16[i] = min(half.Float16From(r.Float32()), belowOne)
		}
	case BFloat16:
		const belowOne = half.BFloat16(0x3f7f) // 1 - 2^-8
		for i := range s.bf16 {
			s.bf16[i] = min(half.BFloat16From(r.Float32()), belowOne)
		}
	}
	return t, nil
}
