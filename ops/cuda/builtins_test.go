package cuda_test

import (
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops/optest"
)

// TestBuiltins runs optest's conformance suite of the built-in ops: their
// CPU kernels and, with a GPU, this package's CUDA kernels, each checked
// as a user's op is (every dtype, layout, bad inputs, GradCheck, a stream
// of its own and a CUDA graph) against a float64 reference with the
// tolerance table.
func TestBuiltins(t *testing.T) {
	for _, s := range optest.Builtins() {
		t.Run(s.Name, func(t *testing.T) { optest.Run(t, s) })
	}
}
