package main

import (
	"archive/zip"
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	shaA = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	shaB = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	shaC = "cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc"

	wheelA = "nvidia_cuda_runtime-13.2.86-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl"
	armA   = "nvidia_cuda_runtime-13.2.86-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl"
	winA   = "nvidia_cuda_runtime-13.2.86-py3-none-win_amd64.whl"
	wheelB = "nvidia_nvtx-13.2.86-py3-none-manylinux1_x86_64.manylinux_2_5_x86_64.whl"
)

// fakePyPI serves PyPI JSON for a few projects and wheels from memory, counting the requests.
type fakePyPI struct {
	*httptest.Server
	mu       sync.Mutex
	projects map[string]map[string][]map[string]any // name -> version -> files
	wheels   map[string][]byte                      // URL path -> content
	gets     map[string]int                         // URL path -> requests
	served   int64                                  // wheel bytes served
}

func newFakePyPI(t *testing.T) *fakePyPI {
	f := &fakePyPI{
		projects: map[string]map[string][]map[string]any{},
		wheels:   map[string][]byte{},
		gets:     map[string]int{},
	}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	t.Setenv("PYPI_URL", f.URL)
	t.Setenv("BUILD_WORKSPACE_DIRECTORY", "")
	return f
}

func (f *fakePyPI) file(name, version, filename, url, sha string) {
	if f.projects[name] == nil {
		f.projects[name] = map[string][]map[string]any{}
	}
	f.projects[name][version] = append(f.projects[name][version], map[string]any{
		"filename":    filename,
		"url":         url,
		"packagetype": "bdist_wheel",
		"digests":     map[string]string{"md5": "x", "sha256": sha},
		"yanked":      false,
	})
}

func (f *fakePyPI) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.gets[r.URL.Path]++
	if name, ok := strings.CutPrefix(r.URL.Path, "/pypi/"); ok {
		name = strings.TrimSuffix(name, "/json")
		rel, ok := f.projects[name]
		if !ok {
			http.NotFound(w, r)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"info": map[string]string{"name": name}, "releases": rel})
		return
	}
	if data, ok := f.wheels[r.URL.Path]; ok {
		cw := &countingWriter{ResponseWriter: w}
		http.ServeContent(cw, r, "", time.Time{}, bytes.NewReader(data))
		f.served += cw.n
		return
	}
	http.NotFound(w, r)
}

type countingWriter struct {
	http.ResponseWriter
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.ResponseWriter.Write(p)
	c.n += int64(n)
	return n, err
}

func writeVersions(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "versions.bzl")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// versions returns a versions.bzl with one cudart wheel (absolute URL on PyPI), one nvtx wheel
// (relative URL on PyPI) and one redist tarball.
func versions(cudartURL, cudartSHA string) string {
	return fmt.Sprintf(`"""Test toolkits."""

DEFAULT_CUDA_VERSION = "13.2"

CUDA_TOOLKITS = {
    "13.2": {
        "nvcc_version": "13.2.86",
        "supported": ["sm_90"],
        "components": {
            "cudart": [
                {
                    "package": "nvidia-cuda-runtime==13.2.86",
                    "url": %q,
                    "sha256": %q,
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvtx": [
                # A comment between entries.
                {
                    "package": "nvidia-nvtx==13.2.86",
                    "url": "https://files.pythonhosted.org/packages/49/ee/16bd/%s",
                    "sha256": %q,
                    "strip_prefix": "nvidia/cu13",
                },
            ],
        },
    },
    "12.9": {
        "nvcc_version": "12.9.86",
        "supported": ["sm_90"],
        "components": {
            "nvcc": [
                {
                    "url": "https://developer.download.nvidia.com/compute/cuda/redist/cuda_nvcc/linux-x86_64/cuda_nvcc-linux-x86_64-12.9.86-archive.tar.xz",
                    "sha256": %q,
                    "strip_prefix": "cuda_nvcc-linux-x86_64-12.9.86-archive",
                },
            ],
        },
    },
}
`, cudartURL, cudartSHA, wheelB, shaB, shaC)
}

const goodCudartURL = "https://files.pythonhosted.org/packages/70/c6/8f8c/" + wheelA

func populate(f *fakePyPI) {
	f.file("nvidia-cuda-runtime", "13.2.86", armA, "https://files.pythonhosted.org/packages/11/22/3333/"+armA, shaC)
	f.file("nvidia-cuda-runtime", "13.2.86", wheelA, "https://files.pythonhosted.org/packages/70/c6/8f8c/"+wheelA, shaA)
	f.file("nvidia-cuda-runtime", "13.0.96", wheelA, "https://files.pythonhosted.org/packages/00/00/0000/"+wheelA, shaC)
	f.file("nvidia-nvtx", "13.2.86", wheelB, "../../packages/packages/49/ee/16bd/"+wheelB, shaB)
}

func runCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestParseVersions(t *testing.T) {
	body := versions(goodCudartURL, shaA)
	got, err := ParseVersions("versions.bzl", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	want := []Archive{
		{Version: "13.2", Component: "cudart", Line: 11, Package: "nvidia-cuda-runtime==13.2.86", URL: goodCudartURL, SHA256: shaA, StripPrefix: "nvidia/cu13", Platform: PlatformX86},
		{Version: "13.2", Component: "nvtx", Line: 20, Package: "nvidia-nvtx==13.2.86", URL: "https://files.pythonhosted.org/packages/49/ee/16bd/" + wheelB, SHA256: shaB, StripPrefix: "nvidia/cu13", Platform: PlatformX86},
		{Version: "12.9", Component: "nvcc", Line: 34, URL: "https://developer.download.nvidia.com/compute/cuda/redist/cuda_nvcc/linux-x86_64/cuda_nvcc-linux-x86_64-12.9.86-archive.tar.xz", SHA256: shaC, StripPrefix: "cuda_nvcc-linux-x86_64-12.9.86-archive", Platform: PlatformX86},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d archives, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("archive %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
}

func TestParseVersionsSharedList(t *testing.T) {
	body := `_SHARED = [{"package": "nvidia-nvtx==13.2.86", "url": "https://h/packages/a/b/c/f.whl", "sha256": "s", "strip_prefix": "nvidia/cu13"}]

CUDA_TOOLKITS = {
    "13.2": {"components": {"nvtx": _SHARED}},
    "13.0": {"components": {"nvtx": _SHARED}},
}
`
	got, err := ParseVersions("v.bzl", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Version != "13.2" || got[1].Version != "13.0" || got[0].Package != "nvidia-nvtx==13.2.86" || got[1].SHA256 != "s" {
		t.Errorf("got %+v, want the shared archive once per version", got)
	}
	if _, err := ParseVersions("v.bzl", []byte(`CUDA_TOOLKITS = {"13.2": {"components": {"nvtx": _UNDEFINED}}}`+"\n")); err == nil {
		t.Error("an undefined name was accepted")
	}
}

func TestParseVersionsAarch64(t *testing.T) {
	body := `CUDA_TOOLKITS = {
    "13.2": {
        "components": {"cudart": [{"package": "nvidia-cuda-runtime==13.2.86", "url": "https://h/packages/a/b/c/x.whl", "sha256": "x"}]},
        "components_aarch64": {"cudart": [{"package": "nvidia-cuda-runtime==13.2.86", "url": "https://h/packages/a/b/c/y.whl", "sha256": "y"}]},
    },
}
`
	got, err := ParseVersions("v.bzl", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Platform != PlatformX86 || got[0].SHA256 != "x" || got[1].Platform != PlatformAarch64 || got[1].SHA256 != "y" || got[1].Component != "cudart" {
		t.Errorf("got %+v, want the x86-64 archive, then the aarch64 one", got)
	}
	bad := `CUDA_TOOLKITS = {"13.2": {"components": {}, "components_aarch64": [1]}}` + "\n"
	if _, err := ParseVersions("v.bzl", []byte(bad)); err == nil || !strings.Contains(err.Error(), "components_aarch64") {
		t.Errorf("a components_aarch64 that is not a dict: %v, want an error naming it", err)
	}
}

func TestCheckAarch64(t *testing.T) {
	f := newFakePyPI(t)
	f.file("nvidia-cuda-runtime", "13.2.86", armA, "../../packages/packages/11/22/3333/"+armA, shaC)
	f.file("nvidia-cuda-runtime", "13.2.86", wheelA, "../../packages/packages/70/c6/8f8c/"+wheelA, shaA)
	index := NewIndex(f.URL)
	arm := Archive{Package: "nvidia-cuda-runtime==13.2.86", URL: "https://files.pythonhosted.org/packages/11/22/3333/" + armA, SHA256: shaC, Platform: PlatformAarch64}
	if problems, err := index.Check(arm); err != nil || len(problems) != 0 {
		t.Errorf("the aarch64 wheel for linux_aarch64: %v, %v; want no problems", problems, err)
	}
	x86 := Archive{Package: "nvidia-cuda-runtime==13.2.86", URL: "https://files.pythonhosted.org/packages/70/c6/8f8c/" + wheelA, SHA256: shaA, Platform: PlatformAarch64}
	problems, err := index.Check(x86)
	if err != nil || len(problems) != 1 || !strings.Contains(problems[0], "not a manylinux aarch64 wheel") {
		t.Errorf("an x86-64 wheel for linux_aarch64: %v, %v; want one problem saying it is not an aarch64 wheel", problems, err)
	}
}

func TestParseVersionsErrors(t *testing.T) {
	for _, body := range []string{
		"X = 1\n",
		"CUDA_TOOLKITS = [1]\n",
		`CUDA_TOOLKITS = {"13.2": {"components": {"nvcc": [{"url": "u"}]}}}` + "\n",
		`CUDA_TOOLKITS = {"13.2": {"components": {"nvcc": [{"url": "u", "sha256": "s", "bogus": "b"}]}}}` + "\n",
		`CUDA_TOOLKITS = {"13.2": {"nvcc_version": "13.2.86"}}` + "\n",
	} {
		if _, err := ParseVersions("v.bzl", []byte(body)); err == nil {
			t.Errorf("ParseVersions(%q) succeeded, want an error", body)
		}
	}
}

func TestCheckOK(t *testing.T) {
	f := newFakePyPI(t)
	populate(f)
	p := writeVersions(t, versions(goodCudartURL, shaA))
	code, out, errOut := runCmd(t, "check", "-versions", p)
	if code != 0 {
		t.Fatalf("check exited %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	for _, want := range []string{
		"OK       13.2 cudart (versions.bzl:11): nvidia-cuda-runtime==13.2.86 " + wheelA,
		"OK       13.2 nvtx (versions.bzl:20): nvidia-nvtx==13.2.86 " + wheelB,
		"SKIP     12.9 nvcc (versions.bzl:34): no package: cuda_nvcc-linux-x86_64-12.9.86-archive.tar.xz",
		"3 archives: 2 OK, 0 mismatched, 0 lookup errors, 1 skipped (no package)",
	} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestCheckCachesProjects(t *testing.T) {
	f := newFakePyPI(t)
	populate(f)
	body := versions(goodCudartURL, shaA)
	// The same cudart entry twice more, under another version.
	body = strings.Replace(body, `"12.9": {`, `"13.1": {
        "components": {
            "cudart": [
                {"package": "nvidia-cuda-runtime==13.2.86", "url": "`+goodCudartURL+`", "sha256": "`+shaA+`"},
                {"package": "nvidia-cuda-runtime==13.2.86", "url": "`+goodCudartURL+`", "sha256": "`+shaA+`"},
            ],
        },
    },
    "12.9": {`, 1)
	p := writeVersions(t, body)
	if code, out, errOut := runCmd(t, "check", "-versions", p); code != 0 {
		t.Fatalf("check exited %d\n%s%s", code, out, errOut)
	}
	if n := f.gets["/pypi/nvidia-cuda-runtime/json"]; n != 1 {
		t.Errorf("nvidia-cuda-runtime JSON fetched %d times, want 1", n)
	}
}

func TestCheckMismatch(t *testing.T) {
	for _, tc := range []struct {
		name, url, sha, want string
	}{
		{
			name: "sha256",
			url:  goodCudartURL,
			sha:  shaB,
			want: "MISMATCH 13.2 cudart (versions.bzl:11): nvidia-cuda-runtime==13.2.86: no file of nvidia-cuda-runtime==13.2.86 has sha256 " + shaB + " (" + wheelA + " has " + shaA + ")",
		},
		{
			name: "filename",
			url:  "https://files.pythonhosted.org/packages/70/c6/8f8c/" + armA,
			sha:  shaA,
			want: "MISMATCH 13.2 cudart (versions.bzl:11): nvidia-cuda-runtime==13.2.86: sha256 is " + wheelA + "'s, url names " + armA + "; url path is packages/70/c6/8f8c/" + armA + ", PyPI has packages/70/c6/8f8c/" + wheelA,
		},
		{
			name: "path",
			url:  "https://files.pythonhosted.org/packages/70/c6/ffff/" + wheelA,
			sha:  shaA,
			want: "MISMATCH 13.2 cudart (versions.bzl:11): nvidia-cuda-runtime==13.2.86: url path is packages/70/c6/ffff/" + wheelA + ", PyPI has packages/70/c6/8f8c/" + wheelA,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakePyPI(t)
			populate(f)
			p := writeVersions(t, versions(tc.url, tc.sha))
			code, out, _ := runCmd(t, "check", "-versions", p)
			if code != 1 {
				t.Errorf("check exited %d, want 1", code)
			}
			if !strings.Contains(out, tc.want+"\n") {
				t.Errorf("output lacks\n%s\n:\n%s", tc.want, out)
			}
			if !strings.Contains(out, "OK       13.2 nvtx") || !strings.Contains(out, "1 mismatched") {
				t.Errorf("the other archives should still be checked:\n%s", out)
			}
		})
	}
}

func TestCheckMissingRelease(t *testing.T) {
	f := newFakePyPI(t)
	populate(f)
	body := strings.Replace(versions(goodCudartURL, shaA), "nvidia-nvtx==13.2.86", "nvidia-nvtx==13.9.99", 1)
	body = strings.Replace(body, "nvidia-cuda-runtime==", "nvidia-cuda-gone==", 1)
	p := writeVersions(t, body)
	code, out, _ := runCmd(t, "check", "-versions", p)
	if code != 1 {
		t.Errorf("check exited %d, want 1", code)
	}
	for _, want := range []string{
		"ERROR    13.2 nvtx (versions.bzl:20): nvidia-nvtx has no release 13.9.99 on " + f.URL + " (1 releases)",
		"ERROR    13.2 cudart (versions.bzl:11): looking up nvidia-cuda-gone: GET " + f.URL + "/pypi/nvidia-cuda-gone/json: 404 Not Found",
		"3 archives: 0 OK, 0 mismatched, 2 lookup errors, 1 skipped (no package)",
	} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestCheckUsage(t *testing.T) {
	newFakePyPI(t)
	if code, _, _ := runCmd(t); code != 2 {
		t.Errorf("no arguments: exit %d, want 2", code)
	}
	if code, _, _ := runCmd(t, "frob"); code != 2 {
		t.Errorf("unknown command: exit %d, want 2", code)
	}
	if code, _, _ := runCmd(t, "check", "extra"); code != 2 {
		t.Errorf("check with an argument: exit %d, want 2", code)
	}
	if code, _, errOut := runCmd(t, "check", "-versions", filepath.Join(t.TempDir(), "none.bzl")); code != 1 || !strings.Contains(errOut, "reading versions") {
		t.Errorf("missing versions.bzl: exit %d, stderr %q", code, errOut)
	}
}

// makeWheel returns a zip laid out like NVIDIA's wheels, padded with an incompressible file so
// that reading it whole would show.
func makeWheel(t *testing.T, prefix string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	pad := make([]byte, 3<<20)
	rand.Read(pad)
	for _, e := range []struct {
		name string
		data []byte
	}{
		{"nvidia/__init__.py", nil},
		{prefix + "/__init__.py", nil},
		{prefix + "/lib/libcudart.so.13", pad},
		{prefix + "/include/cuda_runtime.h", []byte("// header\n")},
		{prefix + "/bin/", nil},
		{"nvidia_cuda_runtime-13.2.86.dist-info/METADATA", []byte("Name: nvidia-cuda-runtime\n")},
		{"nvidia_cuda_runtime-13.2.86.dist-info/RECORD", []byte("\n")},
	} {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: e.name, Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(e.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestWheel(t *testing.T) {
	f := newFakePyPI(t)
	whl := makeWheel(t, "nvidia/cu13")
	f.wheels["/packages/packages/70/c6/8f8c/"+wheelA] = whl
	f.file("nvidia-cuda-runtime", "13.2.86", armA, "../../packages/packages/11/22/3333/"+armA, shaC)
	f.file("nvidia-cuda-runtime", "13.2.86", winA, "../../packages/packages/44/55/6666/"+winA, shaB)
	f.file("nvidia-cuda-runtime", "13.2.86", wheelA, "../../packages/packages/70/c6/8f8c/"+wheelA, shaA)

	code, out, errOut := runCmd(t, "wheel", "nvidia-cuda-runtime==13.2.86")
	if code != 0 {
		t.Fatalf("wheel exited %d\n%s%s", code, out, errOut)
	}
	want := `                {
                    "package": "nvidia-cuda-runtime==13.2.86",
                    "url": "https://files.pythonhosted.org/packages/70/c6/8f8c/` + wheelA + `",
                    "sha256": "` + shaA + `",
                    "strip_prefix": "nvidia/cu13",
                },
`
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	if f.served >= int64(len(whl)) {
		t.Errorf("served %d bytes of a %d-byte wheel: the central directory should be read with range requests", f.served, len(whl))
	}
	// The printed entry parses back as the same archive.
	got, err := ParseVersions("v.bzl", []byte("CUDA_TOOLKITS = {\"13.2\": {\"components\": {\"cudart\": [\n"+out+"]}}}\n"))
	if err != nil || len(got) != 1 || got[0].StripPrefix != "nvidia/cu13" || got[0].SHA256 != shaA {
		t.Errorf("printed entry does not parse back: %+v, %v", got, err)
	}
}

func TestWheelAarch64(t *testing.T) {
	f := newFakePyPI(t)
	f.wheels["/packages/packages/11/22/3333/"+armA] = makeWheel(t, "nvidia/cu13")
	f.file("nvidia-cuda-runtime", "13.2.86", armA, "../../packages/packages/11/22/3333/"+armA, shaC)
	f.file("nvidia-cuda-runtime", "13.2.86", wheelA, "../../packages/packages/70/c6/8f8c/"+wheelA, shaA)
	code, out, errOut := runCmd(t, "wheel", "-platform", "linux_aarch64", "nvidia-cuda-runtime==13.2.86")
	if code != 0 {
		t.Fatalf("wheel -platform linux_aarch64 exited %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(out, armA) || !strings.Contains(out, shaC) {
		t.Errorf("got\n%s\nwant the aarch64 wheel %s", out, armA)
	}
	if code, _, errOut := runCmd(t, "wheel", "-platform", "linux_ppc64le", "nvidia-cuda-runtime==13.2.86"); code != 1 || !strings.Contains(errOut, "unknown platform") {
		t.Errorf("an unknown platform: exit %d, %q; want exit 1 naming it", code, errOut)
	}
}

func TestWheelErrors(t *testing.T) {
	f := newFakePyPI(t)
	f.file("nvidia-cuda-runtime", "13.2.86", armA, "../../packages/packages/11/22/3333/"+armA, shaC)
	f.file("nvidia-nvtx", "13.2.86", wheelB, "../../packages/packages/49/ee/16bd/"+wheelB, shaB) // not served
	for _, tc := range []struct{ spec, want string }{
		{"nvidia-cuda-runtime==", "is not NAME==VERSION"},
		{"nvidia-cuda-runtime", "no final release of nvidia-cuda-runtime has a manylinux x86_64 wheel"},
		{"nvidia-cuda-runtime==13.2.86", "nvidia-cuda-runtime==13.2.86 has no real wheel for linux_x86_64 (no manylinux x86_64 wheel among"},
		{"nvidia-cuda-runtime==1.0", "has no release 1.0"},
		{"nvidia-nvtx==13.2.86", "HEAD " + f.URL + "/packages/packages/49/ee/16bd/" + wheelB + ": 404 Not Found"},
	} {
		code, out, errOut := runCmd(t, "wheel", tc.spec)
		if code != 1 || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("wheel %s: exit %d, stdout %q, stderr %q; want exit 1 and %q", tc.spec, code, out, errOut, tc.want)
		}
	}
}

func TestCommonPrefix(t *testing.T) {
	for _, tc := range []struct {
		names []string
		want  string
		err   bool
	}{
		{names: []string{"nvidia/__init__.py", "nvidia/cuda_runtime/__init__.py", "nvidia/cuda_runtime/lib/libcudart.so.12", "x-1.dist-info/RECORD"}, want: "nvidia/cuda_runtime"},
		{names: []string{"nvidia/cu13/bin/nvcc", "nvidia/cuda_nvcc/bin/ptxas"}, err: true},
		{names: []string{"nvidia/cu13/bin/nvcc", "top.py"}, err: true},
		{names: []string{"x-1.dist-info/RECORD"}, err: true},
	} {
		got, err := commonPrefix(tc.names)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("commonPrefix(%q) = %q, %v; want %q, error %v", tc.names, got, err, tc.want, tc.err)
		}
	}
}

func TestFilePath(t *testing.T) {
	const want = "49/ee/16bd/" + wheelB
	for _, u := range []string{
		"https://files.pythonhosted.org/packages/" + want,
		"../../packages/packages/" + want,
		"http://proxy:8080/root/packages/packages/" + want,
	} {
		got, err := filePath(u)
		if err != nil || got != want {
			t.Errorf("filePath(%q) = %q, %v; want %q", u, got, err, want)
		}
	}
	if _, err := filePath("https://developer.download.nvidia.com/compute/cuda/redist/x.tar.xz"); err == nil {
		t.Error("filePath of a non-PyPI URL succeeded")
	}
}

func TestIsLinuxX86Wheel(t *testing.T) {
	for name, want := range map[string]bool{
		wheelA: true,
		wheelB: true,
		armA:   false,
		winA:   false,
		"nvidia_cublas-13.4.1.3-py3-none-manylinux_2_27_x86_64.whl": true,
		"nvidia_cuda_runtime-13.2.86.tar.gz":                        false,
	} {
		if got := isLinuxX86Wheel(name); got != want {
			t.Errorf("isLinuxX86Wheel(%q) = %v, want %v", name, got, want)
		}
	}
}
