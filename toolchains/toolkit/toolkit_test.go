package toolkit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// fakeRoot returns a fresh temporary directory with symbolic links resolved, so that the
// paths DetectToolkit reports (it resolves nvcc's links) can be compared with it.
func fakeRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// touch creates empty files (and their directories); a name ending in "/" is a directory.
func touch(t *testing.T, root string, names ...string) {
	t.Helper()
	for _, n := range names {
		p := filepath.Join(root, n)
		if strings.HasSuffix(n, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		writeFile(t, p, "", 0o644)
	}
}

func writeFile(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

// fakeNvcc writes an nvcc script that prints a --version for release (e.g. "13.0.88") and,
// when codes is not empty, a --list-gpu-code list; otherwise it fails on --list-gpu-code like
// an nvcc too old to have the option.
func fakeNvcc(t *testing.T, path, release string, codes ...string) {
	t.Helper()
	fakeNvccVariants(t, path, release, codes, nil)
}

// fakeNvccVariants is fakeNvcc whose --dryrun accepts -gencode for the codes of variants
// (sm_100f: -gencode=arch=compute_100f,code=sm_100f) and rejects every other.
func fakeNvccVariants(t *testing.T, path, release string, codes, variants []string) {
	t.Helper()
	majorMinor := release[:strings.LastIndexByte(release, '.')]
	list := `echo "nvcc fatal   : Unknown option '--list-gpu-code'" >&2; exit 1`
	if len(codes) > 0 {
		list = "printf '%s\\n' " + strings.Join(codes, " ")
	}
	writeFile(t, path, `#!/bin/sh
case "$1" in
--version) printf '%s\n' 'nvcc: NVIDIA (R) Cuda compiler driver' 'Cuda compilation tools, release `+majorMinor+`, V`+release+`' ;;
--list-gpu-code) `+list+` ;;
--dryrun) for v in `+strings.Join(variants, " ")+`; do [ "$2" = "-gencode=arch=compute_${v#sm_},code=$v" ] && exit 0; done
  echo "nvcc fatal   : Unsupported gpu architecture" >&2; exit 1 ;;
*) echo "nvcc fatal   : Unknown option '$1'" >&2; exit 1 ;;
esac
`, 0o755)
}

// testLayout puts the system paths of systemLayout under dir.
func testLayout(dir string) layout {
	deb := filepath.Join(dir, "usr/lib/nvidia-cuda-toolkit/bin/nvcc")
	return layout{
		nvccFallbacks: []string{filepath.Join(dir, "usr/local/cuda/bin/nvcc"), deb},
		debianWrapper: filepath.Join(dir, "usr/bin/nvcc"),
		debianNvcc:    deb,
		systemInclude: filepath.Join(dir, "usr/include"),
		systemLibDir:  filepath.Join(dir, "usr/lib/x86_64-linux-gnu"),
	}
}

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

var codes13 = []string{"sm_75", "sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90", "sm_100", "sm_110", "sm_103", "sm_120", "sm_121"}

// join prefixes each name with dir.
func join(dir string, names ...string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = filepath.Join(dir, n)
	}
	return out
}

// TestDetectUsrLocalCuda: NVIDIA's installer layout, found through the /usr/local/cuda link.
// Libraries come from lib64 before the system directory, the driver stub from lib64/stubs
// (never the driver's own libcuda.so), others (cuDNN) from the system directory.
func TestDetectUsrLocalCuda(t *testing.T) {
	dir := fakeRoot(t)
	l := testLayout(dir)
	root := filepath.Join(dir, "usr/local/cuda-12.8")
	fakeNvcc(t, root+"/bin/nvcc", "12.8.93", "sm_80", "sm_90", "sm_100")
	writeFile(t, root+"/bin/cuobjdump", "#!/bin/sh\n", 0o755)
	if err := os.Symlink("cuda-12.8", filepath.Join(dir, "usr/local/cuda")); err != nil {
		t.Fatal(err)
	}
	touch(t, root, "include/cuda_runtime.h", "include/thrust/", "include/nvtx3/",
		"lib64/libcudart_static.a", "lib64/libcudart.so", "lib64/libcudadevrt.a", "lib64/libcublas.so",
		"lib64/libcublas.so.12", "lib64/stubs/libcuda.so", "lib64/stubs/libcublas.so")
	touch(t, l.systemLibDir, "libcuda.so", "libcuda.so.1", "libcublas.so", "libcudnn.so.9", "libcudnn.so.8")
	touch(t, dir, "empty/")

	tk, err := detectToolkit(envOf(map[string]string{"PATH": dir + "/empty"}), l)
	if err != nil {
		t.Fatal(err)
	}
	want := Toolkit{
		Nvcc:            root + "/bin/nvcc",
		Version:         "12.8.93",
		Supported:       []string{"sm_80", "sm_90", "sm_100"},
		SupportedSource: "nvcc --list-gpu-code",
		Root:            root,
		Include:         root + "/include",
		CCCLInclude:     root + "/include",
		NvtxInclude:     root + "/include",
		Libraries: map[string]string{
			"cudart_static": root + "/lib64/libcudart_static.a",
			"cudart_shared": root + "/lib64/libcudart.so",
			"cudadevrt":     root + "/lib64/libcudadevrt.a",
			"cublas":        root + "/lib64/libcublas.so",
			"cuda_driver":   root + "/lib64/stubs/libcuda.so",
			"cudnn":         l.systemLibDir + "/libcudnn.so.9",
		},
		Cuobjdump: root + "/bin/cuobjdump",
		Searched:  []string{dir + "/empty/nvcc", dir + "/usr/local/cuda/bin/nvcc"},
	}
	if !reflect.DeepEqual(tk, want) {
		t.Errorf("detectToolkit =\n%+v\nwant\n%+v", tk, want)
	}
}

// TestDetectCUDA13: CUDA 13 keeps CCCL in include/cccl; every role of LibraryRoles is found.
func TestDetectCUDA13(t *testing.T) {
	dir := fakeRoot(t)
	l := testLayout(dir)
	root := filepath.Join(dir, "opt/cuda-13.0")
	fakeNvcc(t, root+"/bin/nvcc", "13.0.88", codes13...)
	touch(t, root, "include/cuda_runtime.h", "include/cccl/thrust/", "include/cccl/cub/", "include/nvtx3/")
	wantLibs := map[string]string{}
	for _, r := range LibraryRoles {
		sub := "lib64/"
		if r.StubsOnly {
			sub = "lib64/stubs/"
		}
		touch(t, root, sub+r.File)
		wantLibs[r.Role] = root + "/" + sub + r.File
	}
	// The system directory's copies lose to the toolkit's.
	touch(t, l.systemLibDir, "libcudart.so", "libcublas.so", "libnccl.so")

	tk, err := detectToolkit(envOf(map[string]string{"CUDA_PATH": root}), l)
	if err != nil {
		t.Fatal(err)
	}
	if tk.Nvcc != root+"/bin/nvcc" || tk.Version != "13.0.88" || tk.Root != root || tk.Error != "" ||
		!reflect.DeepEqual(tk.Supported, codes13) || !reflect.DeepEqual(tk.Searched, []string{root + "/bin/nvcc"}) {
		t.Errorf("detectToolkit = %+v", tk)
	}
	if tk.Include != root+"/include" || tk.CCCLInclude != root+"/include/cccl" || tk.NvtxInclude != root+"/include" {
		t.Errorf("include %q, cccl_include %q, nvtx_include %q; want %s/include, %[4]s/include/cccl, %[4]s/include", tk.Include, tk.CCCLInclude, tk.NvtxInclude, root)
	}
	if !reflect.DeepEqual(tk.Libraries, wantLibs) {
		t.Errorf("libraries =\n%q\nwant\n%q", tk.Libraries, wantLibs)
	}
	if tk.Cuobjdump != "" {
		t.Errorf("cuobjdump %q, want none", tk.Cuobjdump)
	}
}

// TestDetectTargetsLayout: headers and libraries only under targets/x86_64-linux, nvcc found
// through PATH.
func TestDetectTargetsLayout(t *testing.T) {
	dir := fakeRoot(t)
	l := testLayout(dir)
	root := filepath.Join(dir, "cuda")
	tgt := root + "/targets/x86_64-linux"
	fakeNvcc(t, root+"/bin/nvcc", "12.4.131", "sm_90")
	touch(t, tgt, "include/cuda_runtime.h", "include/thrust/", "lib/libcudart.so", "lib/libcudart_static.a",
		"lib/libnvrtc-builtins.so", "lib/stubs/libcuda.so")
	touch(t, l.systemInclude, "cuda_runtime.h", "thrust/", "nvtx3/") // not the toolkit's own
	touch(t, l.systemLibDir, "libcudart.so", "libcudadevrt.a")

	tk, err := detectToolkit(envOf(map[string]string{"PATH": "/nonexistent:" + root + "/bin"}), l)
	if err != nil {
		t.Fatal(err)
	}
	if tk.Nvcc != root+"/bin/nvcc" || tk.Root != root || !reflect.DeepEqual(tk.Searched, []string{"/nonexistent/nvcc", root + "/bin/nvcc"}) {
		t.Errorf("nvcc %q, root %q, searched %q", tk.Nvcc, tk.Root, tk.Searched)
	}
	if tk.Include != tgt+"/include" || tk.CCCLInclude != tgt+"/include" || tk.NvtxInclude != l.systemInclude {
		t.Errorf("include %q, cccl_include %q, nvtx_include %q", tk.Include, tk.CCCLInclude, tk.NvtxInclude)
	}
	want := map[string]string{
		"cudart_shared":  tgt + "/lib/libcudart.so",
		"cudart_static":  tgt + "/lib/libcudart_static.a",
		"nvrtc_builtins": tgt + "/lib/libnvrtc-builtins.so",
		"cuda_driver":    tgt + "/lib/stubs/libcuda.so",
		"cudadevrt":      l.systemLibDir + "/libcudadevrt.a",
	}
	if !reflect.DeepEqual(tk.Libraries, want) {
		t.Errorf("libraries =\n%q\nwant\n%q", tk.Libraries, want)
	}
}

// TestDetectVersionedLibraries: without libX.so, the highest major version is taken, as its
// soname link (libX.so.N) when there is one; names that are not versions are ignored.
func TestDetectVersionedLibraries(t *testing.T) {
	dir := fakeRoot(t)
	l := testLayout(dir)
	root := filepath.Join(dir, "cuda")
	fakeNvcc(t, root+"/bin/nvcc", "13.0.88", codes13...)
	touch(t, root+"/lib64",
		"libcublas.so.13",
		"libcublas.so.13.1.0.3",
		"libcublas.so.12",
		"libcublasLt.so.13.1.0.3",
		"libcublasLt.so.12.9.1.4",
		"libcufft.so.9",
		"libcufft.so.12",
		"libcufft.so.11.5",
		"libcurand.so.10.bak",
		"libcurand.so.x",
		"libcurand.so.",
		"libcusparse.so.12.6",
		"libcusparse.so.12.10",
		"libnccl.so.2.27.3",
		"libnccl.so.2",
		"libcudnn.so.9.13.0")
	if err := os.Symlink("missing", root+"/lib64/libcusolver.so.12"); err != nil { // dangling: not a file
		t.Fatal(err)
	}
	if err := os.Mkdir(root+"/lib64/libnvrtc.so.13", 0o755); err != nil { // a directory
		t.Fatal(err)
	}

	tk, err := detectToolkit(envOf(map[string]string{"CUDA_PATH": root}), l)
	if err != nil {
		t.Fatal(err)
	}
	lib := root + "/lib64/"
	want := map[string]string{
		"cublas":   lib + "libcublas.so.13",
		"cublasLt": lib + "libcublasLt.so.13.1.0.3",
		"cufft":    lib + "libcufft.so.12",
		"cusparse": lib + "libcusparse.so.12.10",
		"nccl":     lib + "libnccl.so.2",
		"cudnn":    lib + "libcudnn.so.9.13.0",
	}
	if !reflect.DeepEqual(tk.Libraries, want) {
		t.Errorf("libraries =\n%q\nwant\n%q", tk.Libraries, want)
	}
	if tk.Include != "" || tk.CCCLInclude != "" || tk.NvtxInclude != "" {
		t.Errorf("include %q, cccl_include %q, nvtx_include %q; want none", tk.Include, tk.CCCLInclude, tk.NvtxInclude)
	}
}

// TestDetectDebian: Debian's /usr/bin/nvcc wrapper stands for the real nvcc; headers and
// libraries are in the system directories; cuobjdump is next to the wrapper; the driver's
// libcuda.so is not taken for the stub.
func TestDetectDebian(t *testing.T) {
	dir := fakeRoot(t)
	l := testLayout(dir)
	fakeNvcc(t, l.debianNvcc, "12.4.131", "sm_50", "sm_90")
	writeFile(t, l.debianWrapper, "#!/bin/sh\nexec "+l.debianNvcc+" \"$@\"\n", 0o755)
	writeFile(t, dir+"/usr/bin/cuobjdump", "#!/bin/sh\n", 0o755)
	touch(t, l.systemInclude, "cuda_runtime.h", "thrust/", "nvtx3/")
	touch(t, l.systemLibDir, "libcudart.so", "libcudart_static.a", "libcudadevrt.a", "libcublas.so", "libcuda.so", "libnvrtc.so.12")

	tk, err := detectToolkit(envOf(map[string]string{"PATH": dir + "/usr/bin"}), l)
	if err != nil {
		t.Fatal(err)
	}
	sys := l.systemLibDir + "/"
	want := Toolkit{
		Nvcc:            l.debianNvcc,
		Version:         "12.4.131",
		Supported:       []string{"sm_50", "sm_90"},
		SupportedSource: "nvcc --list-gpu-code",
		Root:            dir + "/usr/lib/nvidia-cuda-toolkit",
		Include:         l.systemInclude,
		CCCLInclude:     l.systemInclude,
		NvtxInclude:     l.systemInclude,
		Libraries: map[string]string{
			"cudart_shared": sys + "libcudart.so",
			"cudart_static": sys + "libcudart_static.a",
			"cudadevrt":     sys + "libcudadevrt.a",
			"cublas":        sys + "libcublas.so",
			"nvrtc":         sys + "libnvrtc.so.12",
		},
		Cuobjdump: dir + "/usr/bin/cuobjdump",
		Searched:  []string{dir + "/usr/bin/nvcc"},
	}
	if !reflect.DeepEqual(tk, want) {
		t.Errorf("detectToolkit =\n%+v\nwant\n%+v", tk, want)
	}
}

// TestDetectOldNvcc: an nvcc without --list-gpu-code gets the built-in table.
func TestDetectOldNvcc(t *testing.T) {
	dir := fakeRoot(t)
	root := filepath.Join(dir, "cuda-11.8")
	fakeNvcc(t, root+"/bin/nvcc", "11.8.89")
	tk, err := detectToolkit(envOf(map[string]string{"CUDA_HOME": root}), testLayout(dir))
	want, _ := KnownGPUCodes(Version{11, 8, 89})
	if err != nil || tk.SupportedSource != "table for nvcc 11.8" || !reflect.DeepEqual(tk.Supported, want) {
		t.Errorf("detectToolkit = %+v, %v", tk, err)
	}
	if !reflect.DeepEqual(tk.Libraries, map[string]string{}) {
		t.Errorf("libraries %q, want none", tk.Libraries)
	}
}

// TestDetectMissing: no nvcc anywhere is a result with Error and Searched set, not a Go error.
func TestDetectMissing(t *testing.T) {
	dir := fakeRoot(t)
	l := testLayout(dir)
	writeFile(t, dir+"/bin/nvcc", "#!/bin/sh\n", 0o644) // not executable
	tk, err := detectToolkit(envOf(map[string]string{"CUDA_PATH": dir + "/nope", "PATH": dir + "/bin"}), l)
	if err != nil {
		t.Fatal(err)
	}
	searched := append([]string{dir + "/nope/bin/nvcc", dir + "/bin/nvcc"}, l.nvccFallbacks...)
	want := Toolkit{Searched: searched, Libraries: map[string]string{}, Error: tk.Error}
	if !reflect.DeepEqual(tk, want) {
		t.Errorf("detectToolkit = %+v, want %+v", tk, want)
	}
	for _, w := range append(searched, "nvcc not found", "CUDA_HOME", "CUDA_PATH") {
		if !strings.Contains(tk.Error, w) {
			t.Errorf("error %q lacks %q", tk.Error, w)
		}
	}
	data, err := json.Marshal(tk)
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]any
	if err := json.Unmarshal(data, &fields); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if w := []string{"error", "libraries", "nvcc", "root", "searched", "supported", "supported_source", "version"}; !reflect.DeepEqual(keys, w) {
		t.Errorf("JSON keys %q, want %q (%s)", keys, w, data)
	}
}

