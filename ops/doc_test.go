package ops

import (
	"errors"
	"io/fs"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The package documentation's list of built-in ops names exactly the ops
// this package registers, each with its schema's tensor arguments, then
// (after ';') its other arguments (floats, ints, dtypes).
func TestDocListsBuiltinOps(t *testing.T) {
	src, err := os.ReadFile("doc.go") // go test and Bazel (data) run in the package's directory
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("doc.go is not in the working directory (a test binary run on its own): %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	// "//\tName(tensor, ...; arg, ...)   description", in the block after "Built-in ops".
	_, block, ok := strings.Cut(string(src), "// Built-in ops (Builtin)")
	if !ok {
		t.Fatal(`doc.go: the list of built-in ops ("// Built-in ops (Builtin) ...") is missing`)
	}
	block, _, _ = strings.Cut(block, "\n//\n// ")
	line := regexp.MustCompile(`(?m)^//\t(\w+)\(([^)]*)\)`)
	var documented []string
	for _, m := range line.FindAllStringSubmatch(block, -1) {
		name, args := m[1], m[2]
		documented = append(documented, name)
		o := LookupOp(name)
		if o == nil {
			t.Errorf("doc.go lists %s, which is not registered", name)
			continue
		}
		tensors, others, _ := strings.Cut(args, ";")
		if got, want := splitNames(tensors), o.tensorNames; !slices.Equal(got, want) {
			t.Errorf("doc.go: %s's tensor arguments are %v, its schema's %v", name, got, want)
		}
		var want []string
		for _, a := range o.Args() {
			if a.Kind != KindTensor {
				want = append(want, a.Name)
			}
		}
		if got := splitNames(others); !slices.Equal(got, want) {
			t.Errorf("doc.go: %s's other arguments are %v, its schema's %v", name, got, want)
		}
	}
	slices.Sort(documented)
	var builtin []string
	for _, o := range BuiltinOps() {
		builtin = append(builtin, o.Name())
	}
	if !slices.Equal(documented, builtin) {
		t.Errorf("doc.go lists %v, the built-in ops are %v", documented, builtin)
	}
}

func splitNames(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
