package cuda

import (
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/bazelbuild/bazel-gazelle/config"
	"github.com/bazelbuild/bazel-gazelle/language"
)

// inputFor writes files (names in the directory pkg) into a new repository and returns the
// dirInput of pkg, as GenerateRules builds it for a directory without a build file.
func inputFor(t *testing.T, files map[string]string) *dirInput {
	t.Helper()
	tree := map[string]string{}
	var names []string
	for name, content := range files {
		tree["pkg/"+name] = content
		names = append(names, name)
	}
	sort.Strings(names)
	root := writeTree(t, tree)
	c := config.New()
	c.RepoRoot = root
	args := language.GenerateArgs{Config: c, Dir: filepath.Join(root, "pkg"), Rel: "pkg", RegularFiles: names}
	none := func() map[string]bool { return nil }
	return newDirInput(args, newCudaConfig(), newPreprocessor(root), newCodeFactCache(root), none)
}

// describePlan returns one line per library of p: its name, files, deps and binary.
func describePlan(p *plan) []string {
	var out []string
	for _, u := range p.libs {
		s := fmt.Sprintf("%s srcs=%s hdrs=%s deps=%s", u.name, strings.Join(u.srcs, ","), strings.Join(u.hdrs, ","), strings.Join(u.deps, ","))
		if u.alwayslink {
			s += " alwayslink"
		}
		if u.binary != nil {
			s += " bin=" + u.binary.name
		}
		out = append(out, s)
	}
	return out
}

func TestPlanDirectory(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{
			name: "several programs beside a library",
			files: map[string]string{
				"kernel.cu": "__global__ void k(float *p) { p[threadIdx.x] = 0; }\nvoid launch(float *p) { k<<<1, 32>>>(p); }\n",
				"a.cu":      "int main() { return 0; }\n",
				"b.cu":      "void launch(float *p);\nint main() { launch(0); return 0; }\n",
			},
			want: []string{
				"pkg srcs=kernel.cu hdrs= deps=",
				"a_lib srcs=a.cu hdrs= deps=:pkg bin=a",
				"b_lib srcs=b.cu hdrs= deps=:pkg bin=b",
			},
		},
		{
			name: "one program is the library's binary",
			files: map[string]string{
				"main.cu": "#include \"k.cuh\"\nint main() { return 0; }\n",
				"k.cuh":   "__global__ void k(float *p);\n",
			},
			want: []string{"pkg srcs=main.cu hdrs=k.cuh deps= bin=pkg_bin"},
		},
		{
			name: "header collection",
			files: map[string]string{
				"a.h":  "#include <cuda_runtime.h>\nvoid a();\n",
				"b.h":  "#include \"a.h\"\nvoid b();\n",
				"a.cc": "#include \"a.h\"\nvoid a() {}\n",
				"b.cc": "#include \"b.h\"\nvoid b() {}\n",
			},
			want: []string{
				"a srcs=a.cc hdrs=a.h deps=",
				"b srcs=b.cc hdrs=b.h deps=",
			},
		},
		{
			name: "engines around a shared main",
			files: map[string]string{
				"common.h":  "struct benchEngine { const char *name; };\nextern struct benchEngine engine;\n",
				"common.cu": "#include \"common.h\"\n__global__ void k() {}\nint main() { return engine.name != 0; }\n",
				"sum.cu":    "#include \"common.h\"\nstruct benchEngine engine = {\"sum\"};\n",
				"max.cu":    "#include \"common.h\"\nstruct benchEngine engine = {\"max\"};\n",
			},
			want: []string{
				"pkg srcs=common.cu hdrs=common.h deps=",
				"max_lib srcs=max.cu hdrs= deps=:pkg alwayslink bin=max",
				"sum_lib srcs=sum.cu hdrs= deps=:pkg alwayslink bin=sum",
			},
		},
		{
			name:  "plain C++ gets nothing",
			files: map[string]string{"a.cc": "int f() { return 1; }\n", "a.h": "int f();\n"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := describePlan(planDirectory(inputFor(t, tc.files)))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("plan:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestInferNeedsAndLibraryRule(t *testing.T) {
	d := inputFor(t, map[string]string{
		"host.cc":  "#include \"kern.cuh\"\nvoid f(float *p) { k<<<1, 1>>>(p); }\n",
		"kern.cuh": "__global__ void k(float *p) { p[0] = 1; }\n",
		"lam.cu":   "void g() {\n  auto f = [] __device__ (int i) { return i; };\n}\n",
		"drv.cu":   "#include <cuda.h>\nvoid h() { cuInit(0); }\n",
		"rdc.cu":   "extern __device__ int counter;\n__global__ void bump() { counter++; }\n",
	})
	p := planDirectory(d)
	if len(p.libs) != 1 {
		t.Fatalf("plan has %d libraries, want 1: %q", len(p.libs), describePlan(p))
	}
	u := p.libs[0]
	want := compileNeeds{
		rdc:    []string{"pkg/rdc.cu:1 declares device code defined in another file"},
		asCuda: "pkg/host.cc reaches device code (pkg/host.cc:2)",
		lambda: "pkg/lam.cu:2",
		driver: "pkg/drv.cu:2",
	}
	if !reflect.DeepEqual(u.needs, want) {
		t.Errorf("needs = %+v, want %+v", u.needs, want)
	}
	if !reflect.DeepEqual(u.deps, []string{driverLazyTarget}) {
		t.Errorf("deps = %q, want the lazily loaded driver", u.deps)
	}

	r := libraryRule(d, u)
	for _, key := range []string{"rdc", "host_srcs_as_cuda"} {
		if !isTrue(r.Attr(key)) {
			t.Errorf("%s is not True", key)
		}
	}
	if got := r.AttrStrings("copts"); !reflect.DeepEqual(got, []string{"--extended-lambda"}) {
		t.Errorf("copts = %q, want --extended-lambda", got)
	}
	if got := r.AttrStrings("visibility"); !reflect.DeepEqual(got, []string{"//visibility:public"}) {
		t.Errorf("visibility = %q, want public", got)
	}
}

func TestSettleFilesKeepsPrivateHeaders(t *testing.T) {
	old := newRule(t, `cu_library(name = "pkg", srcs = ["z.cu", "a.h"], hdrs = ["b.h"])`)
	u := &libUnit{name: "pkg", old: old, srcs: []string{"z.cu"}, hdrs: []string{"b.h", "a.h"}}
	settleFiles(u)
	if want := []string{"a.h", "z.cu"}; !reflect.DeepEqual(u.srcs, want) {
		t.Errorf("srcs = %q, want %q", u.srcs, want)
	}
	if want := []string{"b.h"}; !reflect.DeepEqual(u.hdrs, want) {
		t.Errorf("hdrs = %q, want %q", u.hdrs, want)
	}
}
