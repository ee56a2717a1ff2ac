// Command newop scaffolds a new op for the rules_cuda_go tensor library: a CUDA kernel with
// float32/float64 dispatch and a C launcher that takes a stream, the Go registration (a CPU kernel
// that is the reference and the fallback, a CUDA kernel, a backward op), a test and a benchmark,
// a CPU stub of the C API for CPU-only builds (--config=cpu), and the BUILD file: newop writes the
// stub's cc_library and the select() in cu_deps that picks it, the repository's gazelle (with
// rules_cuda_go's CUDA extension) the rest.
//
//	bazel run @rules_cuda_go//tools/newop -- --name LeakyRelu --dir pkg/leakyrelu
//
// (in rules_cuda_go itself: ./bazelw run //tools/newop -- ...). It writes into the workspace that
// `bazel run` was started in, refuses to overwrite anything, and then runs `bazel run //:gazelle --
// DIR` there (--gazelle=false leaves that to you). The generated package builds and its tests pass
// as written; edit f/df in the .cu file and reference/referenceGrad in the .go file to make it
// your op.
package main

import (
	"bytes"
	"embed"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"text/template"

	"github.com/rules-cuda-go/rules_cuda_go/tools/internal/bazelcmd"
)

//go:embed templates/*.tmpl
var templates embed.FS

// params are what the templates are filled in with.
type params struct {
	Name    string // the op's Go name, e.g. LeakyRelu
	Dir     string // the package's directory, relative to the workspace root, e.g. pkg/leakyrelu
	Package string // the Go package name, e.g. leakyrelu
	Base    string // file base name and C symbol prefix, e.g. leakyrelu
	GoName  string // the Go library's target name, as gazelle names it: the directory's base name
	Guard   string // the header's include guard
}

// outputs maps each template to the file it becomes ({base} is replaced by params.Base).
var outputs = []struct{ template, file string }{
	{"op.cu.tmpl", "{base}.cu"},
	{"op.h.tmpl", "{base}.h"},
	{"op.go.tmpl", "{base}.go"},
	{"op_test.go.tmpl", "{base}_test.go"},
	{"op_stub.cc.tmpl", "{base}_stub.cc"},
}

var (
	nameRE    = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*$`)
	packageRE = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	dirElemRE = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]*$`)
)

// newParams validates the op name, directory and package name and derives the rest.
func newParams(name, dir, pkg string) (params, error) {
	if !nameRE.MatchString(name) || len(name) > 64 {
		return params{}, fmt.Errorf("--name %q: want an exported Go identifier in CamelCase (a capital letter, then letters and digits, at most 64), e.g. LeakyRelu", name)
	}
	if dir == "" {
		return params{}, errors.New("--dir is required: the new package's directory, relative to the workspace root, e.g. pkg/leakyrelu")
	}
	if filepath.IsAbs(dir) || path.Clean(dir) != dir || dir == "." || strings.HasPrefix(dir, "../") || dir == ".." {
		return params{}, fmt.Errorf("--dir %q: want a clean relative path inside the workspace, e.g. pkg/leakyrelu", dir)
	}
	for _, e := range strings.Split(dir, "/") {
		if !dirElemRE.MatchString(e) || strings.HasPrefix(e, "bazel-") {
			return params{}, fmt.Errorf("--dir %q: element %q must be letters, digits, '_', '.' or '-' (not starting with '.', '-' or \"bazel-\")", dir, e)
		}
	}
	if pkg == "" {
		pkg = strings.ToLower(strings.ReplaceAll(path.Base(dir), "-", "_"))
	}
	if !packageRE.MatchString(pkg) || token.IsKeyword(pkg) || pkg == "main" {
		return params{}, fmt.Errorf("package name %q (from --dir, or --package): want a lower-case Go identifier that is not a keyword or main, e.g. --package leakyrelu", pkg)
	}
	guard := strings.ToUpper(regexp.MustCompile(`[^A-Za-z0-9]`).ReplaceAllString(dir+"/"+pkg+"_h_", "_"))
	return params{Name: name, Dir: dir, Package: pkg, Base: pkg, GoName: path.Base(dir), Guard: guard}, nil
}

