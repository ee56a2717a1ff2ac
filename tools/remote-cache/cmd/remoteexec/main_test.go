package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/tools/remote-cache/internal/execlog"
)

// remoteLog is a build with --remote_executor, one object per line: two split nvcc steps of one
// source ran remotely, the device link too, and a Go compile ran in the local sandbox (allowed:
// only Nvcc* must run remotely).
const remoteLog = `{"mnemonic":"NvccDevice","targetLabel":"//ops/cuda:kernels","runner":"remote","listedOutputs":["bazel-out/k8-opt/bin/ops/cuda/_objs/add.sm_90.cubin"],"actualOutputs":[{"path":"bazel-out/k8-opt/bin/ops/cuda/_objs/add.sm_90.cubin","digest":{"hash":"1111","sizeBytes":"100"}}]}
{"mnemonic":"NvccHost","targetLabel":"//ops/cuda:kernels","runner":"remote","listedOutputs":["bazel-out/k8-opt/bin/ops/cuda/_objs/add.o"],"actualOutputs":[{"path":"bazel-out/k8-opt/bin/ops/cuda/_objs/add.o","digest":{"hash":"2222","sizeBytes":"200"}}]}
{"mnemonic":"NvccDeviceLink","targetLabel":"//tests/cuda:rdc","runner":"remote","listedOutputs":["bazel-out/k8-opt/bin/tests/cuda/rdc_dlink.o"],"actualOutputs":[{"path":"bazel-out/k8-opt/bin/tests/cuda/rdc_dlink.o","digest":{"hash":"3333","sizeBytes":"300"}}]}
{"mnemonic":"GoCompilePkg","targetLabel":"//ops:ops","runner":"linux-sandbox","listedOutputs":["bazel-out/k8-opt/bin/ops/ops.a"]}
`

// localLog is the same build without remote execution: the same digests.
const localLog = `{"mnemonic":"NvccDevice","runner":"linux-sandbox","listedOutputs":["bazel-out/k8-opt/bin/ops/cuda/_objs/add.sm_90.cubin"],"actualOutputs":[{"path":"bazel-out/k8-opt/bin/ops/cuda/_objs/add.sm_90.cubin","digest":{"hash":"1111","sizeBytes":"100"}}]}
{"mnemonic":"NvccHost","runner":"linux-sandbox","listedOutputs":["bazel-out/k8-opt/bin/ops/cuda/_objs/add.o"],"actualOutputs":[{"path":"bazel-out/k8-opt/bin/ops/cuda/_objs/add.o","digest":{"hash":"2222","sizeBytes":"200"}}]}
{"mnemonic":"NvccDeviceLink","runner":"linux-sandbox","listedOutputs":["bazel-out/k8-opt/bin/tests/cuda/rdc_dlink.o"],"actualOutputs":[{"path":"bazel-out/k8-opt/bin/tests/cuda/rdc_dlink.o","digest":{"hash":"3333","sizeBytes":"300"}}]}
`

