package cuda

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/bazelbuild/bazel-gazelle/testtools"
)

var gazelleBinary = flag.String("gazelle", "", "rlocationpath of a gazelle binary with this extension (set by Bazel)")

// TestGoldens runs the Gazelle binary on every case under testdata, in the layout of Gazelle's
// gazelle_generation_test: testdata/<case> is a repository (it has a MODULE.bazel); its BUILD.in
// files are the build files before the run, its BUILD.out files the expected ones after it;
// expectedStderr.txt (default empty), expectedExitCode.txt (default 0) and arguments.txt are
// optional. It checks that
//   - the first run writes exactly the BUILD.out files (no other build file appears),
//   - its stderr and exit code are as expected,
//   - a second run changes nothing.
//
// To rewrite the goldens from the current behavior:
//
//	UPDATE_GOLDENS=1 bazel run //gazelle/cuda:cuda_test -- -test.run=TestGoldens
func TestGoldens(t *testing.T) {
	if *gazelleBinary == "" {
		t.Skip("needs -gazelle; run it with bazel test //gazelle/cuda:cuda_test")
	}
	bin, err := runfile(*gazelleBinary)
	if err != nil {
		t.Fatal(err)
	}
	modules, err := filepath.Glob("testdata/*/MODULE.bazel")
	if err != nil || len(modules) == 0 {
		t.Fatalf("no test cases under testdata (%v)", err)
	}
	update := ""
	if os.Getenv("UPDATE_GOLDENS") != "" {
		if update = os.Getenv("BUILD_WORKSPACE_DIRECTORY"); update == "" {
			t.Fatal("UPDATE_GOLDENS needs bazel run")
		}
		update = filepath.Join(update, "gazelle", "cuda")
	}
	for _, m := range modules {
		src := filepath.Dir(m)
		t.Run(filepath.Base(src), func(t *testing.T) {
			c := readCase(t, src)
			ws := t.TempDir()
			for rel, content := range c.inputs {
				dst := filepath.Join(ws, filepath.FromSlash(rel))
				if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(dst, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			run := func() (map[string]string, string, int) {
				cmd := exec.Command(bin, c.args...)
				cmd.Dir = ws
				cmd.Env = append(os.Environ(), "BUILD_WORKSPACE_DIRECTORY="+ws)
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				code := 0
				if err := cmd.Run(); err != nil {
					var exit *exec.ExitError
					if !errors.As(err, &exit) {
						t.Fatal(err)
					}
					code = exit.ExitCode()
				}
				return snapshot(t, ws), strings.TrimSpace(strings.ReplaceAll(stderr.String(), ws, "%WORKSPACEPATH%")), code
			}

			first, stderr, code := run()
			if update != "" {
				c.write(t, filepath.Join(update, src), first, stderr, code)
				return
			}
			if code != c.exitCode {
				t.Errorf("exit code %d, want %d", code, c.exitCode)
			}
			if stderr != c.stderr {
				t.Errorf("stderr:\n%s\nwant:\n%s", stderr, c.stderr)
			}
			var goldens []testtools.FileSpec
			for rel, content := range c.goldens {
				goldens = append(goldens, testtools.FileSpec{Path: rel, Content: content})
			}
			testtools.CheckFiles(t, ws, goldens)
			for name := range first {
				if path.Base(name) == "BUILD.bazel" {
					if _, ok := c.goldens[name]; !ok {
						t.Errorf("gazelle wrote %s, which has no golden (BUILD.out)", name)
					}
				}
			}
			for name := range c.goldens {
				if _, ok := first[name]; !ok {
					t.Errorf("%s has a golden (BUILD.out) but gazelle did not write it", name)
				}
			}

			second, _, _ := run()
			for _, name := range unionKeys(first, second) {
				if first[name] != second[name] {
					t.Errorf("%s changed on the second run:\n--- first\n%s\n--- second\n%s", name, first[name], second[name])
				}
			}
		})
	}
}

// goldenCase is one testdata/<case> directory.
type goldenCase struct {
	inputs   map[string]string // by path in the workspace (BUILD.in as BUILD.bazel)
	goldens  map[string]string // BUILD.out files, by the path of the BUILD.bazel they describe
	args     []string
	stderr   string
	exitCode int
}

func readCase(t *testing.T, src string) *goldenCase {
	c := &goldenCase{inputs: map[string]string{}, goldens: map[string]string{}}
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		content, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		rel = filepath.ToSlash(rel)
		switch {
		case rel == "arguments.txt":
			c.args = strings.Fields(string(content))
		case rel == "expectedStderr.txt":
			c.stderr = strings.TrimSpace(string(content))
		case rel == "expectedExitCode.txt":
			if c.exitCode, err = strconv.Atoi(strings.TrimSpace(string(content))); err != nil {
				return err
			}
		case rel == "expectedStdout.txt":
			return errors.New("expectedStdout.txt is not supported")
		case strings.HasSuffix(rel, ".out"):
			c.goldens[strings.TrimSuffix(rel, ".out")+".bazel"] = string(content)
		case strings.HasSuffix(rel, ".in"):
			c.inputs[strings.TrimSuffix(rel, ".in")+".bazel"] = string(content)
		default:
			c.inputs[rel] = string(content)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// write replaces the goldens of the case in dir with the results of a run.
func (c *goldenCase) write(t *testing.T, dir string, files map[string]string, stderr string, code int) {
	for name := range c.goldens {
		if err := os.Remove(filepath.Join(dir, filepath.FromSlash(strings.TrimSuffix(name, ".bazel")+".out"))); err != nil {
			t.Fatal(err)
		}
	}
	for name, content := range files {
		if path.Base(name) == "BUILD.bazel" {
			out := filepath.Join(dir, filepath.FromSlash(strings.TrimSuffix(name, ".bazel")+".out"))
			if err := os.WriteFile(out, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for name, content := range map[string]string{"expectedStderr.txt": stderr, "expectedExitCode.txt": ""} {
		p := filepath.Join(dir, name)
		if name == "expectedExitCode.txt" && code != 0 {
			content = strconv.Itoa(code)
		}
		if content == "" {
			os.Remove(p)
		} else if err := os.WriteFile(p, []byte(content+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// snapshot returns the content of every file under dir by slash-separated relative path.
func snapshot(t *testing.T, dir string) map[string]string {
	files := map[string]string{}
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		content, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = string(content)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func unionKeys(a, b map[string]string) []string {
	var keys []string
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// runfile returns the path of a runfile given by its rlocationpath, under bazel test or bazel run.
func runfile(rlocation string) (string, error) {
	var roots []string
	for _, env := range []string{"TEST_SRCDIR", "RUNFILES_DIR"} {
		if d := os.Getenv(env); d != "" {
			roots = append(roots, d)
		}
	}
	if exe, err := os.Executable(); err == nil {
		roots = append(roots, exe+".runfiles")
	}
	for _, root := range roots {
		p := filepath.Join(root, filepath.FromSlash(rlocation))
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", errors.New("runfile " + rlocation + " not found under " + strings.Join(roots, ", "))
}