// render fills in every template and returns the files by name (relative to the package directory).
func render(p params) (map[string][]byte, error) {
	files := map[string][]byte{}
	for _, o := range outputs {
		t, err := template.ParseFS(templates, "templates/"+o.template)
		if err != nil {
			return nil, err
		}
		t.Option("missingkey=error")
		var b bytes.Buffer
		if err := t.Execute(&b, p); err != nil {
			return nil, fmt.Errorf("template %s: %w", o.template, err)
		}
		name := strings.ReplaceAll(o.file, "{base}", p.Base)
		out := b.Bytes()
		if strings.HasSuffix(name, ".go") {
			if out, err = format.Source(out); err != nil {
				return nil, fmt.Errorf("template %s made Go code that does not parse: %w", o.template, err)
			}
		}
		files[name] = out
	}
	return files, nil
}

// buildFile is the package's BUILD.bazel before gazelle fills it in: the CPU stub's cc_library
// (gazelle leaves cc_library to you) and the Go library with the select() in cu_deps that links the
// stub under --config=cpu (docs/rules.md: "CPU-only builds of your own ops"); gazelle adds the Go
// library's srcs, importpath and deps and writes the cu_library, named <GoName>_cu. The stub file is
// excluded from gazelle, which would otherwise add it to the cgo srcs. Outside rules_cuda_go the
// rules come from @rules_cuda_go, and a resolve directive names the header with the C ABI's dtype
// codes, which gazelle cannot index there.
func buildFile(p params, inRulesCudaGo bool) []byte {
	repo := "@rules_cuda_go"
	if inRulesCudaGo {
		repo = ""
	}
	var b strings.Builder
	// The loads gazelle would add, first: it puts new loads above everything else.
	fmt.Fprintf(&b, `load("@io_bazel_rules_go//go:def.bzl", "go_test")
load("@rules_cc//cc:defs.bzl", "cc_library")
load("%s//rules:defs.bzl", "cu_library", "go_cuda_library")

`, repo)
	fmt.Fprintf(&b, "# The BUILD file of the %s op: gazelle (bazel run //:gazelle) writes and updates its rules;\n", p.Name)
	fmt.Fprintf(&b, "# %s_stub and the select() in cu_deps are yours (docs/rules.md: \"CPU-only builds of your own ops\").\n", p.Base)
	if !inRulesCudaGo {
		b.WriteString("# The C ABI's dtype codes (OPSCUDA_FLOAT32/64) come from rules_cuda_go:\n" +
			"# gazelle:resolve cuda ops/cuda/csrc/opscuda.h @rules_cuda_go//ops/cuda:api\n")
	}
	fmt.Fprintf(&b, "# gazelle:exclude %s_stub.cc\n\n", p.Base)
	fmt.Fprintf(&b, `go_cuda_library(
    name = "%[2]s",
    # Under --config=cpu the cu_library compiles nothing: the CPU stub stands in for it.
    cu_deps = select({
        "%[1]s//toolchains:cuda_enabled": [":%[2]s_cu"],
        "//conditions:default": [":%[3]s_stub"],
    }),
)

# The C API of %[3]s.h without CUDA (each launcher returns cudaErrorNoDevice), for --config=cpu.
# The header comes from the cu_library, which provides it under --config=cpu too.
cc_library(
    name = "%[3]s_stub",
    srcs = ["%[3]s_stub.cc"],
    deps = [":%[2]s_cu"],
)
`, repo, p.GoName, p.Base)
	return []byte(b.String())
}

// hasRulesCC reports whether the workspace's MODULE.bazel has a bazel_dep on rules_cc, which the
// stub's load needs (true where there is no MODULE.bazel: WORKSPACE mode gets it otherwise).
func hasRulesCC(ws string) bool {
	b, err := os.ReadFile(filepath.Join(ws, "MODULE.bazel"))
	return err != nil || regexp.MustCompile(`bazel_dep\(\s*name\s*=\s*"rules_cc"`).Match(b)
}

