package optest

import (
	"context"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/internal/testkit"
	"github.com/rules-cuda-go/rules_cuda_go/ops/internal/testtensor"
)

// Layout is how a tensor's elements are laid out in its storage.
type Layout = testkit.Layout

// The layouts an op's inputs are checked in.
const (
	Contiguous = testkit.Contiguous // row-major, offset 0
	Offset     = testkit.Offset     // row-major, after 3 unused elements
	Strided    = testkit.Strided    // every other element of the storage
	Transposed = testkit.Transposed // the last two dimensions swapped in storage (rank >= 2)
	Narrowed   = testkit.Narrowed   // rows of the last dimension inside longer rows (rank >= 2)
)

// Layouts returns the layouts a tensor of shape can have: all five for a
// rank of 2 or more, the first three below.
func Layouts(shape []int) []Layout { return testkit.Layouts(shape) }

// View returns a tensor of dtype on dev whose logical (row-major) values
// are data (rounded to dtype) and whose shape is shape, laid out as layout:
// a view of a larger contiguous tensor made on dev, whose elements outside
// the view are NaN. Copies to dev are made with ctx.
func View(ctx context.Context, dtype ops.DType, data []float64, shape []int, layout Layout, dev ops.Device) (*ops.Tensor, error) {
	return testtensor.View(ctx, dtype, data, shape, layout, dev)
}
