// Package optest is the op author's test kit: given an op, its reference
// in float64, the shapes of its inputs and its dtypes, Run checks it the
// way every op of this repository is checked, so that an op's test writes
// by hand only what is specific to it (its argument checks, say):
//
//	func TestLeakyRelu(t *testing.T) {
//		optest.Run(t, optest.Spec{
//			Name: "LeakyRelu",
//			Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
//				return LeakyRelu(ctx, in[0], 0.125)
//			},
//			Ref:    optest.Elementwise(func(v []float64) float64 { return leaky(v[0]) }),
//			Inputs: 1,
//			DTypes: []ops.DType{ops.Float32, ops.Float64},
//		})
//	}
//
// Run's subtests:
//
//   - cpu: the op against Ref on every dtype of Spec.DTypes, every case
//     of Spec.Shapes and every layout of the inputs (Layouts: contiguous,
//     offset, strided, transposed, narrowed; unused elements of a view's
//     storage are NaN, so a kernel that reads outside the view fails),
//     with Spec.Tol; the output on the inputs' device, of their shape
//     where Ref says so;
//   - dtypes: the dtypes the op does not support are an ops.ErrDType error;
//   - grad: ops.GradCheck of the op in float64 on every layout of
//     Spec.GradShapes (unless Spec.NoGrad);
//   - errors: a nil input is ops.ErrNil, a freed one ops.ErrFreed, mixed
//     dtypes ops.ErrDType and, with a GPU, mixed devices ops.ErrDevice;
//   - cuda (skipped without a CUDA device, saying why): the cpu, dtypes
//     and grad checks again on the GPU, and the op on a stream of its own
//     (cuda.WithStream) on inputs made on the default stream: its output
//     belongs to that stream (unless the op returned an input as it is,
//     as AsType to the input's own dtype does), and the output and the gradients of the
//     inputs (Backward runs on the forward's stream) equal the CPU's; then
//     the op captured into a CUDA graph on a stream of its own
//     (cuda.Capture), replayed after its inputs were given new values in
//     place: the output must be Ref of the new values, which fails an op
//     whose kernel is launched on another stream than cuda.Launch.Stream
//     (it runs once during the capture instead of in the graph); an op
//     that cannot be captured (cuda.ErrNotCapturable) skips this check,
//     saying why.
//
// An op with index inputs (an embedding's token ids, a loss's targets)
// lists them in Spec.Index: they are ops.Int32 tensors of values in [0, n),
// laid out like the others and never differentiated.
//
// Benchmark times an op on the CPU and, where there is one, the GPU.
//
// Builtins returns the specs of package ops's built-in ops: one
// conformance suite that every implementation of them runs through Run
// (ops/cuda's tests do), as every BLAS implementation runs gonum's testblas.
//
// The package imports ops/cuda for its device checks; like every program
// that does, a test that uses it starts and runs its CPU checks on machines
// without a GPU or NVIDIA driver.
package optest
