package bench

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The repository's root, seen from this package (go test and bazel test run
// in the package's directory).
const repoRoot = ".."

// TestDocsSummaryIsCurrent checks that docs/benchmarks.md's current results
// are what bench compare --summary writes from the run its section names.
func TestDocsSummaryIsCurrent(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(repoRoot, "docs/benchmarks.md"))
	if err != nil {
		t.Fatal(err)
	}
	folder, start, end, err := SummarySection(doc)
	if err != nil {
		t.Fatalf("docs/benchmarks.md: %v", err)
	}
	goRep, err := ReadJSON(filepath.Join(repoRoot, folder, "go.json"))
	if err != nil {
		t.Fatal(err)
	}
	torchRep, err := ReadJSON(filepath.Join(repoRoot, folder, "torch.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	Compare(goRep, torchRep).WriteSummary(&want)
	if got := strings.TrimSpace(string(doc[start:end])); got != strings.TrimSpace(want.String()) {
		t.Errorf("docs/benchmarks.md's current results are not what bench compare writes from %s; run\n"+
			"  bazel run //bench/cmd/bench -- compare --go %[1]s/go.json --torch %[1]s/torch.json --summary docs/benchmarks.md\n"+
			"got:\n%s\nwant:\n%s", folder, got, want.String())
	}
	if !strings.Contains(want.String(), "polynomial at 256M, % of copy") {
		t.Errorf("the summary of %s has no polynomial row:\n%s", folder, want.String())
	}
}

func TestReplaceSummary(t *testing.T) {
	doc := "# Title\n\n" + SummaryBegin + "docs/x -->\nold\n" + SummaryEnd + "\nafter\n"
	out, err := ReplaceSummary([]byte(doc), []byte("new table\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := "# Title\n\n" + SummaryBegin + "docs/x -->\n\nnew table\n\n" + SummaryEnd + "\nafter\n"
	if string(out) != want {
		t.Errorf("ReplaceSummary:\n%q\nwant\n%q", out, want)
	}
	folder, _, _, err := SummarySection(out)
	if err != nil || folder != "docs/x" {
		t.Errorf("SummarySection = %q, %v; want docs/x", folder, err)
	}
	// Replacing again gives the same document.
	again, err := ReplaceSummary(out, []byte("new table\n"))
	if err != nil || string(again) != want {
		t.Errorf("ReplaceSummary twice = %q, %v", again, err)
	}
}

func TestSummarySectionErrors(t *testing.T) {
	for name, doc := range map[string]string{
		"no begin":  "text\n",
		"no end":    SummaryBegin + "docs/x -->\ntable\n",
		"no folder": SummaryBegin + " -->\n" + SummaryEnd + "\n",
		"last line": SummaryBegin + "docs/x -->",
		"no close":  SummaryBegin + "docs/x\n" + SummaryEnd + "\n",
	} {
		if _, _, _, err := SummarySection([]byte(doc)); err == nil {
			t.Errorf("%s: SummarySection(%q) gave no error", name, doc)
		}
	}
}
