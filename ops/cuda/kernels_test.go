package cuda

import (
	"slices"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// The kernels table has a kernel for exactly the built-in ops of package
// ops (the package documentation says so), and argName finds each op's
// tensor arguments in its schema.
func TestKernelsTableMatchesBuiltinOps(t *testing.T) {
	var names []string
	for name := range kernels {
		o := ops.LookupOp(name)
		if o == nil {
			t.Errorf("kernels has %q, which ops does not know", name)
			continue
		}
		names = append(names, name)
		if argName(name, 0) == "input 0" {
			t.Errorf("%s: argName(0) found no tensor argument in %v", name, o.Args())
		}
	}
	slices.Sort(names)
	if builtin := ops.BuiltinOps(); !slices.Equal(names, builtin) {
		t.Errorf("the kernels table has %v, the built-in ops are %v", names, builtin)
	}
}
