package ops

import (
	"context"
	"fmt"
)

func init() {
	Builtin.MatMul = registerBuiltin(OpDef{
		Name: "MatMul",
		Args: []Arg{{"a", KindTensor}, {"b", KindTensor}},
		Shape: func(in []*Tensor, _ Args) ([]int, error) {
			a, b := in[0], in[1]
			if len(a.shape) != 2 {
				return nil, fmt.Errorf("a has shape %v, expected 2-D [M K]", a.shape)
			}
			if len(b.shape) != 2 {
				return nil, fmt.Errorf("b has shape %v, expected 2-D [K N]", b.shape)
			}
			if a.shape[1] != b.shape[0] {
				return nil, fmt.Errorf("a has shape %v, b has shape %v: inner dimensions must match", a.shape, b.shape)
			}
			return []int{a.shape[0], b.shape[1]}, nil
		},
		Backward: func(ctx context.Context, g *Tensor, in []*Tensor, _ Args, _ *Tensor) ([]*Tensor, error) {
			// dA = g·Bᵀ, dB = Aᵀ·g, with transposes as strided views.
			bt, err := in[1].Transpose(0, 1)
			if err != nil {
				return nil, err
			}
			at, err := in[0].Transpose(0, 1)
			if err != nil {
				return nil, err
			}
			ga, err := MatMul(ctx, g, bt)
			if err != nil {
				return nil, err
			}
			gb, err := MatMul(ctx, at, g)
			return []*Tensor{ga, gb}, err
		},
		CPU: byDType(matMulCPU[float32], matMulCPU[float64]),
	})
}

// MatMul returns the matrix product of a [M, K] and b [K, N] as a new
// [M, N] tensor. The CPU kernel is cache-blocked, accumulates in the input
// dtype and runs row blocks in parallel. On a GPU, package ops/cuda calls
// cuBLAS (float32 IEEE unless cuda.SetAllowTF32, float64), reading
// transposed views in place.
func MatMul(ctx context.Context, a, b *Tensor) (*Tensor, error) {
	return Builtin.MatMul.Call(ctx, []*Tensor{a, b}, Args{})
}

// Block sizes of the CPU kernel: a bk×bn panel of B (at most 256 KiB of
// float64) is reused across the rows handled by one goroutine.
const (
	mmBlockK = 128
	mmBlockN = 256
)

// rowMajor returns data and a leading dimension such that element (i, j)
// of the 2-D tensor t is at data[i*ld+j], packing t into a new buffer if
// its columns are not unit-stride.
func rowMajor[T float](t *Tensor) ([]T, int) {
	d := cpuData[T](t)
	rows, cols := t.shape[0], t.shape[1]
	if cols == 1 || t.strides[1] == 1 {
		ld := t.strides[0]
		if rows == 1 {
			ld = cols
		}
		return d[t.offset:], ld
	}
	p := make([]T, rows*cols)
	s0, s1 := t.strides[0], t.strides[1]
	for i := range rows {
		for j := range cols {
			p[i*cols+j] = d[t.offset+i*s0+j*s1]
		}
	}
	return p, cols
}

func matMulCPU[T float](out *Tensor, in []*Tensor, _ Args) {
	a, b := in[0], in[1]
	M, K, N := a.shape[0], a.shape[1], b.shape[1]
	c := cpuData[T](out)[:M*N]
	clear(c)
	if M == 0 || N == 0 || K == 0 {
		return
	}
	A, lda := rowMajor[T](a)
	B, ldb := rowMajor[T](b)
	minRows := max(1, (1<<18)/(K*N))
	parallelFor(M, minRows, func(lo, hi int) {
		for j0 := 0; j0 < N; j0 += mmBlockN {
			j1 := min(j0+mmBlockN, N)
			for k0 := 0; k0 < K; k0 += mmBlockK {
				k1 := min(k0+mmBlockK, K)
				for i := lo; i < hi; i++ {
					crow := c[i*N+j0 : i*N+j1]
					arow := A[i*lda : i*lda+K]
					k := k0
					for ; k+4 <= k1; k += 4 {
						a0, a1, a2, a3 := arow[k], arow[k+1], arow[k+2], arow[k+3]
						b0 := B[k*ldb+j0 : k*ldb+j1]
						b1 := B[(k+1)*ldb+j0 : (k+1)*ldb+j1]
						b2 := B[(k+2)*ldb+j0 : (k+2)*ldb+j1]
						b3 := B[(k+3)*ldb+j0 : (k+3)*ldb+j1]
						b0, b1, b2, b3 = b0[:len(crow)], b1[:len(crow)], b2[:len(crow)], b3[:len(crow)]
						for j := range crow {
							crow[j] += a0*b0[j] + a1*b1[j] + a2*b2[j] + a3*b3[j]
						}
					}
					for ; k < k1; k++ {
						ak := arow[k]
						bk := B[k*ldb+j0 : k*ldb+j1]
						bk = bk[:len(crow)]
						for j := range crow {
							crow[j] += ak * bk[j]
						}
					}
				}
			}
		}
	})
}
