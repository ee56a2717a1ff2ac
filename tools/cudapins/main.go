// Command cudapins checks and extends the pinned CUDA toolkits of toolchains/versions.bzl against
// PyPI.
//
// Usage:
//
//	cudapins check [-versions toolchains/versions.bzl]
//	cudapins wheel NAME==VERSION [NAME==VERSION ...]
//
// check parses CUDA_TOOLKITS in versions.bzl and, for every archive with a "package" key, looks the
// release up in PyPI's JSON API (https://pypi.org/pypi/<name>/json): one file of that release must
// have exactly the pinned sha256, its filename must be the basename of the pinned url, and its path
// under packages/ must be the pinned url's. It prints one line per archive (OK, MISMATCH, SKIP for
// archives without a package, such as NVIDIA's redist tarballs, or ERROR where the lookup failed)
// and exits 1 on any mismatch or lookup error.
//
// wheel prints, for each release, the versions.bzl entry of its linux x86_64 manylinux wheel:
// package, url, sha256 and strip_prefix, the wheel's top two directories (e.g. "nvidia/cu13"),
// found by reading the wheel's zip central directory through HTTP range requests, so that adding
// a CUDA version does not download gigabytes of wheels.
//
// PYPI_URL overrides the index's base URL (default https://pypi.org). Under `bazel run`, a relative
// -versions path is taken from the workspace root.
package main

import (
	"archive/zip"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/bazelbuild/buildtools/build"
)