// write creates the files in dir, refusing (before writing any) if one of them exists.
func write(dir string, files map[string][]byte) error {
	var exist []string
	for name := range files {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			exist = append(exist, filepath.Join(dir, name))
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, "BUILD")); err == nil {
		exist = append(exist, filepath.Join(dir, "BUILD"))
	}
	if len(exist) > 0 {
		return fmt.Errorf("refusing to overwrite %s: choose another --dir (or --package), or move them away", strings.Join(sorted(exist), ", "))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, name := range sorted(keys(files)) {
		f, err := os.OpenFile(filepath.Join(dir, name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return err
		}
		if _, err := f.Write(files[name]); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	return nil
}

func keys(m map[string][]byte) []string {
	var k []string
	for n := range m {
		k = append(k, n)
	}
	return k
}

func sorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

func main() {
	name := flag.String("name", "", "the op's Go name, CamelCase (e.g. LeakyRelu)")
	dir := flag.String("dir", "", "the new package's directory, relative to the workspace root (e.g. pkg/leakyrelu)")
	pkg := flag.String("package", "", "the Go package name and file base name (default: the last element of --dir, lower case)")
	root := flag.String("root", "", "the workspace root (default: the workspace `bazel run` was started in, else the current directory)")
	gazelle := flag.Bool("gazelle", true, "run `bazel run //:gazelle -- DIR` in the workspace afterwards, to write the BUILD file")
	bazel := flag.String("bazel", "", "the Bazel command that runs gazelle (default: $RULES_CUDA_GO_BAZEL, else bazel on PATH)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: bazel run @rules_cuda_go//tools/newop -- --name LeakyRelu --dir pkg/leakyrelu\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() > 0 {
		fail(fmt.Errorf("unexpected arguments %q: everything is a flag (--name, --dir, ...)", flag.Args()))
	}
	p, err := newParams(*name, *dir, *pkg)
	if err != nil {
		fail(err)
	}
	ws := *root
	if ws == "" {
		ws = os.Getenv("BUILD_WORKSPACE_DIRECTORY")
	}
	if ws == "" {
		if ws, err = os.Getwd(); err != nil {
			fail(err)
		}
	}
	if _, err := os.Stat(filepath.Join(ws, "MODULE.bazel")); err != nil {
		if _, err2 := os.Stat(filepath.Join(ws, "WORKSPACE")); err2 != nil {
			fail(fmt.Errorf("%s is not a workspace root (no MODULE.bazel or WORKSPACE): run this with bazel run, or pass --root", ws))
		}
	}
	files, err := render(p)
	if err != nil {
		fail(err)
	}
	_, err = os.Stat(filepath.Join(ws, "ops/cuda/csrc/opscuda.h"))
	files["BUILD.bazel"] = buildFile(p, err == nil)
	out := filepath.Join(ws, filepath.FromSlash(p.Dir))
	if err := write(out, files); err != nil {
		fail(err)
	}
	for _, n := range sorted(keys(files)) {
		fmt.Printf("newop: wrote %s\n", path.Join(p.Dir, n))
	}
	gazelleCmd := "bazel run //:gazelle -- " + p.Dir
	if *gazelle {
		b, err := bazelcmd.Find(*bazel)
		if err == nil {
			fmt.Printf("newop: %s run //:gazelle -- %s\n", b, p.Dir)
			c := exec.Command(b, "run", "//:gazelle", "--", p.Dir)
			c.Dir, c.Stdout, c.Stderr = ws, os.Stdout, os.Stderr
			err = c.Run()
		}
		if err != nil {
			fail(fmt.Errorf("the sources are written, but gazelle did not run (%v): run `%s` in %s", err, gazelleCmd, ws))
		}
	} else {
		fmt.Printf("newop: now write the BUILD file: %s\n", gazelleCmd)
	}
	if !hasRulesCC(ws) {
		fmt.Printf("newop: note: %s_stub is a cc_library, loaded from @rules_cc: add bazel_dep(name = \"rules_cc\", version = \"0.1.5\") to MODULE.bazel\n", p.Base)
	}
	fmt.Printf("newop: next: bazel test //%s:all  (--config=cpu: without CUDA; on the GPU too; --config=memcheck runs it under compute-sanitizer)\n", p.Dir)
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "newop: error: %v\n", err)
	os.Exit(1)
}
