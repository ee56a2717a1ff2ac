package jit

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// tinyProgram is a small program (no toolkit headers) that compiles quickly.
func tinyProgram() Program {
	return Program{
		Name:            "tiny.cu",
		Source:          "#include \"tiny.h\"\ntemplate <typename T>\n__global__ void fill(T* y, long long n) {\n  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) y[i] = TINY_VALUE;\n}\n",
		Headers:         map[string]string{"tiny.h": "#define TINY_VALUE T(1)\n"},
		NameExpressions: []string{"fill<float>", "fill<double>"},
	}
}

// entries returns the cache's entry files.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, layout, "*", "*"+entryExt))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestCacheHitAndMiss(t *testing.T) {
	dir := t.TempDir()
	c := &Cache{Dir: dir}
	first, err := c.Compile(tinyProgram(), "sm_90", CUBIN)
	if err != nil {
		t.Fatal(err)
	}
	again, err := c.Compile(tinyProgram(), "sm_90", CUBIN)
	if err != nil {
		t.Fatal(err)
	}
	if s := c.Stats(); s.Compiles != 1 || s.Hits != 1 {
		t.Fatalf("stats after two compiles of one program: %+v, want 1 compile and 1 hit", s)
	}
	if !bytes.Equal(first.Code, again.Code) || again.Kernel("fill<double>") != first.Kernel("fill<double>") || again.NVRTC != first.NVRTC {
		t.Fatalf("the cached image differs from the compiled one")
	}
	// A new Cache on the same directory (another process, say) finds it too.
	other := &Cache{Dir: dir}
	if _, err := other.Compile(tinyProgram(), "sm_90", CUBIN); err != nil || other.Stats().Hits != 1 {
		t.Fatalf("a second Cache on the directory: %v, %+v", err, other.Stats())
	}
	// Everything in the key makes a new entry.
	variants := []func(p *Program) (Arch, Format){
		func(p *Program) (Arch, Format) { return "sm_80", CUBIN },
		func(p *Program) (Arch, Format) { return "sm_90", PTX },
		func(p *Program) (Arch, Format) { p.Source += "\n// edited\n"; return "sm_90", CUBIN },
		func(p *Program) (Arch, Format) { p.Options = append(p.Options, "-DEXTRA=1"); return "sm_90", CUBIN },
		func(p *Program) (Arch, Format) {
			p.Headers = map[string]string{"tiny.h": "#define TINY_VALUE T(2)\n"}
			return "sm_90", CUBIN
		},
		func(p *Program) (Arch, Format) { p.NameExpressions = p.NameExpressions[:1]; return "sm_90", CUBIN },
		func(p *Program) (Arch, Format) { p.Name = "renamed.cu"; return "sm_90", CUBIN },
	}
	for i, v := range variants {
		p := tinyProgram()
		arch, format := v(&p)
		if _, err := c.Compile(p, arch, format); err != nil {
			t.Fatalf("variant %d: %v", i, err)
		}
	}
	if s := c.Stats(); s.Compiles != 1+int64(len(variants)) {
		t.Errorf("stats after %d variants: %+v, want a compile each", len(variants), s)
	}
	if n := len(entries(t, dir)); n != 1+len(variants) {
		t.Errorf("%d entries on disk, want %d", n, 1+len(variants))
	}
}

func TestCacheCompileErrorsAreNotCached(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	p := Program{Name: "bad.cu", Source: "extern \"C\" __global__ void k() { nope(); }\n"}
	for i := 0; i < 2; i++ {
		if _, err := c.Compile(p, "sm_90", CUBIN); err == nil || !strings.Contains(err.Error(), "bad.cu(1)") {
			t.Fatalf("compile %d of bad source: %v, want the NVRTC error at bad.cu(1)", i, err)
		}
	}
	if n := len(entries(t, c.Dir)); n != 0 {
		t.Errorf("%d entries after failed compiles", n)
	}
}

func TestCacheOneCompileAcrossGoroutines(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	var wg sync.WaitGroup
	codes := make([][]byte, 16)
	errs := make([]error, len(codes))
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			im, err := c.Compile(tinyProgram(), "sm_90", CUBIN)
			errs[i] = err
			if err == nil {
				codes[i] = im.Code
			}
		}()
	}
	wg.Wait()
	for i := range codes {
		if errs[i] != nil || !bytes.Equal(codes[i], codes[0]) {
			t.Fatalf("goroutine %d: %v", i, errs[i])
		}
	}
	if s := c.Stats(); s.Compiles != 1 {
		t.Errorf("%d goroutines compiled %d times, want once (%+v)", len(codes), s.Compiles, s)
	}
}

// The helper process of TestCacheOneCompileAcrossProcesses: compiles into $JIT_TEST_CACHE and
// prints how many compiles it did.
func TestCacheHelperProcess(t *testing.T) {
	dir := os.Getenv("JIT_TEST_CACHE")
	if dir == "" {
		t.Skip("helper process of TestCacheOneCompileAcrossProcesses")
	}
	c := &Cache{Dir: dir}
	if _, err := c.Compile(tinyProgram(), "sm_80", CUBIN); err != nil {
		t.Fatal(err)
	}
	fmt.Printf("compiles=%d\n", c.Stats().Compiles)
}

