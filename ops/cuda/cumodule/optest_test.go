package cumodule_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/cumodule"
	"github.com/rules-cuda-go/rules_cuda_go/ops/optest"
)

// copyOps are two ops y = x in float32 whose CUDA kernel is scale_add (a = 1, b = 0), loaded on
// first use: "OnStream" launches it with the op's context, as a kernel must; "IgnoresStream"
// launches it on the legacy default stream (stream 0) instead of cuda.Launch.Stream, as a .cu
// launcher does that uses <<<grid, block>>> without a stream.
var copyOps = map[string]*ops.Op{}

var loadOnce = sync.OnceValues(func() (*cumodule.Kernel, error) {
	m, err := cumodule.Load(0, image)
	if err != nil {
		return nil, err
	}
	return m.Kernel("scale_add")
})

func init() {
	for name, own := range map[string]bool{"OnStream": true, "IgnoresStream": false} {
		op := ops.RegisterOp(ops.OpDef{
			Name: "CumoduleCopy" + name,
			Args: []ops.Arg{{Name: "x", Kind: ops.KindTensor}},
			Shape: func(in []*ops.Tensor, _ ops.Args) ([]int, error) {
				if in[0].DType() != ops.Float32 {
					return nil, &ops.OpError{Arg: "x", Kind: ops.ErrDType, Detail: fmt.Sprintf("dtype %v, expected float32", in[0].DType())}
				}
				return in[0].Shape(), nil
			},
			CPU: ops.ContiguousInputs(func(_ context.Context, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
				copy(ops.HostView[float32](out), ops.HostView[float32](in[0]))
				return nil
			}),
		})
		op.RegisterKernel(ops.DeviceCUDA, ops.ContiguousInputs(func(ctx context.Context, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
			k, err := loadOnce()
			if err != nil {
				return err
			}
			l, err := cuda.NewLaunch(ctx, out, in[0])
			if err != nil {
				return err
			}
			if !own {
				l.Stream = 0 // what a launcher that ignores Launch.Stream does
			}
			n := out.Numel()
			params := []uint64{uint64(l.Ptr[0]), uint64(l.Ptr[1]), uint64(math.Float32bits(1)), 0, uint64(n)}
			return k.LaunchWith(l, cumodule.Dim3{X: (n + 255) / 256}, cumodule.Dim3{X: 256}, 0, params)
		}))
		copyOps[name] = op
	}
}

// copySpec is the optest.Spec of copyOps[name].
func copySpec(name string) optest.Spec {
	op := copyOps[name]
	return optest.Spec{
		Name:   op.Name(),
		Call:   func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) { return op.Call(ctx, in, ops.Args{}) },
		Ref:    optest.Elementwise(func(v []float64) float64 { return v[0] }),
		Inputs: 1,
		DTypes: []ops.DType{ops.Float32},
		NoGrad: true,
	}
}

// optest.Run passes the op whose kernel runs on the context's stream.
func TestOptestOnStream(t *testing.T) {
	optest.Run(t, copySpec("OnStream"))
}

// TestOptestIgnoresStream runs the kit on the op whose kernel ignores the context's stream; only in
// the child process of TestOptestFailsStreamIgnoringKernel.
func TestOptestIgnoresStream(t *testing.T) {
	if os.Getenv("CUMODULE_OPTEST_CHILD") == "" {
		t.Skip("run by TestOptestFailsStreamIgnoringKernel")
	}
	optest.Run(t, copySpec("IgnoresStream"))
}

// optest.Run fails an op whose kernel is launched on the legacy default stream instead of the
// op's, in its capture check: nothing else (values, the check on a stream of its own) tells.
func TestOptestFailsStreamIgnoringKernel(t *testing.T) {
	requireGPU(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestOptestIgnoresStream$", "-test.v")
	cmd.Env = append(os.Environ(), "CUMODULE_OPTEST_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("optest.Run passed an op whose kernel ignores the context's stream:\n%s", out)
	}
	for _, want := range []string{"--- FAIL: TestOptestIgnoresStream/cuda/capture", "ignores cuda.Launch.Stream"} {
		if !strings.Contains(string(out), want) {
			t.Fatalf("optest.Run failed the op that ignores the stream without %q in its output:\n%s", want, out)
		}
	}
	for _, pass := range []string{"values", "stream"} {
		if strings.Contains(string(out), "--- FAIL: TestOptestIgnoresStream/cuda/"+pass) {
			t.Logf("note: the %s check fails it too", pass)
		}
	}
}
