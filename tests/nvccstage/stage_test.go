// Package nvccstage tests toolchains/private/nvcc_stage.sh, which runs nvcc
// on sources staged at a fixed modification time, with a stand-in nvcc
// that reports what it sees.
package nvccstage

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The script, from this package's directory (go test and bazel test run here).
const script = "../../toolchains/private/nvcc_stage.sh"

// fixedTime is the modification time the script gives the staged files.
const fixedTime = 946684800

// checkout is the modification time of the files as "checked out".
var checkout = time.Unix(978307200, 0)

// fakeNvcc writes, to the file after -o, its PWD and for each file it is
// given after --stat the file's modification time and whether it is a copy
// in the stage or (through links) the original, and exits with $FAKE_RC.
const fakeNvcc = `#!/usr/bin/env bash
set -eu
out= stats=()
while [ $# -gt 0 ]; do
  case $1 in
    -o) out=$2; shift 2 ;;
    --stat) stats+=("$2"); shift 2 ;;
    *) shift ;;
  esac
done
{
  echo "PWD=$PWD"
  for f in "${stats[@]}"; do
    where=original
    case $(readlink -f "$f") in *.stage/*) where=copy ;; esac
    echo "$f $(stat -L -c %Y "$f") $where"
  done
} >"$out"
exit "${FAKE_RC:-0}"
`

// execroot makes an action's directory: sources, a generated header, the
// toolkit's header and nvcc, and the output's directory.
func execroot(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"pkg/k.cu":                       "#include \"pkg/k.h\"\n",
		"pkg/k.h":                        "// header\n",
		"pkg/other.txt":                  "not an input of this compile\n",
		"bazel-out/bin/pkg/gen.h":        "// generated\n",
		"bazel-out/bin/pkg/_objs/gen2.h": "// generated next to the object\n",
		"external/tk/include/t.h":        "// the toolkit's\n",
		"external/tk/bin/nvcc":           fakeNvcc,
	}
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if strings.HasSuffix(name, "/nvcc") {
			mode = 0o755
		}
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, checkout, checkout); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// stage runs the script in root with the given list and nvcc arguments.
func stage(t *testing.T, root, list, out string, env []string, args ...string) (string, error) {
	t.Helper()
	abs, err := filepath.Abs(script)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "list.params"), []byte(list), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(abs, append([]string{"external/tk/bin/nvcc", "list.params", out}, args...)...)
	cmd.Dir = root
	cmd.Env = append([]string{"PATH=/usr/bin:/bin", "PWD=/proc/self/cwd"}, env...)
	b, err := cmd.CombinedOutput()
	return string(b), err
}

const list = `copy pkg/k.cu
copy pkg/k.h
copy bazel-out/bin/pkg/gen.h
copy external/tk/include/t.h
`

var statArgs = []string{
	"--stat", "pkg/k.cu", "--stat", "pkg/k.h", "--stat", "bazel-out/bin/pkg/gen.h",
	"--stat", "external/tk/include/t.h", "--stat", "pkg/other.txt",
}

func report(t *testing.T, path string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("nvcc's output: %v", err)
	}
	m := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if v, ok := strings.CutPrefix(line, "PWD="); ok {
			m["PWD"] = v
			continue
		}
		f, rest, _ := strings.Cut(line, " ")
		m[f] = rest
	}
	return m
}

