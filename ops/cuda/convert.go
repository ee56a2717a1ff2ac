package cuda

// #include "ops/cuda/csrc/opscuda.h"
import "C"

import "github.com/rules-cuda-go/rules_cuda_go/ops"

// asType is AsType's kernel (csrc/convert.cu): in, of any layout,
// converted to out's dtype on out's stream; the bits are those of the
// CPU's conversion.
func asType(op string, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
	e, st, err := elementwise(op, out, in, 0, 1)
	if err != nil {
		return err
	}
	defer ewPool.Put(e)
	e.dtype = dtypeCode(in[0].DType())
	return launched(op, C.opscuda_convert(st, e, dtypeCode(out.DType())))
}
