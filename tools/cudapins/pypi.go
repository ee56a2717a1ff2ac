package main

import (
	"archive/zip"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"sort"
	"strings"
)

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
	if placeholderRelease(files) {
		return nil, nil, x.placeholderError(name, version, files)
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
	if arch, ok := wheelArch[a.Platform]; ok && strings.HasSuffix(match.Filename, ".whl") && !isLinuxWheel(match.Filename, arch) {
		problems = append(problems, fmt.Sprintf("%s is not a manylinux %s wheel, which %s needs", match.Filename, arch, a.Platform))
	}
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

// The platforms an archive of versions.bzl is for (Archive.Platform), named as rules_cuda_go's
// //platforms targets are, and the manylinux tag suffix of their wheels.
const (
	PlatformX86     = "linux_x86_64"
	PlatformAarch64 = "linux_aarch64"
)

// wheelArch is the manylinux platform tag's architecture of each platform.
var wheelArch = map[string]string{PlatformX86: "x86_64", PlatformAarch64: "aarch64"}

// Wheel returns the versions.bzl archive of the linux x86_64 manylinux wheel of spec
// ("name==version").
func (x *Index) Wheel(spec string) (Archive, error) {
	return x.WheelFor(spec, PlatformX86)
}

// WheelFor returns the versions.bzl archive of the manylinux wheel of spec ("name==version") for
// platform (PlatformX86 or PlatformAarch64: NVIDIA's aarch64 wheels are the sbsa ones).
func (x *Index) WheelFor(spec, platform string) (Archive, error) {
	f, p, err := x.platformWheel(spec, platform)
	if err != nil {
		return Archive{}, err
	}
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
		Platform:    platform,
	}, nil
}

// platformWheel returns the one manylinux wheel of spec ("name==version") for platform, and its
// project, from the index's JSON alone (no wheel is read).
func (x *Index) platformWheel(spec, platform string) (pypiFile, *project, error) {
	arch, ok := wheelArch[platform]
	if !ok {
		return pypiFile{}, nil, fmt.Errorf("unknown platform %q (want %s or %s)", platform, PlatformX86, PlatformAarch64)
	}
	name, version, err := splitSpec(spec)
	if err != nil {
		return pypiFile{}, nil, err
	}
	files, p, err := x.release(name, version)
	if err != nil {
		return pypiFile{}, nil, err
	}
	var cands []pypiFile
	for _, f := range files {
		if isLinuxWheel(f.Filename, arch) && !f.Yanked {
			cands = append(cands, f)
		}
	}
	if len(cands) != 1 {
		var names []string
		for _, f := range files {
			names = append(names, f.Filename)
		}
		if len(cands) == 0 {
			return pypiFile{}, nil, fmt.Errorf("%s has no real wheel for %s (no manylinux %s wheel among %q)", spec, platform, arch, names)
		}
		return pypiFile{}, nil, fmt.Errorf("%s: want one manylinux %s wheel, found %d among %q", spec, arch, len(cands), names)
	}
	return cands[0], p, nil
}

// isLinuxX86Wheel says whether filename is a wheel with a manylinux x86_64 platform tag.
func isLinuxX86Wheel(filename string) bool {
	return isLinuxWheel(filename, "x86_64")
}

// isLinuxWheel says whether filename is a wheel with a manylinux platform tag for arch (x86_64,
// aarch64).
func isLinuxWheel(filename, arch string) bool {
	stem, ok := strings.CutSuffix(filename, ".whl")
	if !ok {
		return false
	}
	parts := strings.Split(stem, "-")
	if len(parts) < 5 {
		return false
	}
	for _, tag := range strings.Split(parts[len(parts)-1], ".") {
		if strings.HasPrefix(tag, "manylinux") && strings.HasSuffix(tag, "_"+arch) {
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
