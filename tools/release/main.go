// Command release writes a release of rules_cuda_go: a source archive of the checkout's committed
// HEAD and the module's entry in a Bazel registry laid out like the Bazel Central Registry's.
//
//	bazel run //tools/release -- [-out DIR] [-url URL] VERSION
//
// In DIR (default: dist/ in the checkout) it writes
//
//	rules_cuda_go-VERSION.tar.gz                       the source archive (prefix rules_cuda_go-VERSION/)
//	registry/bazel_registry.json
//	registry/modules/rules_cuda_go/metadata.json       the versions (added to an existing file)
//	registry/modules/rules_cuda_go/VERSION/MODULE.bazel
//	registry/modules/rules_cuda_go/VERSION/source.json  url, integrity (sha256 of the archive), strip_prefix
//	registry/modules/rules_cuda_go/VERSION/presubmit.yml
//
// The archive holds the files of HEAD (uncommitted changes are left out, and reported) with
// MODULE.bazel's version, and the version at which examples/bzlmod_consumer depends on the module,
// set to VERSION. It is reproducible: the same commit and version give the same bytes. source.json's
// url is URL, by default where a GitHub release of the tag vVERSION keeps the archive; for a local
// registry, -url file:///path/to/rules_cuda_go-VERSION.tar.gz.
package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// Module is the Bazel module's name.
const Module = "rules_cuda_go"

// Repository is the module's source repository, for metadata.json and the default archive URL.
const Repository = "github:rules-cuda-go/rules_cuda_go"

// presubmitBazel are the Bazel versions the registry's CI builds and tests the release with.
var presubmitBazel = []string{"7.x", "8.x", "9.x"}

// versionRE is the registry's relaxed semantic version: MAJOR.MINOR.PATCH, optionally -PRERELEASE
// and +BUILD (e.g. 0.1.0, 1.2.0-rc1; not 0.1.0.bcr.1, a suffix the registry adds itself).
var versionRE = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(2)
		}
		fmt.Fprintf(os.Stderr, "release: %v\n", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("release", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "directory for the archive and registry/ (default: dist/ in the checkout)")
	url := fs.String("url", "", "the archive's URL in source.json (default: the GitHub release of tag vVERSION)")
	src := fs.String("src", "", "the checkout (default: $BUILD_WORKSPACE_DIRECTORY, else the current directory)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: bazel run //tools/release -- [-out DIR] [-url URL] VERSION")
		fs.PrintDefaults()
	}
	// Flags may follow VERSION too.
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			break
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(positional) != 1 {
		fs.Usage()
		return fmt.Errorf("want one VERSION, got %d arguments", len(positional))
	}
	version := positional[0]
	if !versionRE.MatchString(version) {
		return fmt.Errorf("version %q is not MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD] (e.g. 0.1.0)", version)
	}
	root := *src
	if root == "" {
		root = os.Getenv("BUILD_WORKSPACE_DIRECTORY")
	}
	if root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return err
		}
		root = wd
	}
	dir := *out
	if dir == "" {
		dir = filepath.Join(root, "dist")
	} else if !filepath.IsAbs(dir) {
		// Under bazel run the working directory is the runfiles tree: relative to the checkout.
		dir = filepath.Join(root, dir)
	}
	r, err := Release(root, version, dir, *url)
	if err != nil {
		return err
	}
	if len(r.Uncommitted) > 0 {
		fmt.Fprintf(stderr, "release: left out of the archive, not committed: %s\n", strings.Join(r.Uncommitted, ", "))
	}
	fmt.Fprintf(stdout, "%s (%d files, %d bytes, %s)\n%s\n", r.Archive, r.Files, r.Size, r.Integrity, r.Entry)
	return nil
}

// Result describes what Release wrote.
type Result struct {
	Archive     string   // the source archive
	Entry       string   // the registry's directory for this version
	Integrity   string   // sha256-BASE64 of the archive
	Files       int      // files in the archive
	Size        int64    // the archive's size in bytes
	Uncommitted []string // changed or untracked files of the checkout, not in the archive
}

