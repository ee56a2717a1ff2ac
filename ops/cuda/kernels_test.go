package cuda

import (
	"errors"
	"io/fs"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// Every kernel of the kernels table is registered for an op that ops
// knows, with the tensor arguments its error messages name, and the
// package documentation lists exactly these ops.
func TestKernelsTableMatchesRegistryAndDoc(t *testing.T) {
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
	src, err := os.ReadFile("doc.go") // go test and Bazel (data) run in the package's directory
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("doc.go is not in the working directory (a test binary run on its own): %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	// The list in the package doc: "... kernels, for float32 and float64, for
	// every built-in op: A, B, ... and Z. Tensors move ..."
	m := regexp.MustCompile(`(?s)for\s+every built-in op: (.*?)\. Tensors`).FindSubmatch(src)
	if m == nil {
		t.Fatal("doc.go: the list of ops (\"for every built-in op: ...\") is missing")
	}
	list := strings.NewReplacer("//", " ", "\n", " ", " and ", ", ").Replace(string(m[1]))
	var documented []string
	for _, f := range strings.Split(list, ",") {
		if f = strings.TrimSpace(f); f != "" {
			documented = append(documented, f)
		}
	}
	slices.Sort(documented)
	if !slices.Equal(documented, names) {
		t.Errorf("doc.go lists %v, the kernels table has %v", documented, names)
	}
}
