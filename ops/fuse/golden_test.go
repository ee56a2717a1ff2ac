package fuse_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/fuse"
	"github.com/rules-cuda-go/rules_cuda_go/ops/fuse/driver"
	"github.com/rules-cuda-go/rules_cuda_go/ops/fuse/fusetest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGolden compares generated kernels with testdata/*.cu.golden (go test
// ./ops/fuse -run Golden -update rewrites them).
func TestGolden(t *testing.T) {
	cases := map[string]*fuse.Chain{}
	for _, c := range fusetest.Cases() {
		cases[c.Name] = c.Chain
	}
	for _, g := range []struct {
		file   string
		chain  string
		layout driver.LayoutClass
		rank   int
		n      int
		dtypes []ops.DType
		grad   bool
	}{
		{"chain20_f32_vector.cu.golden", "chain20", driver.Vector, 0, 1 << 20, []ops.DType{ops.Float32}, false},
		{"gelu_f16_strided2.cu.golden", "gelu", driver.Strided, 2, 1000, []ops.DType{ops.Float16}, false},
		{"outputs3_f64_linear64.cu.golden", "outputs3", driver.Linear, 0, 1 << 32, []ops.DType{ops.Float64, ops.Float64}, false},
		{"casts_bf16_vector.cu.golden", "casts", driver.Vector, 0, 64, []ops.DType{ops.BFloat16}, false},
		{"silu_f32_backward.cu.golden", "silu", driver.Vector, 0, 64, []ops.DType{ops.Float32}, true},
		{"where_f32_backward.cu.golden", "where", driver.Vector, 0, 64, []ops.DType{ops.Float32, ops.Float32}, true},
	} {
		c := cases[g.chain]
		var src string
		if g.grad {
			var err error
			if src, err = c.GradSourceFor([]int{0}, g.n, g.dtypes...); err != nil {
				t.Fatal(err)
			}
			src += "\n"
		} else {
			s, err := c.SpecForLayout(g.layout, g.rank, g.n, g.dtypes...)
			if err != nil {
				t.Fatal(err)
			}
			src = s.Source
		}
		path := filepath.Join("testdata", g.file)
		if *update {
			if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test ./ops/fuse -run Golden -update)", err)
		}
		if string(want) != src {
			t.Errorf("%s: generated source differs from the golden file (rerun with -update and review the diff):\n%s", path, src)
		}
	}
}
