package cuda

// #include "ops/cuda/csrc/opscuda.h"
import "C"

import (
	"context"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// asType is AsType's kernel (csrc/convert.cu): in, of any layout,
// converted to out's dtype on out's stream; the bits are those of the
// CPU's conversion.
func asType(ctx context.Context, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
	o := ops.Builtin.AsType
	l, e, err := elementwise(ctx, o, out, in, 0, 1)
	if err != nil {
		return err
	}
	return l.checkOp(o, C.opscuda_convert(e.st, e.device, dtypeCode(in[0].DType()), e.out, e.in, e.nin, e.n, e.ndim, e.sizes, e.strides,
		e.dtype))
}