const (
	// defaultPyPI is the index queried unless PYPI_URL says otherwise.
	defaultPyPI = "https://pypi.org"
	// filesHost is where the url of a printed entry points: PyPI's file host.
	filesHost = "https://files.pythonhosted.org/packages/"
	// httpTimeout bounds every request, the JSON lookups and each range read.
	httpTimeout = 60 * time.Second
	// readAhead is the least a range read fetches, so that archive/zip's small reads of the
	// central directory cost a few requests rather than one per 4 KiB.
	readAhead = 1 << 20
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the command line args and returns the exit status: 0 on success, 1 on a mismatch
// or failure, 2 on a usage error.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	index := NewIndex(os.Getenv("PYPI_URL"))
	switch args[0] {
	case "check":
		fs := flag.NewFlagSet("check", flag.ContinueOnError)
		fs.SetOutput(stderr)
		versions := fs.String("versions", "toolchains/versions.bzl", "the versions.bzl to check")
		if err := fs.Parse(args[1:]); err != nil {
			return 2
		}
		if fs.NArg() != 0 {
			fmt.Fprintf(stderr, "cudapins check: unexpected arguments %q\n", fs.Args())
			return 2
		}
		ok, err := check(index, workspacePath(*versions), stdout)
		if err != nil {
			fmt.Fprintf(stderr, "cudapins check: %v\n", err)
			return 1
		}
		if !ok {
			return 1
		}
		return 0
	case "wheel":
		if len(args) < 2 {
			usage(stderr)
			return 2
		}
		status := 0
		for _, spec := range args[1:] {
			a, err := index.Wheel(spec)
			if err != nil {
				fmt.Fprintf(stderr, "cudapins wheel: %v\n", err)
				status = 1
				continue
			}
			fmt.Fprint(stdout, a.Starlark())
		}
		return status
	case "-h", "-help", "--help", "help":
		usage(stdout)
		return 0
	default:
		fmt.Fprintf(stderr, "cudapins: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage:
  cudapins check [-versions toolchains/versions.bzl]   check every pinned wheel against PyPI
  cudapins wheel NAME==VERSION [...]                    print versions.bzl entries for new wheels
PYPI_URL overrides the index (default https://pypi.org).
`)
}

// workspacePath resolves a relative path against the workspace root under `bazel run`.
func workspacePath(p string) string {
	if ws := os.Getenv("BUILD_WORKSPACE_DIRECTORY"); ws != "" && !filepath.IsAbs(p) {
		return filepath.Join(ws, p)
	}
	return p
}

// Archive is one entry of a component's list in CUDA_TOOLKITS.
type Archive struct {
	// Version and Component say where the archive is: CUDA_TOOLKITS[Version]["components"][Component].
	Version, Component string
	// Line is the line of the entry in versions.bzl (0 for one not read from a file).
	Line int
	// Package is "name==version", empty for an archive that is not a PyPI wheel.
	Package     string
	URL         string
	SHA256      string
	StripPrefix string
}

// Starlark formats a as an entry of a component's list, indented like versions.bzl.
func (a Archive) Starlark() string {
	var b strings.Builder
	const in = "                "
	b.WriteString(in + "{\n")
	field := func(k, v string) {
		if v != "" {
			fmt.Fprintf(&b, "%s    %q: %q,\n", in, k, v)
		}
	}
	field("package", a.Package)
	field("url", a.URL)
	field("sha256", a.SHA256)
	field("strip_prefix", a.StripPrefix)
	b.WriteString(in + "},\n")
	return b.String()
}

// ParseVersions returns the archives of the CUDA_TOOLKITS dict literal in a versions.bzl, in the
// order they appear.
func ParseVersions(filename string, data []byte) ([]Archive, error) {
	f, err := build.ParseBzl(filename, data)
	if err != nil {
		return nil, fmt.Errorf("parsing %s: %w", filename, err)
	}
	var toolkits *build.DictExpr
	// Top-level names bound to a literal, so a component may be a shared list (_CUOBJDUMP = [...]).
	globals := map[string]build.Expr{}
	for _, stmt := range f.Stmt {
		as, ok := stmt.(*build.AssignExpr)
		if !ok || as.Op != "=" {
			continue
		}
		if id, ok := as.LHS.(*build.Ident); ok {
			globals[id.Name] = as.RHS
		}
		if id, ok := as.LHS.(*build.Ident); ok && id.Name == "CUDA_TOOLKITS" {
			d, ok := as.RHS.(*build.DictExpr)
			if !ok {
				return nil, fmt.Errorf("%s: CUDA_TOOLKITS is not a dict literal", pos(filename, as.RHS))
			}
			toolkits = d
		}
	}
	if toolkits == nil {
		return nil, fmt.Errorf("%s: no CUDA_TOOLKITS = {...}", filename)
	}
	var archives []Archive
	for _, v := range toolkits.List {
		version, err := str(filename, v.Key, "CUDA_TOOLKITS key")
		if err != nil {
			return nil, err
		}
		at := fmt.Sprintf("CUDA_TOOLKITS[%q]", version)
		tk, ok := v.Value.(*build.DictExpr)
		if !ok {
			return nil, fmt.Errorf("%s: %s is not a dict literal", pos(filename, v.Value), at)
		}
		comps := lookup(tk, "components")
		if comps == nil {
			return nil, fmt.Errorf("%s: %s has no \"components\"", pos(filename, tk), at)
		}
		cd, ok := comps.(*build.DictExpr)
		if !ok {
			return nil, fmt.Errorf("%s: %s[\"components\"] is not a dict literal", pos(filename, comps), at)
		}
		for _, c := range cd.List {
			comp, err := str(filename, c.Key, at+"[\"components\"] key")
			if err != nil {
				return nil, err
			}
			cat := fmt.Sprintf("%s[\"components\"][%q]", at, comp)
			value := c.Value
			if id, ok := value.(*build.Ident); ok && globals[id.Name] != nil {
				value = globals[id.Name]
			}
			list, ok := value.(*build.ListExpr)
			if !ok {
				return nil, fmt.Errorf("%s: %s is not a list literal (or a top-level name bound to one)", pos(filename, c.Value), cat)
			}
			for i, e := range list.List {
				eat := fmt.Sprintf("%s[%d]", cat, i)
				d, ok := e.(*build.DictExpr)
				if !ok {
					return nil, fmt.Errorf("%s: %s is not a dict literal", pos(filename, e), eat)
				}
				start, _ := d.Span()
				a := Archive{Version: version, Component: comp, Line: start.Line}
				for _, kv := range d.List {
					k, err := str(filename, kv.Key, eat+" key")
					if err != nil {
						return nil, err
					}
					val, err := str(filename, kv.Value, fmt.Sprintf("%s[%q]", eat, k))
					if err != nil {
						return nil, err
					}
					switch k {
					case "package":
						a.Package = val
					case "url":
						a.URL = val
					case "sha256":
						a.SHA256 = val
					case "strip_prefix":
						a.StripPrefix = val
					default:
						return nil, fmt.Errorf("%s: %s has unknown key %q", pos(filename, kv), eat, k)
					}
				}
				if a.URL == "" || a.SHA256 == "" {
					return nil, fmt.Errorf("%s: %s needs \"url\" and \"sha256\"", pos(filename, d), eat)
				}
				archives = append(archives, a)
			}
		}
	}
	return archives, nil
}

// lookup returns the value of the string key k in d, or nil.
func lookup(d *build.DictExpr, k string) build.Expr {
	for _, kv := range d.List {
		if s, ok := kv.Key.(*build.StringExpr); ok && s.Value == k {
			return kv.Value
		}
	}
	return nil
}

// str returns the value of a string literal, or an error naming what (at) it should have been.
func str(filename string, e build.Expr, at string) (string, error) {
	s, ok := e.(*build.StringExpr)
	if !ok {
		return "", fmt.Errorf("%s: %s is not a string literal", pos(filename, e), at)
	}
	return s.Value, nil
}

func pos(filename string, e build.Expr) string {
	start, _ := e.Span()
	return fmt.Sprintf("%s:%d", filename, start.Line)
}

// check verifies every archive of the versions.bzl at filename against the index, printing one
// line per archive and a summary. It reports false if any archive mismatched or could not be
// looked up; err is for a versions.bzl that cannot be read.
func check(index *Index, filename string, w io.Writer) (bool, error) {
	data, err := os.ReadFile(filename)
	if err != nil {
		return false, fmt.Errorf("reading versions: %w", err)
	}
	archives, err := ParseVersions(filename, data)
	if err != nil {
		return false, err
	}
	var nOK, nBad, nErr, nSkip int
	for _, a := range archives {
		where := fmt.Sprintf("%s %s (%s:%d)", a.Version, a.Component, filepath.Base(filename), a.Line)
		if a.Package == "" {
			nSkip++
			fmt.Fprintf(w, "SKIP     %s: no package: %s\n", where, path.Base(a.URL))
			continue
		}
		problems, err := index.Check(a)
		switch {
		case err != nil:
			nErr++
			fmt.Fprintf(w, "ERROR    %s: %v\n", where, err)
		case len(problems) > 0:
			nBad++
			fmt.Fprintf(w, "MISMATCH %s: %s: %s\n", where, a.Package, strings.Join(problems, "; "))
		default:
			nOK++
			fmt.Fprintf(w, "OK       %s: %s %s\n", where, a.Package, path.Base(a.URL))
		}
	}
	fmt.Fprintf(w, "%d archives: %d OK, %d mismatched, %d lookup errors, %d skipped (no package)\n",
		len(archives), nOK, nBad, nErr, nSkip)
	return nBad == 0 && nErr == 0, nil
}

// Index is a client of a PyPI JSON API that remembers each project it has fetched.
type Index struct {
	base   string
	client *http.Client
	cache  map[string]*project
}

// NewIndex returns an Index for the PyPI at base ("" for https://pypi.org).
func NewIndex(base string) *Index {
	if base == "" {
		base = defaultPyPI
	}
	return &Index{
		base:   strings.TrimSuffix(base, "/"),
		client: &http.Client{Timeout: httpTimeout},
		cache:  map[string]*project{},
	}
}

// project is PyPI's JSON for one project, with the URL it came from (relative file URLs are
// relative to it).
type project struct {
	from     *url.URL
	Releases map[string][]pypiFile `json:"releases"`
}

// pypiFile is one file of a release in PyPI's JSON.
type pypiFile struct {
	Filename    string `json:"filename"`
	URL         string `json:"url"`
	PackageType string `json:"packagetype"`
	Size        int64  `json:"size"`
	Yanked      bool   `json:"yanked"`
	Digests     struct {
		SHA256 string `json:"sha256"`
	} `json:"digests"`
}

var nameRE = regexp.MustCompile(`[-_.]+`)

// normalize is the PEP 503 form of a project name.
func normalize(name string) string {
	return strings.ToLower(nameRE.ReplaceAllString(name, "-"))
}

// splitSpec splits "name==version".
func splitSpec(spec string) (name, version string, err error) {
	name, version, ok := strings.Cut(spec, "==")
	name, version = strings.TrimSpace(name), strings.TrimSpace(version)
	if !ok || name == "" || version == "" {
		return "", "", fmt.Errorf("%q is not NAME==VERSION", spec)
	}
	return name, version, nil
}

// release returns the files of release version of project name, and the project.
func (x *Index) release(name, version string) ([]pypiFile, *project, error) {
	p, err := x.project(name)
	if err != nil {
		return nil, nil, err
	}
	files, ok := p.Releases[version]
	if !ok {
		return nil, nil, fmt.Errorf("%s has no release %s on %s (%d releases)", name, version, x.base, len(p.Releases))
	}
	if len(files) == 0 {
		return nil, nil, fmt.Errorf("release %s of %s has no files", version, name)
	}
	return files, p, nil
}

func (x *Index) project(name string) (*project, error) {
	key := normalize(name)
	if p, ok := x.cache[key]; ok {
		return p, nil
	}
	u := x.base + "/pypi/" + url.PathEscape(key) + "/json"
	resp, err := x.client.Get(u)
	if err != nil {
		return nil, fmt.Errorf("looking up %s: %w", name, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("looking up %s: GET %s: %s", name, u, resp.Status)
	}
	p := &project{from: resp.Request.URL}
	if err := json.NewDecoder(resp.Body).Decode(p); err != nil {
		return nil, fmt.Errorf("looking up %s: decoding %s: %w", name, u, err)
	}
	x.cache[key] = p
	return p, nil
}

// Check compares a wheel archive with its release on the index. It returns the problems found
// (none when the pin is right), or an error when the release cannot be looked up.
func (x *Index) Check(a Archive) ([]string, error) {
	name, version, err := splitSpec(a.Package)
	if err != nil {
		return nil, err
	}
	files, _, err := x.release(name, version)
	if err != nil {
		return nil, err
	}
	base := path.Base(a.URL)
	var match *pypiFile
	for i := range files {
		if strings.EqualFold(files[i].Digests.SHA256, a.SHA256) {
			match = &files[i]
			break
		}
	}
	if match == nil {
		msg := fmt.Sprintf("no file of %s has sha256 %s", a.Package, a.SHA256)
		for _, f := range files {
			if f.Filename == base {
				msg += fmt.Sprintf(" (%s has %s)", f.Filename, f.Digests.SHA256)
			}
		}
		return []string{msg}, nil
	}
	var problems []string
	if match.Filename != base {
		problems = append(problems, fmt.Sprintf("sha256 is %s's, url names %s", match.Filename, base))
	}
	want, err := filePath(a.URL)
	if err != nil {
		return nil, fmt.Errorf("url of %s: %w", a.Package, err)
	}
	got, err := filePath(match.URL)
	if err != nil {
		return nil, fmt.Errorf("PyPI url of %s: %w", match.Filename, err)
	}
	if want != got {
		problems = append(problems, fmt.Sprintf("url path is packages/%s, PyPI has packages/%s", want, got))
	}
	if match.Yanked {
		problems = append(problems, match.Filename+" is yanked")
	}
	return problems, nil
}

// filePath returns the path of a PyPI file URL after "packages/" (one "packages/packages/", as a
// proxy's relative URLs have, counts once): "xx/yy/<hash>/<filename>".
func filePath(u string) (string, error) {
	parsed, err := url.Parse(u)
	if err != nil {
		return "", fmt.Errorf("parsing %q: %w", u, err)
	}
	p := parsed.Path
	i := strings.Index(p, "packages/")
	if i < 0 {
		return "", fmt.Errorf("%q has no packages/ in its path", u)
	}
	p = p[i+len("packages/"):]
	for strings.HasPrefix(p, "packages/") {
		p = strings.TrimPrefix(p, "packages/")
	}
	if p == "" {
		return "", fmt.Errorf("%q has nothing after packages/", u)
	}
	return p, nil
}

// Wheel returns the versions.bzl archive of the linux x86_64 manylinux wheel of spec
// ("name==version").
func (x *Index) Wheel(spec string) (Archive, error) {
	name, version, err := splitSpec(spec)
	if err != nil {
		return Archive{}, err
	}
	files, p, err := x.release(name, version)
	if err != nil {
		return Archive{}, err
	}
	var cands []pypiFile
	for _, f := range files {
		if isLinuxX86Wheel(f.Filename) && !f.Yanked {
			cands = append(cands, f)
		}
	}
	if len(cands) != 1 {
		var names []string
		for _, f := range files {
			names = append(names, f.Filename)
		}
		return Archive{}, fmt.Errorf("%s: want one manylinux x86_64 wheel, found %d among %q", spec, len(cands), names)
	}
	f := cands[0]
	rel, err := filePath(f.URL)
	if err != nil {
		return Archive{}, fmt.Errorf("%s: %w", spec, err)
	}
	ref, err := url.Parse(f.URL)
	if err != nil {
		return Archive{}, fmt.Errorf("%s: parsing %q: %w", spec, f.URL, err)
	}
	prefix, err := x.stripPrefix(p.from.ResolveReference(ref).String())
	if err != nil {
		return Archive{}, fmt.Errorf("%s: %s: %w", spec, f.Filename, err)
	}
	return Archive{
		Package:     spec,
		URL:         filesHost + rel,
		SHA256:      f.Digests.SHA256,
		StripPrefix: prefix,
	}, nil
}

// isLinuxX86Wheel says whether filename is a wheel with a manylinux x86_64 platform tag.
func isLinuxX86Wheel(filename string) bool {
	stem, ok := strings.CutSuffix(filename, ".whl")
	if !ok {
		return false
	}
	parts := strings.Split(stem, "-")
	if len(parts) < 5 {
		return false
	}
	for _, tag := range strings.Split(parts[len(parts)-1], ".") {
		if strings.HasPrefix(tag, "manylinux") && strings.HasSuffix(tag, "_x86_64") {
			return true
		}
	}
	return false
}

// stripPrefix reads the central directory of the wheel at u and returns the one two-component
// directory ("nvidia/cu13") that all its files live under, leaving out *.dist-info/ and
// __init__.py files.
func (x *Index) stripPrefix(u string) (string, error) {
	r, err := openRemote(x.client, u)
	if err != nil {
		return "", err
	}
	zr, err := zip.NewReader(r, r.size)
	if err != nil {
		return "", fmt.Errorf("reading zip directory of %s: %w", u, err)
	}
	names := make([]string, len(zr.File))
	for i, f := range zr.File {
		names[i] = f.Name
	}
	return commonPrefix(names)
}

// commonPrefix returns the two-component directory that every wheel entry in names lives under.
func commonPrefix(names []string) (string, error) {
	seen := map[string]int{}
	for _, n := range names {
		if strings.HasSuffix(n, "/") || path.Base(n) == "__init__.py" {
			continue
		}
		parts := strings.Split(n, "/")
		if strings.HasSuffix(parts[0], ".dist-info") {
			continue
		}
		if len(parts) < 3 || parts[1] == "" {
			return "", fmt.Errorf("%q is not under a two-level directory", n)
		}
		seen[parts[0]+"/"+parts[1]]++
	}
	switch len(seen) {
	case 0:
		return "", errors.New("no files outside .dist-info and __init__.py")
	case 1:
		for p := range seen {
			return p, nil
		}
	}
	var all []string
	for p, n := range seen {
		all = append(all, fmt.Sprintf("%s (%d files)", p, n))
	}
	sort.Strings(all)
	return "", fmt.Errorf("files under several directories: %s", strings.Join(all, ", "))
}

// remoteFile is an io.ReaderAt over HTTP range requests, reading at least readAhead bytes at a
// time and keeping the last block read.
type remoteFile struct {
	client *http.Client
	url    string
	size   int64
	// buf holds the bytes from off on of the last read.
	off int64
	buf []byte
}

// openRemote returns a remoteFile for u, its size from a HEAD request's Content-Length.
func openRemote(client *http.Client, u string) (*remoteFile, error) {
	resp, err := client.Head(u)
	if err != nil {
		return nil, fmt.Errorf("HEAD %s: %w", u, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HEAD %s: %s", u, resp.Status)
	}
	if resp.ContentLength < 0 {
		return nil, fmt.Errorf("HEAD %s: no Content-Length", u)
	}
	// Read from where the redirects, if any, led.
	return &remoteFile{client: client, url: resp.Request.URL.String(), size: resp.ContentLength}, nil
}

// ReadAt implements io.ReaderAt.
func (r *remoteFile) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("read %s at %d: negative offset", r.url, off)
	}
	if off >= r.size {
		return 0, io.EOF
	}
	want := int64(len(p))
	if off+want > r.size {
		want = r.size - off
	}
	if off < r.off || off+want > r.off+int64(len(r.buf)) {
		n := max(want, readAhead)
		n = min(n, r.size-off)
		buf, err := r.fetch(off, n)
		if err != nil {
			return 0, err
		}
		r.off, r.buf = off, buf
	}
	copied := copy(p, r.buf[off-r.off:off-r.off+want])
	if copied < len(p) {
		return copied, io.EOF
	}
	return copied, nil
}

// fetch gets the n bytes at off with one range request.
func (r *remoteFile) fetch(off, n int64) ([]byte, error) {
	req, err := http.NewRequest(http.MethodGet, r.url, nil)
	if err != nil {
		return nil, fmt.Errorf("range request for %s: %w", r.url, err)
	}
	rng := "bytes=" + strconv.FormatInt(off, 10) + "-" + strconv.FormatInt(off+n-1, 10)
	req.Header.Set("Range", rng)
	resp, err := r.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("GET %s %s: %w", r.url, rng, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusPartialContent {
		// A 200 would be the whole file: do not read it.
		return nil, fmt.Errorf("GET %s %s: %s, want 206 Partial Content", r.url, rng, resp.Status)
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(resp.Body, buf); err != nil {
		return nil, fmt.Errorf("GET %s %s: reading body: %w", r.url, rng, err)
	}
	return buf, nil
}
