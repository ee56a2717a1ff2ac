package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// placeholderMaxSize bounds the wheels taken for NVIDIA's placeholders: for some names (every CUDA 13
// package with a "-cu13" suffix, and every CUDA package's release 0.0.0a0) NVIDIA publishes a
// py2.py3-none-any wheel of about 1 KB that holds no files, so that pip fails with a message
// instead of building from source. The smallest real CUDA wheel (a header or a link stub) is over
// 15 KB.
const placeholderMaxSize = 8 << 10

// isPlaceholder says whether f is one of NVIDIA's placeholder files: a platform-independent wheel
// (or an sdist) of a few KB, with no CUDA files in it.
func isPlaceholder(f pypiFile) bool {
	small := f.Size > 0 && f.Size <= placeholderMaxSize
	return small && (strings.HasSuffix(f.Filename, "-none-any.whl") || strings.HasSuffix(f.Filename, ".tar.gz"))
}

// placeholderRelease says whether every file of a release is a placeholder.
func placeholderRelease(files []pypiFile) bool {
	for _, f := range files {
		if !isPlaceholder(f) {
			return false
		}
	}
	return len(files) > 0
}

// placeholderError explains a placeholder release of name and says what to ask for instead: for a
// CUDA 13 name with the "-cu13" suffix, the name without it (CUDA 13's packages have none); else
// the project's newest real releases.
func (x *Index) placeholderError(name, version string, files []pypiFile) error {
	msg := fmt.Sprintf("%s==%s is one of NVIDIA's placeholder releases (%s: %d bytes, no CUDA files), not a CUDA component",
		name, version, files[0].Filename, files[0].Size)
	if base, ok := strings.CutSuffix(normalize(name), "-cu13"); ok {
		return fmt.Errorf("%s; CUDA 13's packages are named without the -cu13 suffix: ask for %s", msg, base)
	}
	if real := x.realReleases(name); len(real) > 0 {
		if len(real) > 5 {
			real = real[len(real)-5:]
		}
		return fmt.Errorf("%s; its newest real releases: %s", msg, strings.Join(real, ", "))
	}
	return fmt.Errorf("%s, and %s has no real release", msg, name)
}

// realReleases returns the releases of name that are not placeholders, oldest first (by
// compareVersions), pre-releases included.
func (x *Index) realReleases(name string) []string {
	p, err := x.project(name)
	if err != nil {
		return nil
	}
	var vs []string
	for v, files := range p.Releases {
		if len(files) > 0 && !placeholderRelease(files) {
			vs = append(vs, v)
		}
	}
	sort.Slice(vs, func(i, j int) bool { return compareVersions(vs[i], vs[j]) < 0 })
	return vs
}

// Newest returns the newest final release of name (no pre-release, no placeholder) that has a
// manylinux wheel for platform. NVIDIA's version numbers are compared as dotted numbers of any
// length: nvidia-cuda-cccl's 13.3.5.0.6 (CUDA 13, CCCL 3.5) is newer than 13.2.86, and cuBLAS's
// 13.10.0.20 newer than 13.4.1.3.
func (x *Index) Newest(name, platform string) (string, error) {
	arch, ok := wheelArch[platform]
	if !ok {
		return "", fmt.Errorf("unknown platform %q (want %s or %s)", platform, PlatformX86, PlatformAarch64)
	}
	p, err := x.project(name)
	if err != nil {
		return "", err
	}
	real := x.realReleases(name)
	for i := len(real) - 1; i >= 0; i-- {
		v := real[i]
		if isPreRelease(v) {
			continue
		}
		for _, f := range p.Releases[v] {
			if isLinuxWheel(f.Filename, arch) && !f.Yanked {
				return v, nil
			}
		}
	}
	if len(real) == 0 {
		if base, ok := strings.CutSuffix(normalize(name), "-cu13"); ok {
			return "", fmt.Errorf("%s has only NVIDIA's placeholder releases; CUDA 13's packages are named without the -cu13 suffix: ask for %s", name, base)
		}
		return "", fmt.Errorf("%s has only NVIDIA's placeholder releases, no real one", name)
	}
	return "", fmt.Errorf("no final release of %s has a manylinux %s wheel (%s): NVIDIA ships this component for %s only in pre-releases or not at all",
		name, arch, platform, platform)
}

// isPreRelease says whether a PEP 440 version has a pre-release or development part (13.4.46rc1,
// 0.0.0a0, 0.0.1.dev4): anything but digits and dots.
func isPreRelease(v string) bool {
	return strings.ContainsFunc(v, func(r rune) bool { return r != '.' && (r < '0' || r > '9') })
}

// compareVersions orders dotted versions by their numbers, part by part (a missing part is 0); a
// part's trailing non-digits (rc1, a0, dev4) order a pre-release before the release it precedes.
func compareVersions(a, b string) int {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(pa) || i < len(pb); i++ {
		na, ra := versionPart(pa, i)
		nb, rb := versionPart(pb, i)
		if na != nb {
			if na < nb {
				return -1
			}
			return 1
		}
		if ra != rb {
			// "" (a final release) sorts after any pre-release suffix.
			switch {
			case ra == "":
				return 1
			case rb == "":
				return -1
			case ra < rb:
				return -1
			default:
				return 1
			}
		}
	}
	return 0
}

// versionPart splits part i of a split version into its leading number and the rest.
func versionPart(parts []string, i int) (int, string) {
	if i >= len(parts) {
		return 0, ""
	}
	s := parts[i]
	j := 0
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	n, _ := strconv.Atoi(s[:j])
	return n, s[j:]
}
