// Package driver is the contract between package ops/fuse, which turns
// chains into specs, and the device packages that run them (ops/fuse/fusecuda
// for CUDA), as database/sql/driver is database/sql's: a chain's user needs
// only ops/fuse; a device package imports this one, registers its kernel
// on ChainOp and gets, per call, a *Launch of a *Spec.
//
//	func init() { driver.ChainOp.RegisterKernel(ops.DeviceCUDA, run) }
//
//	func run(ctx context.Context, outs, in []*ops.Tensor, l *driver.Launch) error {
//		// compile l.Spec.Source with l.Spec.Options once per l.Spec.Key,
//		// launch l.Spec.Entry over l.N elements with Threads threads a block
//	}
package driver

import (
	"context"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// ChainOp is the op every fused chain is called through: an ops.MultiOp
// whose kernels get the call's *Launch. Its CPU kernel runs the spec's Eval;
// a device package registers its own on it (ops/fuse/fusecuda, imported,
// the CUDA kernel), as ops/cuda registers the built-in ops'.
var ChainOp = ops.RegisterMultiOp("fuse.Chain", func(_ context.Context, outs, in []*ops.Tensor, l *Launch) error {
	return l.Spec.Eval(l, outs, in)
})

// Threads is the block size of every generated kernel.
const Threads = 256

// LayoutClass is how a kernel indexes its inputs; it is part of the
// kernel's cache key.
type LayoutClass uint8

// The layout classes.
const (
	// Vector: every input contiguous with the output's shape, at an
	// offset that keeps VecWidth-element vectors aligned; each thread
	// loads and stores whole vectors.
	Vector LayoutClass = iota
	// Linear: every input contiguous with the output's shape; one element
	// per thread.
	Linear
	// Strided: inputs indexed through their own strides over Rank merged
	// dimensions (0 strides for broadcast dimensions).
	Strided
)

func (l LayoutClass) String() string {
	switch l {
	case Vector:
		return "vector"
	case Linear:
		return "linear"
	}
	return "strided"
}

// Spec is a chain specialized for its inputs' dtypes and a layout class:
// what one generated kernel computes. A device package compiles Source
// once per Key and architecture, and keeps what it compiled itself.
type Spec struct {
	Key       string // the chain's structure, dtypes, layout class, vector width, rank, index width
	Layout    LayoutClass
	VecWidth  int  // elements per thread in the Vector class
	Rank      int  // merged dimensions in the Strided class
	Index64   bool // indices need 64 bits
	InDTypes  []ops.DType
	OutDTypes []ops.DType
	Entry     string   // the kernel's extern "C" name
	Source    string   // the kernel's CUDA C++ source
	Options   []string // its NVRTC options
	// Linear is, for a spec of the Vector class, the same chain in the
	// Linear class: what a device kernel runs when the storage turns out
	// not to be aligned to a vector.
	Linear *Spec
	// Eval computes a launch of the spec in Go on CPU tensors, with the
	// roundings of the generated kernel: ChainOp's CPU kernel (the
	// reference of tests, the fallback without a device).
	Eval func(l *Launch, outs, in []*ops.Tensor) error
}

// Launch is one call of a spec: the argument a kernel of ChainOp gets with
// the call's outputs (contiguous, fresh) and inputs. The generated
// kernel's parameters, in order: the outputs, the inputs (at their
// offsets), N (long long), Consts then Args (double each), and for the
// Strided class Dims then each input's Strides (long long each).
type Launch struct {
	Spec    *Spec
	N       int       // elements of each output
	Dims    []int     // the merged dimensions (Strided)
	Strides [][]int   // per input, per merged dimension, in elements (0: broadcast) (Strided)
	Consts  []float64 // the chain's constants, shared by every call: read only
	Args    []float64 // the call's scalar arguments
}