// TestDetectBrokenNvcc: an nvcc that exists but fails is a Go error naming it.
func TestDetectBrokenNvcc(t *testing.T) {
	dir := fakeRoot(t)
	writeFile(t, dir+"/cuda/bin/nvcc", "#!/bin/sh\necho 'cannot execute' >&2\nexit 3\n", 0o755)
	_, err := detectToolkit(envOf(map[string]string{"CUDA_PATH": dir + "/cuda"}), testLayout(dir))
	if err == nil || !strings.Contains(err.Error(), dir+"/cuda/bin/nvcc --version") || !strings.Contains(err.Error(), "cannot execute") {
		t.Errorf("error %v", err)
	}
	writeFile(t, dir+"/cuda/bin/nvcc", "#!/bin/sh\necho 'Cuda compilation tools, release 7.5, V7.5.17'\n", 0o755)
	_, err = detectToolkit(envOf(map[string]string{"CUDA_PATH": dir + "/cuda"}), testLayout(dir))
	if err == nil || !strings.Contains(err.Error(), "CUDA 7.5.17") {
		t.Errorf("error %v", err)
	}
}

// TestDetectToolkitJSON: the exported entry point with the system layout, on a toolkit named by
// CUDA_PATH (which is searched first); the JSON has every field.
func TestDetectToolkitJSON(t *testing.T) {
	root := filepath.Join(fakeRoot(t), "cuda")
	fakeNvcc(t, root+"/bin/nvcc", "13.0.88", codes13...)
	writeFile(t, root+"/bin/cuobjdump", "#!/bin/sh\n", 0o755)
	touch(t, root, "include/cuda_runtime.h", "include/cccl/thrust/", "include/nvtx3/", "lib64/libcudart_static.a", "lib64/stubs/libcuda.so")
	tk, err := DetectToolkit(envOf(map[string]string{"CUDA_PATH": root}))
	if err != nil {
		t.Fatal(err)
	}
	if tk.Nvcc != root+"/bin/nvcc" || tk.Root != root || tk.Libraries["cudart_static"] != root+"/lib64/libcudart_static.a" ||
		tk.Libraries["cuda_driver"] != root+"/lib64/stubs/libcuda.so" || tk.CCCLInclude != root+"/include/cccl" {
		t.Errorf("DetectToolkit = %+v", tk)
	}
	data, err := json.Marshal(tk)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"nvcc", "version", "supported", "supported_source", "root", "include", "cccl_include", "nvtx_include", "libraries", "cuobjdump", "searched"} {
		if !strings.Contains(string(data), `"`+k+`":`) {
			t.Errorf("JSON lacks %q: %s", k, data)
		}
	}
	if strings.Contains(string(data), `"error"`) {
		t.Errorf("JSON has an error: %s", data)
	}
}

