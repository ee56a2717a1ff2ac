package cuda

// #include "ops/cuda/csrc/opscuda.h"
import "C"

import "github.com/rules-cuda-go/rules_cuda_go/ops"

// Convert implements ops.Converter: AsType on the device (csrc/convert.cu),
// on out's stream, reading in through its strides; the bits are those of
// the CPU's conversion.
func (backend) Convert(out, in *ops.Tensor) error {
	const op = "AsType"
	e, st, err := elementwise(op, out, []*ops.Tensor{in}, 0, 1)
	if err != nil {
		return err
	}
	defer ewPool.Put(e)
	e.dtype = dtypeCode(in.DType())
	return launched(op, C.opscuda_convert(st, e, dtypeCode(out.DType())))
}
