package cuda

import (
	"context"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// Every built-in op of package ops (the package documentation says so) has
// a CUDA kernel, registered on its field of ops.Builtin by this package's
// init, and argName finds each
// op's tensor arguments in its schema.
func TestBuiltinOpsHaveKernels(t *testing.T) {
	for _, o := range ops.BuiltinOps() {
		if !hasKernel(o) {
			t.Errorf("%s has no CUDA kernel", o.Name())
		}
		if argName(o, 0) == "input 0" {
			t.Errorf("%s: argName(0) found no tensor argument in %v", o.Name(), o.Args())
		}
	}
}

// hasKernel reports whether o has a CUDA kernel: registering a second one
// panics.
func hasKernel(o *ops.Op) (has bool) {
	defer func() { has = recover() != nil }()
	o.RegisterKernel(ops.DeviceCUDA, func(context.Context, *ops.Tensor, []*ops.Tensor, ops.Args) error { return nil })
	return false
}