// TestLibraryRoles: roles and files are unique and well-formed; only the driver is a stub.
func TestLibraryRoles(t *testing.T) {
	roles, files := map[string]bool{}, map[string]bool{}
	for _, r := range LibraryRoles {
		if roles[r.Role] || files[r.File] || r.Role == "" || !strings.HasPrefix(r.File, "lib") ||
			!(strings.HasSuffix(r.File, ".so") || strings.HasSuffix(r.File, ".a")) ||
			strings.HasSuffix(r.Role, "_static") != strings.HasSuffix(r.File, "_static.a") {
			t.Errorf("bad or repeated role %+v", r)
		}
		roles[r.Role], files[r.File] = true, true
		if r.StubsOnly != (r.Role == "cuda_driver") {
			t.Errorf("%s: StubsOnly %v", r.Role, r.StubsOnly)
		}
	}
	if len(LibraryRoles) != 48 {
		t.Errorf("%d roles, want 48", len(LibraryRoles))
	}
}

// The fallbacks file is the one list of nvcc places (./bazelw reads it too): it must parse to
// absolute nvcc paths and name Debian's real nvcc, which DetectToolkit treats specially.
func TestNvccFallbacksFile(t *testing.T) {
	paths := fallbackPaths(nvccFallbacksFile)
	if len(paths) == 0 {
		t.Fatal("nvcc_fallbacks.txt lists no path")
	}
	hasDebian := false
	for _, p := range paths {
		if !filepath.IsAbs(p) || filepath.Base(p) != "nvcc" {
			t.Errorf("nvcc_fallbacks.txt: %q is not an absolute path to an nvcc", p)
		}
		hasDebian = hasDebian || p == debianNvcc
	}
	if !hasDebian {
		t.Errorf("nvcc_fallbacks.txt does not list Debian's nvcc %s: %q", debianNvcc, paths)
	}
	if got := fallbackPaths("# c\n\n /a/bin/nvcc \n#x\n/b/bin/nvcc"); len(got) != 2 || got[0] != "/a/bin/nvcc" || got[1] != "/b/bin/nvcc" {
		t.Errorf("fallbackPaths: %q", got)
	}
}