func TestStagedSourcesHaveOneTime(t *testing.T) {
	root := execroot(t)
	out := "bazel-out/bin/pkg/_objs/k.o"
	if msg, err := stage(t, root, list, out, nil, append([]string{"-c", "pkg/k.cu", "-o", out}, statArgs...)...); err != nil {
		t.Fatalf("nvcc_stage.sh: %v\n%s", err, msg)
	}
	got := report(t, filepath.Join(root, out))
	fixed := "946684800 copy"
	want := map[string]string{
		"PWD":                     "/proc/self/cwd",
		"pkg/k.cu":                fixed,
		"pkg/k.h":                 fixed,
		"bazel-out/bin/pkg/gen.h": fixed,
		// The toolkit's headers too (a remote worker would give them times of its own); what is
		// not listed is linked.
		"external/tk/include/t.h": fixed,
		"pkg/other.txt":           "978307200 original",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("nvcc saw %s: %q, want %q", k, got[k], v)
		}
	}
	if _, err := os.Stat(filepath.Join(root, out+".stage")); !os.IsNotExist(err) {
		t.Errorf("the stage was not removed: %v", err)
	}
	// The checkout's files keep their times.
	for _, f := range []string{"pkg/k.cu", "pkg/k.h", "bazel-out/bin/pkg/gen.h"} {
		fi, err := os.Stat(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		if !fi.ModTime().Equal(checkout) {
			t.Errorf("%s's time changed to %v", f, fi.ModTime())
		}
	}
}

// A header copied from the output's own directory puts that directory in
// the stage: the output is moved out of it.
func TestOutputInStagedDirectory(t *testing.T) {
	root := execroot(t)
	out := "bazel-out/bin/pkg/_objs/k.o"
	l := list + "copy bazel-out/bin/pkg/_objs/gen2.h\n"
	if msg, err := stage(t, root, l, out, nil, "-o", out, "--stat", "bazel-out/bin/pkg/_objs/gen2.h"); err != nil {
		t.Fatalf("nvcc_stage.sh: %v\n%s", err, msg)
	}
	if got := report(t, filepath.Join(root, out))["bazel-out/bin/pkg/_objs/gen2.h"]; got != "946684800 copy" {
		t.Errorf("nvcc saw gen2.h: %q", got)
	}
	if _, err := os.Stat(filepath.Join(root, out+".stage")); !os.IsNotExist(err) {
		t.Errorf("the stage was not removed: %v", err)
	}
}

func TestNvccFailurePassesThrough(t *testing.T) {
	root := execroot(t)
	out := "bazel-out/bin/pkg/_objs/k.o"
	_, err := stage(t, root, list, out, []string{"FAKE_RC=3"}, "-o", out)
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 3 {
		t.Fatalf("nvcc_stage.sh with nvcc exiting 3: %v, want exit status 3", err)
	}
	if _, err := os.Stat(filepath.Join(root, out+".stage")); !os.IsNotExist(err) {
		t.Errorf("the stage was not removed: %v", err)
	}
}

func TestBadList(t *testing.T) {
	root := execroot(t)
	out := "bazel-out/bin/pkg/_objs/k.o"
	msg, err := stage(t, root, "copy pkg/k.cu\nfrobnicate pkg/k.h\n", out, nil, "-o", out)
	if err == nil || !strings.Contains(msg, "unexpected line 'frobnicate pkg/k.h'") {
		t.Errorf("nvcc_stage.sh with a bad list: %v\n%s", err, msg)
	}
}

// "sources PTX" stages the files that the PTX's .file directives name under
// the action's directory (what ptxas reads the times of), and nothing else.
func TestSourcesOfPTX(t *testing.T) {
	root := execroot(t)
	ptx := "bazel-out/bin/pkg/_objs/k.ptx"
	if err := os.WriteFile(filepath.Join(root, ptx), []byte("\t.file\t1 \"/proc/self/cwd/pkg/k.cu\"\n"+
		"\t.file\t2 \"/proc/self/cwd/./external/tk/include/t.h\"\n\t.file\t3 \"/usr/include/c++/12/cmath\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := "bazel-out/bin/pkg/_objs/k.cubin"
	if msg, err := stage(t, root, "sources "+ptx+"\n", out, nil, append([]string{"-cubin", ptx, "-o", out}, statArgs...)...); err != nil {
		t.Fatalf("nvcc_stage.sh: %v\n%s", err, msg)
	}
	got := report(t, filepath.Join(root, out))
	want := map[string]string{
		"pkg/k.cu":                "946684800 copy",
		"external/tk/include/t.h": "946684800 copy",
		"pkg/k.h":                 "978307200 original",
		"bazel-out/bin/pkg/gen.h": "978307200 original",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("nvcc saw %s: %q, want %q", k, got[k], v)
		}
	}
}