func writeLog(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func runCheck(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	return code, out.String() + errOut.String()
}

func TestAllRemoteAndEqual(t *testing.T) {
	code, out := runCheck(t, "-local", writeLog(t, "local.json", localLog), writeLog(t, "remote.json", remoteLog))
	if code != 0 {
		t.Fatalf("exit status %d, want 0:\n%s", code, out)
	}
	for _, want := range []string{
		"OK: all 3 spawns matching ^Nvcc were executed remotely",
		"OK: 3 outputs of spawns matching ^Nvcc equal the local build's, digest for digest (0 more",
		"GoCompilePkg             linux-sandbox",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// An Nvcc action that ran locally (an execution strategy, a no-remote tag) or came from the cache
// fails the check, whichever Nvcc mnemonic it has.
func TestLocalNvccFails(t *testing.T) {
	for name, c := range map[string]struct{ from, to, want string }{
		"local":     {`"mnemonic":"NvccHost","targetLabel":"//ops/cuda:kernels","runner":"remote"`, `"mnemonic":"NvccHost","targetLabel":"//ops/cuda:kernels","runner":"linux-sandbox"`, `NOT REMOTE NvccHost //ops/cuda:kernels runner="linux-sandbox"`},
		"unsplit":   {`"mnemonic":"NvccHost","targetLabel":"//ops/cuda:kernels","runner":"remote"`, `"mnemonic":"NvccCompile","targetLabel":"//ops/cuda:kernels","runner":"processwrapper-sandbox"`, `NOT REMOTE NvccCompile`},
		"cache hit": {`"mnemonic":"NvccDeviceLink","targetLabel":"//tests/cuda:rdc","runner":"remote"`, `"mnemonic":"NvccDeviceLink","targetLabel":"//tests/cuda:rdc","runner":"remote cache hit","cacheHit":true`, `NOT REMOTE NvccDeviceLink //tests/cuda:rdc runner="remote cache hit" cacheHit=true`},
	} {
		log := strings.Replace(remoteLog, c.from, c.to, 1)
		if log == remoteLog {
			t.Fatalf("%s: the test's replacement did not apply", name)
		}
		code, out := runCheck(t, writeLog(t, "remote.json", log))
		if code != 1 || !strings.Contains(out, c.want) || !strings.Contains(out, "FAIL: 1 of 3 spawns matching ^Nvcc were not executed remotely") {
			t.Errorf("%s: exit status %d, want 1 and %q:\n%s", name, code, c.want, out)
		}
	}
}

func TestNoNvccFails(t *testing.T) {
	log := `{"mnemonic":"GoCompilePkg","runner":"remote","listedOutputs":["a"]}` + "\n"
	code, out := runCheck(t, writeLog(t, "remote.json", log))
	if code != 1 || !strings.Contains(out, "FAIL: the remote build's log has no spawn whose mnemonic matches ^Nvcc") {
		t.Errorf("exit status %d, want 1:\n%s", code, out)
	}
}

func TestDifferentOutputsFail(t *testing.T) {
	for name, c := range map[string]struct{ from, to, want string }{
		"digest":    {`"hash":"2222","sizeBytes":"200"`, `"hash":"9999","sizeBytes":"200"`, "DIFFERS NvccHost //ops/cuda:kernels bazel-out/k8-opt/bin/ops/cuda/_objs/add.o: remote 2222 (200 bytes), local 9999 (200 bytes, NvccHost)"},
		"missing":   {`"actualOutputs":[{"path":"bazel-out/k8-opt/bin/tests/cuda/rdc_dlink.o"`, `"actualOutputs":[{"path":"bazel-out/k8-opt/bin/tests/cuda/elsewhere.o"`, "rdc_dlink.o: not among the local build's outputs"},
		"not local": {`{"mnemonic":"NvccHost","runner":"linux-sandbox"`, `{"mnemonic":"NvccHost","runner":"remote cache hit","cacheHit":true`, `add.o: the local build did not make it locally (NvccHost, runner "remote cache hit")`},
	} {
		local := strings.Replace(localLog, c.from, c.to, 1)
		if local == localLog {
			t.Fatalf("%s: the test's replacement did not apply", name)
		}
		code, out := runCheck(t, "-local", writeLog(t, "local.json", local), writeLog(t, "remote.json", remoteLog))
		if code != 1 || !strings.Contains(out, c.want) || !strings.Contains(out, "FAIL: 1 outputs") {
			t.Errorf("%s: exit status %d, want 1 and %q:\n%s", name, code, c.want, out)
		}
	}
	// Nothing to compare is a failure too.
	code, out := runCheck(t, "-compare", "^NoSuchMnemonic$", "-local", writeLog(t, "local.json", localLog), writeLog(t, "remote.json", remoteLog))
	if code != 1 || !strings.Contains(out, "FAIL: no outputs of spawns matching ^NoSuchMnemonic$ were compared") {
		t.Errorf("nothing compared: exit status %d, want 1:\n%s", code, out)
	}
}

// unsplitLog is a local build with one nvcc action per source (--cuda_split=false): its outputs are
// under another configuration directory, and the split's cubin has no counterpart.
const unsplitLog = `{"mnemonic":"NvccCompile","runner":"linux-sandbox","listedOutputs":["bazel-out/k8-opt-ST-12ab/bin/ops/cuda/_objs/add.o"],"actualOutputs":[{"path":"bazel-out/k8-opt-ST-12ab/bin/ops/cuda/_objs/add.o","digest":{"hash":"2222","sizeBytes":"200"}}]}
{"mnemonic":"NvccDeviceLink","runner":"linux-sandbox","listedOutputs":["bazel-out/k8-opt-ST-12ab/bin/tests/cuda/rdc_dlink.o"],"actualOutputs":[{"path":"bazel-out/k8-opt-ST-12ab/bin/tests/cuda/rdc_dlink.o","digest":{"hash":"3333","sizeBytes":"300"}}]}
`

func TestSplitAgainstUnsplit(t *testing.T) {
	code, out := runCheck(t, "-local", writeLog(t, "local.json", unsplitLog), writeLog(t, "remote.json", remoteLog))
	if code != 0 || !strings.Contains(out, "OK: 2 outputs of spawns matching ^Nvcc equal the local build's, digest for digest (1 more, not matching \\.(o|a)$, only in the remote build)") {
		t.Errorf("split remote vs unsplit local: exit status %d, want 0:\n%s", code, out)
	}
	// The object itself may not be missing, and a cubin is required when -required says so.
	code, out = runCheck(t, "-required", `\.(o|a|cubin)$`, "-local", writeLog(t, "local.json", unsplitLog), writeLog(t, "remote.json", remoteLog))
	if code != 1 || !strings.Contains(out, "add.sm_90.cubin: not among the local build's outputs") {
		t.Errorf("a required cubin missing: exit status %d, want 1:\n%s", code, out)
	}
	// The same path in two configurations of the local build: one of them matches.
	twice := unsplitLog + strings.ReplaceAll(strings.ReplaceAll(unsplitLog, "k8-opt-ST-12ab", "k8-opt-ST-99ff"), `"hash":"2222"`, `"hash":"7777"`)
	if code, out := runCheck(t, "-local", writeLog(t, "local.json", twice), writeLog(t, "remote.json", remoteLog)); code != 0 {
		t.Errorf("a path built in two configurations, one equal: exit status %d, want 0:\n%s", code, out)
	}
	if got := OutputKey("bazel-out/k8-opt-ST-12ab/bin/a.o"); got != OutputKey("bazel-out/k8-opt/bin/a.o") || got != "bazel-out/CONFIG/bin/a.o" {
		t.Errorf("OutputKey: %q", got)
	}
}

func TestCheckRemoteCounts(t *testing.T) {
	spawns, err := execlog.Read(strings.NewReader(remoteLog))
	if err != nil {
		t.Fatal(err)
	}
	placements, checked, notRemote := CheckRemote(spawns, regexp.MustCompile(defaultMnemonics))
	if checked != 3 || len(notRemote) != 0 || len(placements) != 4 {
		t.Errorf("checked %d, not remote %d, placements %+v", checked, len(notRemote), placements)
	}
	if p := placements[0]; p.Mnemonic != "GoCompilePkg" || p.Checked {
		t.Errorf("first placement %+v, want the unchecked GoCompilePkg", p)
	}
}

func TestUsage(t *testing.T) {
	if code, _ := runCheck(t); code != 2 {
		t.Errorf("no log: exit status %d, want 2", code)
	}
	if code, _ := runCheck(t, "-remote", "(", writeLog(t, "remote.json", remoteLog)); code != 2 {
		t.Errorf("bad -remote: exit status %d, want 2", code)
	}
	if code, _ := runCheck(t, filepath.Join(t.TempDir(), "missing.json")); code != 2 {
		t.Errorf("missing log: exit status %d, want 2", code)
	}
}