// TestDetectVariants: the arch- and family-specific codes nvcc accepts follow its
// --list-gpu-code list; candidates are sm_XYa from sm_90 and sm_XYf from sm_100.
func TestDetectVariants(t *testing.T) {
	dir := fakeRoot(t)
	l := testLayout(dir)
	root := filepath.Join(dir, "opt/cuda-13.5")
	codes := []string{"sm_80", "sm_90", "sm_100", "sm_107"}
	fakeNvccVariants(t, root+"/bin/nvcc", "13.5.37", codes, []string{"sm_90a", "sm_100a", "sm_100f", "sm_107f"})
	tk, err := detectToolkit(envOf(map[string]string{"CUDA_PATH": root}), l)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"sm_80", "sm_90", "sm_100", "sm_107", "sm_90a", "sm_100a", "sm_100f", "sm_107f"}
	if !reflect.DeepEqual(tk.Supported, want) || tk.SupportedSource != "nvcc --list-gpu-code and --dryrun" {
		t.Errorf("supported %q from %q; want %q from nvcc --list-gpu-code and --dryrun", tk.Supported, tk.SupportedSource, want)
	}
	if got, want := VariantCandidates([]string{"sm_75", "sm_90", "sm_100", "compute_100", "sm_121", "sm_90a"}), []string{"sm_90a", "sm_100a", "sm_100f", "sm_121a", "sm_121f"}; !reflect.DeepEqual(got, want) {
		t.Errorf("VariantCandidates = %q, want %q", got, want)
	}
}