// Release writes the archive of root's HEAD at version and its registry entry under out.
func Release(root, version, out, url string) (Result, error) {
	var res Result
	tarball, err := gitArchive(root)
	if err != nil {
		return res, err
	}
	prefix := Module + "-" + version
	archive, files, module, err := repack(tarball, prefix, version)
	if err != nil {
		return res, err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return res, err
	}
	res.Archive = filepath.Join(out, prefix+".tar.gz")
	if err := os.WriteFile(res.Archive, archive, 0o644); err != nil {
		return res, err
	}
	sum := sha256.Sum256(archive)
	res.Integrity = "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
	res.Files = files
	res.Size = int64(len(archive))
	if url == "" {
		url = fmt.Sprintf("https://github.com/rules-cuda-go/rules_cuda_go/releases/download/v%s/%s.tar.gz", version, prefix)
	}

	registry := filepath.Join(out, "registry")
	res.Entry = filepath.Join(registry, "modules", Module, version)
	if err := os.MkdirAll(res.Entry, 0o755); err != nil {
		return res, err
	}
	source, err := jsonBytes(map[string]any{
		"url":          url,
		"integrity":    res.Integrity,
		"strip_prefix": prefix,
	})
	if err != nil {
		return res, err
	}
	writes := map[string][]byte{
		filepath.Join(res.Entry, "MODULE.bazel"):  module,
		filepath.Join(res.Entry, "source.json"):   source,
		filepath.Join(res.Entry, "presubmit.yml"): []byte(presubmit()),
	}
	if _, err := os.Stat(filepath.Join(registry, "bazel_registry.json")); errors.Is(err, os.ErrNotExist) {
		writes[filepath.Join(registry, "bazel_registry.json")] = []byte("{\n  \"mirrors\": []\n}\n")
	}
	meta, err := metadata(filepath.Join(registry, "modules", Module, "metadata.json"), version)
	if err != nil {
		return res, err
	}
	writes[filepath.Join(registry, "modules", Module, "metadata.json")] = meta
	for path, data := range writes {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return res, err
		}
	}
	res.Uncommitted, err = uncommitted(root)
	return res, err
}

// gitArchive returns `git archive` of root's HEAD, uncompressed.
func gitArchive(root string) ([]byte, error) {
	cmd := exec.Command("git", "-C", root, "archive", "--format=tar", "HEAD")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("git archive of %s's HEAD (the checkout must be a git repository with a commit): %v: %s", root, err, strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), nil
}

// uncommitted lists the paths `git status` reports (modified, added or untracked, not ignored).
func uncommitted(root string) ([]string, error) {
	out, err := exec.Command("git", "-C", root, "status", "--porcelain", "--untracked-files=normal").Output()
	if err != nil {
		return nil, fmt.Errorf("git status in %s: %w", root, err)
	}
	var paths []string
	for _, line := range strings.Split(string(out), "\n") {
		if len(line) > 3 {
			paths = append(paths, line[3:])
		}
	}
	return paths, nil
}

// stamps are the files whose version of rules_cuda_go the archive sets to the release's: the
// module's own version, and what the example the registry's presubmit tests depends on.
var stamps = map[string]*regexp.Regexp{
	"MODULE.bazel":                          regexp.MustCompile(`(?s)(module\(\s*name = "rules_cuda_go",\s*version = ")[^"]*(")`),
	"examples/bzlmod_consumer/MODULE.bazel": regexp.MustCompile(`(bazel_dep\(name = "rules_cuda_go", version = ")[^"]*(")`),
}

