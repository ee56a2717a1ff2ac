// Package versions checks that the rules_go and gazelle versions written outside MODULE.bazel, the
// one place they are chosen (./bazelw's offline setup reads them from there), agree with it.
package versions

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// The repository root: go test and Bazel both run a test in its package's directory.
const root = "../.."

func read(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// moduleVersion is the version MODULE.bazel's bazel_dep(name = NAME, version = ...) gives.
func moduleVersion(t *testing.T, module, name string) string {
	t.Helper()
	m := regexp.MustCompile(`bazel_dep\(\s*name\s*=\s*"` + regexp.QuoteMeta(name) + `"\s*,\s*version\s*=\s*"([^"]+)"`).FindStringSubmatch(module)
	if m == nil {
		t.Fatalf("MODULE.bazel has no bazel_dep(name = %q, version = ...)", name)
	}
	return m[1]
}

func TestVersionsAgreeWithModuleBazel(t *testing.T) {
	module := read(t, "MODULE.bazel")
	rulesGo, gazelle := moduleVersion(t, module, "rules_go"), moduleVersion(t, module, "gazelle")

	// WORKSPACE users get the same releases from rules_cuda_go_dependencies().
	deps := read(t, "rules/deps.bzl")
	for _, want := range []string{
		"/rules_go/releases/download/v" + rulesGo + "/rules_go-v" + rulesGo + ".zip",
		"/bazel-gazelle/releases/download/v" + gazelle + "/gazelle-v" + gazelle + ".tar.gz",
	} {
		if !regexp.MustCompile(regexp.QuoteMeta(want)).MatchString(deps) {
			t.Errorf("rules/deps.bzl does not download %s (MODULE.bazel: rules_go %s, gazelle %s)", want, rulesGo, gazelle)
		}
	}
	for _, m := range regexp.MustCompile(`releases/download/v([^/]+)/(rules_go|gazelle)-`).FindAllStringSubmatch(deps, -1) {
		if want := map[string]string{"rules_go": rulesGo, "gazelle": gazelle}[m[2]]; m[1] != want {
			t.Errorf("rules/deps.bzl downloads %s %s, MODULE.bazel says %s", m[2], m[1], want)
		}
	}

	// The gazelle extension (gazelle/cuda, a Go module of its own) compiles against the same
	// gazelle as the build uses.
	m := regexp.MustCompile(`(?m)^\s*github\.com/bazelbuild/bazel-gazelle v(\S+)`).FindStringSubmatch(read(t, "gazelle/go.mod"))
	if m == nil {
		t.Fatal("gazelle/go.mod does not require github.com/bazelbuild/bazel-gazelle")
	}
	if m[1] != gazelle {
		t.Errorf("gazelle/go.mod requires bazel-gazelle v%s, MODULE.bazel says gazelle %s", m[1], gazelle)
	}
}
