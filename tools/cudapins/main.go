// Command cudapins checks and extends the pinned CUDA toolkits of toolchains/versions.bzl against
// PyPI.
//
// Usage:
//
//	cudapins check [-versions toolchains/versions.bzl]
//	cudapins wheel [-platform linux_x86_64|linux_aarch64] NAME[==VERSION] [NAME[==VERSION] ...]
//	cudapins contents [-versions toolchains/versions.bzl] [-o gazelle/cuda/toolkit_files.txt]
//
// check parses CUDA_TOOLKITS in versions.bzl and, for every archive with a "package" key, looks the
// release up in PyPI's JSON API (https://pypi.org/pypi/<name>/json): one file of that release must
// have exactly the pinned sha256, its filename must be the basename of the pinned url, and its path
// under packages/ must be the pinned url's. It prints one line per archive (OK, MISMATCH, SKIP for
// archives without a package, such as NVIDIA's redist tarballs, or ERROR where the lookup failed)
// and exits 1 on any mismatch or lookup error.
//
// Archives of a toolkit's "components" are x86-64 ones; those of its "components_aarch64" are the
// target libraries of linux-aarch64 builds (NVIDIA's sbsa wheels, manylinux_*_aarch64), and check
// also says when such a wheel is not an aarch64 one. After the summary, for each toolkit with
// aarch64 archives, a NO-WHEEL line names each component pinned for x86-64 only that has no
// aarch64 wheel of that release on PyPI (informational). A pin of one of NVIDIA's placeholder releases
// (a ~1 KB py2.py3-none-any wheel with no files, what every "-cu13" name and every release 0.0.0a0
// is) is an ERROR that says so and what to ask for instead.
//
// wheel prints, for each release (a NAME alone: its newest final release with a wheel for the
// platform, versions compared as dotted numbers, so nvidia-cuda-cccl's 13.3.5.0.6 follows 13.2.86),
// the versions.bzl entry of its linux x86_64 manylinux wheel (with -platform linux_aarch64, its
// aarch64 one):
// package, url, sha256 and strip_prefix, the wheel's top two directories (e.g. "nvidia/cu13"),
// found by reading the wheel's zip central directory through HTTP range requests, so that adding
// a CUDA version does not download gigabytes of wheels.
//
// contents lists the files every pinned wheel puts under include/, lib/ and bin/ of its component
// (read from the wheels' zip central directories, as wheel does), per component and version, with
// the archives they came from, into gazelle/cuda/toolkit_files.txt: Gazelle's CUDA extension maps
// headers to @cuda targets from it, and tests check it against versions.bzl and the @cuda targets.
// Rerun it after changing versions.bzl.
//
// PYPI_URL overrides the index's base URL (default https://pypi.org). Under `bazel run`, a relative
// -versions path is taken from the workspace root.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
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
		fs := flag.NewFlagSet("wheel", flag.ContinueOnError)
		fs.SetOutput(stderr)
		platform := fs.String("platform", PlatformX86, "the wheels' platform: "+PlatformX86+" or "+PlatformAarch64+" (NVIDIA's sbsa wheels, for a toolkit's components_aarch64)")
		if err := fs.Parse(args[1:]); err != nil {
			return 2
		}
		if fs.NArg() == 0 {
			usage(stderr)
			return 2
		}
		status := 0
		for _, spec := range fs.Args() {
			if !strings.Contains(spec, "==") {
				v, err := index.Newest(spec, *platform)
				if err != nil {
					fmt.Fprintf(stderr, "cudapins wheel: %v\n", err)
					status = 1
					continue
				}
				spec += "==" + v
			}
			a, err := index.WheelFor(spec, *platform)
			if err != nil {
				fmt.Fprintf(stderr, "cudapins wheel: %v\n", err)
				status = 1
				continue
			}
			fmt.Fprint(stdout, a.Starlark())
		}
		return status
	case "contents":
		fs := flag.NewFlagSet("contents", flag.ContinueOnError)
		fs.SetOutput(stderr)
		versions := fs.String("versions", "toolchains/versions.bzl", "the versions.bzl to read")
		out := fs.String("o", contentsPath, "the contents file to write")
		if err := fs.Parse(args[1:]); err != nil {
			return 2
		}
		if fs.NArg() != 0 {
			fmt.Fprintf(stderr, "cudapins contents: unexpected arguments %q\n", fs.Args())
			return 2
		}
		if err := contents(index, workspacePath(*versions), workspacePath(*out), stderr); err != nil {
			fmt.Fprintf(stderr, "cudapins contents: %v\n", err)
			return 1
		}
		return 0
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
  cudapins wheel [-platform P] NAME[==VERSION] [...]    print versions.bzl entries for new wheels
                                                        (NAME alone: its newest final release)
                                                        (P: linux_x86_64, default, or linux_aarch64)
  cudapins contents [-versions F] [-o F]                list the pinned wheels' files (default -o
                                                        gazelle/cuda/toolkit_files.txt)
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

// contents writes the contents file of the versions.bzl at filename to out.
func contents(index *Index, filename, out string, progress io.Writer) error {
	data, err := os.ReadFile(filename)
	if err != nil {
		return fmt.Errorf("reading versions: %w", err)
	}
	archives, err := ParseVersions(filename, data)
	if err != nil {
		return err
	}
	var b strings.Builder
	if err := writeContents(index, archives, &b, progress); err != nil {
		return err
	}
	if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", out, err)
	}
	fmt.Fprintf(progress, "wrote %s (%d archives)\n", out, len(archives))
	return nil
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
	x86Only(index, archives, w)
	return nBad == 0 && nErr == 0, nil
}

// x86Only prints, for every toolkit with linux-aarch64 archives, which of the components it pins for
// x86-64 only have no aarch64 wheel of the same release on PyPI (NVIDIA ships some for x86-64 alone,
// or only as a placeholder): a NO-WHEEL line each, and a count of the others (host tools and
// headers, whose x86-64 archives serve linux-aarch64 builds too). Informational: nothing fails.
func x86Only(index *Index, archives []Archive, w io.Writer) {
	aarch64 := map[string]bool{} // version -> has aarch64 archives; version/component -> pinned
	for _, a := range archives {
		if a.Platform == PlatformAarch64 {
			aarch64[a.Version] = true
			aarch64[a.Version+"/"+a.Component] = true
		}
	}
	seen := map[string]bool{}
	withWheel := map[string]int{}
	var versions []string
	for _, a := range archives {
		key := a.Version + "/" + a.Component
		if a.Platform != PlatformX86 || !aarch64[a.Version] || aarch64[key] || seen[key] {
			continue
		}
		seen[key] = true
		if _, ok := withWheel[a.Version]; !ok {
			versions = append(versions, a.Version)
			withWheel[a.Version] = 0
		}
		if a.Package == "" {
			fmt.Fprintf(w, "NO-WHEEL %s %s %s: not a wheel (%s)\n", a.Version, a.Component, PlatformAarch64, path.Base(a.URL))
			continue
		}
		if _, _, err := index.platformWheel(a.Package, PlatformAarch64); err != nil {
			fmt.Fprintf(w, "NO-WHEEL %s %s %s: %v\n", a.Version, a.Component, PlatformAarch64, err)
			continue
		}
		withWheel[a.Version]++
	}
	for _, v := range versions {
		fmt.Fprintf(w, "%s: %d more components pinned for x86-64 only have a %s wheel on PyPI (host tools and headers: their x86-64 archives serve %s builds)\n",
			v, withWheel[v], PlatformAarch64, PlatformAarch64)
	}
}
