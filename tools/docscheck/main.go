// Command docscheck checks the user documentation (README.md and docs/*.md): every relative link
// names a file that exists and, with a #fragment, a heading of that file; and every fenced block
// preceded by a line `<!-- file: PATH -->` is the content of PATH, byte for byte (so an example
// shown in the docs is the one CI builds). It prints one line per problem and exits 1 if there is
// any.
//
//	go run ./tools/docscheck [-root DIR] [FILE.md...]
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("docscheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", ".", "the repository root; files and links are relative to it")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	files := fs.Args()
	if len(files) == 0 {
		docs, err := filepath.Glob(filepath.Join(*root, "docs", "*.md"))
		if err != nil {
			fmt.Fprintf(stderr, "docscheck: %v\n", err)
			return 2
		}
		files = append([]string{"README.md"}, relAll(*root, docs)...)
	}
	var problems []string
	for _, f := range files {
		p, err := checkFile(*root, f)
		if err != nil {
			fmt.Fprintf(stderr, "docscheck: %v\n", err)
			return 2
		}
		problems = append(problems, p...)
	}
	for _, p := range problems {
		fmt.Fprintln(stdout, p)
	}
	if len(problems) > 0 {
		fmt.Fprintf(stderr, "docscheck: %d problem(s) in %d file(s)\n", len(problems), len(files))
		return 1
	}
	fmt.Fprintf(stdout, "docscheck: %d file(s) OK\n", len(files))
	return 0
}

func relAll(root string, paths []string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		r, err := filepath.Rel(root, p)
		if err != nil {
			r = p
		}
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}

var (
	linkRE   = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	fileMark = regexp.MustCompile(`^<!-- file: (\S+) -->$`)
)

// checkFile returns the problems of the markdown file f (relative to root).
func checkFile(root, f string) ([]string, error) {
	data, err := os.ReadFile(filepath.Join(root, f))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", f, err)
	}
	lines := strings.Split(string(data), "\n")
	var problems []string
	inFence := false
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		if m := fileMark.FindStringSubmatch(line); m != nil {
			block, next, ok := fencedBlock(lines, i+1)
			if !ok {
				problems = append(problems, fmt.Sprintf("%s:%d: <!-- file: %s --> is not followed by a fenced block", f, i+1, m[1]))
				continue
			}
			want, err := os.ReadFile(filepath.Join(root, m[1]))
			if err != nil {
				problems = append(problems, fmt.Sprintf("%s:%d: <!-- file: %s -->: %v", f, i+1, m[1], err))
			} else if block != string(want) {
				problems = append(problems, fmt.Sprintf("%s:%d: the block after <!-- file: %s --> differs from that file; copy the file into the block", f, i+1, m[1]))
			}
			i = next
			continue
		}
		for _, m := range linkRE.FindAllStringSubmatch(stripCode(line), -1) {
			if p := checkLink(root, f, m[1]); p != "" {
				problems = append(problems, fmt.Sprintf("%s:%d: %s", f, i+1, p))
			}
		}
	}
	return problems, nil
}

// fencedBlock returns the content of the fenced block that starts at lines[i] (its opening fence),
// with a newline after each line, and the index of its closing fence.
func fencedBlock(lines []string, i int) (string, int, bool) {
	if i >= len(lines) || !strings.HasPrefix(lines[i], "```") {
		return "", i, false
	}
	var b strings.Builder
	for j := i + 1; j < len(lines); j++ {
		if strings.HasPrefix(lines[j], "```") {
			return b.String(), j, true
		}
		b.WriteString(lines[j])
		b.WriteByte('\n')
	}
	return "", i, false
}

// stripCode removes inline code spans, whose brackets are not links.
func stripCode(line string) string {
	var b strings.Builder
	in := false
	for _, r := range line {
		if r == '`' {
			in = !in
			continue
		}
		if !in {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// checkLink returns a problem with the link target in file f, or "".
func checkLink(root, f, target string) string {
	if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
		return ""
	}
	path, frag, _ := strings.Cut(target, "#")
	file := f
	if path != "" {
		file = filepath.Join(filepath.Dir(f), path)
		if _, err := os.Stat(filepath.Join(root, file)); err != nil {
			return fmt.Sprintf("link %s: %s does not exist", target, file)
		}
	}
	if frag == "" || !strings.HasSuffix(file, ".md") {
		return ""
	}
	anchors, err := headingAnchors(filepath.Join(root, file))
	if err != nil {
		return fmt.Sprintf("link %s: %v", target, err)
	}
	if !anchors[frag] {
		return fmt.Sprintf("link %s: %s has no heading with the anchor #%s", target, file, frag)
	}
	return ""
}

// headingAnchors returns the anchors GitHub gives the headings of a markdown file.
func headingAnchors(path string) (map[string]bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	anchors := map[string]bool{}
	seen := map[string]int{}
	inFence := false
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
			continue
		}
		if inFence || !strings.HasPrefix(line, "#") {
			continue
		}
		text := strings.TrimLeft(line, "#")
		if !strings.HasPrefix(text, " ") {
			continue
		}
		a := slug(text)
		if n := seen[a]; n > 0 {
			anchors[fmt.Sprintf("%s-%d", a, n)] = true
		} else {
			anchors[a] = true
		}
		seen[a]++
	}
	return anchors, nil
}

// slug is GitHub's heading anchor: lower case; letters, digits, '-' and '_' kept; spaces to '-';
// everything else dropped.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