// repack turns git's tar into the release archive: every entry under prefix/, the stamped files
// set to version, owners and times fixed, gzip without a name or time. It returns the archive, the
// number of regular files and the stamped MODULE.bazel.
func repack(tarball []byte, prefix, version string) ([]byte, int, []byte, error) {
	tr := tar.NewReader(bytes.NewReader(tarball))
	type entry struct {
		hdr  *tar.Header
		data []byte
	}
	var entries []entry
	var module []byte
	stamped := map[string]bool{}
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, 0, nil, fmt.Errorf("reading git archive: %w", err)
		}
		if hdr.Typeflag == tar.TypeXGlobalHeader {
			continue // git's commit id comment
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			return nil, 0, nil, fmt.Errorf("reading %s from git archive: %w", hdr.Name, err)
		}
		if re, ok := stamps[hdr.Name]; ok {
			if !re.Match(data) {
				return nil, 0, nil, fmt.Errorf("%s: found no version of rules_cuda_go to set (%s)", hdr.Name, re)
			}
			data = re.ReplaceAll(data, []byte("${1}"+version+"${2}"))
			stamped[hdr.Name] = true
			if hdr.Name == "MODULE.bazel" {
				module = data
			}
		}
		entries = append(entries, entry{hdr, data})
	}
	for name := range stamps {
		if !stamped[name] {
			return nil, 0, nil, fmt.Errorf("HEAD has no %s", name)
		}
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].hdr.Name < entries[j].hdr.Name })

	var buf bytes.Buffer
	gz, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, 0, nil, err
	}
	tw := tar.NewWriter(gz)
	files := 0
	epoch := time.Unix(0, 0).UTC()
	if err := tw.WriteHeader(&tar.Header{Name: prefix + "/", Typeflag: tar.TypeDir, Mode: 0o755, ModTime: epoch, Format: tar.FormatPAX}); err != nil {
		return nil, 0, nil, err
	}
	for _, e := range entries {
		h := &tar.Header{
			Name:     prefix + "/" + e.hdr.Name,
			Typeflag: e.hdr.Typeflag,
			Linkname: e.hdr.Linkname,
			Mode:     e.hdr.Mode,
			ModTime:  epoch,
			Format:   tar.FormatPAX,
		}
		switch e.hdr.Typeflag {
		case tar.TypeReg:
			h.Size = int64(len(e.data))
			files++
		case tar.TypeDir, tar.TypeSymlink:
		default:
			return nil, 0, nil, fmt.Errorf("%s: unexpected entry type %q in git archive", e.hdr.Name, e.hdr.Typeflag)
		}
		if err := tw.WriteHeader(h); err != nil {
			return nil, 0, nil, err
		}
		if _, err := tw.Write(e.data); err != nil {
			return nil, 0, nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, 0, nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, 0, nil, err
	}
	return buf.Bytes(), files, module, nil
}

// metadata returns the module's metadata.json: the existing one at path with version added, or a
// new one.
func metadata(path, version string) ([]byte, error) {
	meta := map[string]any{
		"homepage":        "https://github.com/rules-cuda-go/rules_cuda_go",
		"maintainers":     []any{},
		"repository":      []any{Repository},
		"versions":        []any{},
		"yanked_versions": map[string]any{},
	}
	if data, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(data, &meta); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	versions, _ := meta["versions"].([]any)
	seen := false
	for _, v := range versions {
		if v == version {
			seen = true
		}
	}
	if !seen {
		versions = append(versions, version)
	}
	meta["versions"] = versions
	return jsonBytes(meta)
}

func jsonBytes(v any) ([]byte, error) {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// presubmit is the registry CI's presubmit.yml: the module's public targets analysed, and
// examples/bzlmod_consumer (a repository using the module) built and tested, on each Bazel version.
func presubmit() string {
	var b strings.Builder
	b.WriteString("matrix:\n  platform:\n  - debian11\n  - ubuntu2204\n  bazel:\n")
	for _, v := range presubmitBazel {
		fmt.Fprintf(&b, "  - %s\n", v)
	}
	b.WriteString(`tasks:
  verify_targets:
    name: Analyse the rules
    platform: ${{ platform }}
    bazel: ${{ bazel }}
    build_flags:
    - --nobuild
    build_targets:
    - '@rules_cuda_go//rules:all'
    - '@rules_cuda_go//ops'
    - '@rules_cuda_go//ops/cuda'
    - '@rules_cuda_go//gazelle/cuda'
bcr_test_module:
  module_path: examples/bzlmod_consumer
  matrix:
    platform:
    - debian11
    - ubuntu2204
    bazel:
`)
	for _, v := range presubmitBazel {
		fmt.Fprintf(&b, "    - %s\n", v)
	}
	b.WriteString(`  tasks:
    run_test_module:
      name: Build and test a repository that uses the rules (no GPU there: the CUDA tests skip)
      platform: ${{ platform }}
      bazel: ${{ bazel }}
      build_targets:
      - //...
      test_targets:
      - //...
`)
	return b.String()
}