func TestCacheOneCompileAcrossProcesses(t *testing.T) {
	dir := t.TempDir()
	const procs = 4
	outs := make([]bytes.Buffer, procs)
	cmds := make([]*exec.Cmd, procs)
	for i := range cmds {
		cmds[i] = exec.Command(os.Args[0], "-test.run=^TestCacheHelperProcess$", "-test.v")
		cmds[i].Env = append(os.Environ(), "JIT_TEST_CACHE="+dir)
		cmds[i].Stdout, cmds[i].Stderr = &outs[i], &outs[i]
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
	}
	compiles := 0
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("process %d: %v\n%s", i, err, outs[i].String())
		}
		var n int
		for _, line := range strings.Split(outs[i].String(), "\n") {
			if _, err := fmt.Sscanf(line, "compiles=%d", &n); err == nil {
				compiles += n
				break
			}
		}
	}
	if compiles != 1 {
		t.Errorf("%d processes compiled %d times, want once", procs, compiles)
	}
	if n := len(entries(t, dir)); n != 1 {
		t.Errorf("%d entries, want 1", n)
	}
}

func TestCacheRebuildsDamagedEntries(t *testing.T) {
	damage := map[string]func([]byte) []byte{
		"truncated":   func(b []byte) []byte { return b[:len(b)-100] },
		"bit flip":    func(b []byte) []byte { b[len(b)/2+37] ^= 0x10; return b },
		"empty":       func([]byte) []byte { return nil },
		"no header":   func(b []byte) []byte { return b[len(entryMagic):] },
		"bad meta":    func(b []byte) []byte { b[len(entryMagic)+5] = '!'; return b },
		"long length": func(b []byte) []byte { b[len(entryMagic)+3] = 0x7f; return b },
	}
	for name, f := range damage {
		t.Run(name, func(t *testing.T) {
			c := &Cache{Dir: t.TempDir()}
			want, err := c.Compile(tinyProgram(), "sm_90", CUBIN)
			if err != nil {
				t.Fatal(err)
			}
			files := entries(t, c.Dir)
			if len(files) != 1 {
				t.Fatalf("%d entries", len(files))
			}
			data, err := os.ReadFile(files[0])
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(files[0], f(data), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := c.Compile(tinyProgram(), "sm_90", CUBIN)
			if err != nil {
				t.Fatal(err)
			}
			// NVRTC's CUBINs are not bit-identical from one compile to the next: compare what matters.
			if s := c.Stats(); s.Rebuilt != 1 || s.Compiles != 2 || !bytes.HasPrefix(got.Code, []byte("\x7fELF")) || got.Kernel("fill<float>") != want.Kernel("fill<float>") {
				t.Fatalf("after damage: %+v; want the entry rebuilt", s)
			}
			if _, err := c.Compile(tinyProgram(), "sm_90", CUBIN); err != nil || c.Stats().Hits != 1 {
				t.Fatalf("the rebuilt entry is not read back: %v %+v", err, c.Stats())
			}
		})
	}
}

func TestCacheEviction(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	first, err := c.Compile(tinyProgram(), "sm_80", CUBIN)
	if err != nil {
		t.Fatal(err)
	}
	size := int64(len(first.Code))
	// Room for about two entries: each new one evicts the least recently used.
	c.MaxBytes = 2*size + size/2
	old := time.Now().Add(-time.Hour)
	for _, f := range entries(t, c.Dir) {
		if err := os.Chtimes(f, old, old); err != nil {
			t.Fatal(err)
		}
	}
	for _, arch := range []Arch{"sm_86", "sm_89", "sm_90"} {
		if _, err := c.Compile(tinyProgram(), arch, CUBIN); err != nil {
			t.Fatal(err)
		}
	}
	files := entries(t, c.Dir)
	if len(files) > 2 {
		t.Fatalf("%d entries over a cap of about two", len(files))
	}
	// The newest is kept, the oldest (sm_80) is gone: compiling it again compiles.
	before := c.Stats()
	if _, err := c.Compile(tinyProgram(), "sm_90", CUBIN); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Compile(tinyProgram(), "sm_80", CUBIN); err != nil {
		t.Fatal(err)
	}
	after := c.Stats()
	if after.Hits != before.Hits+1 || after.Compiles != before.Compiles+1 {
		t.Errorf("after eviction: %+v -> %+v; want sm_90 kept and sm_80 evicted", before, after)
	}
	locks, _ := filepath.Glob(filepath.Join(c.Dir, layout, "*", "*"+lockExt))
	if len(locks) > len(entries(t, c.Dir))+1 {
		t.Errorf("%d lock files for %d entries: eviction leaves lock files behind", len(locks), len(entries(t, c.Dir)))
	}
}

func TestDefaultCacheDir(t *testing.T) {
	t.Setenv(CacheDirEnv, "")
	t.Setenv("XDG_CACHE_HOME", "/xdg/cache")
	if d, err := DefaultCacheDir(); err != nil || d != "/xdg/cache/rules_cuda_go/jit" {
		t.Errorf("with XDG_CACHE_HOME: %q, %v", d, err)
	}
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "/home/someone")
	if d, err := DefaultCacheDir(); err != nil || d != "/home/someone/.cache/rules_cuda_go/jit" {
		t.Errorf("without XDG_CACHE_HOME: %q, %v", d, err)
	}
	t.Setenv(CacheDirEnv, "/elsewhere")
	if d, err := DefaultCacheDir(); err != nil || d != "/elsewhere" {
		t.Errorf("with %s: %q, %v", CacheDirEnv, d, err)
	}
}

func ExampleCache() {
	dir, err := os.MkdirTemp("", "jit-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	c := &Cache{Dir: dir, MaxBytes: 64 << 20}
	p := Program{Name: "fill.cu", Source: `extern "C" __global__ void fill(float* y, float v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = v;
}
`}
	for i := 0; i < 3; i++ {
		if _, err := c.Compile(p, "sm_80", CUBIN); err != nil {
			fmt.Println(err)
			return
		}
	}
	fmt.Printf("%+v\n", c.Stats())
	// Output: {Hits:2 Compiles:1 Rebuilt:0}
}
