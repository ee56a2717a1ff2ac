package toolkit

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// NvccNotFoundError is returned by FindNvcc when no nvcc was found.
type NvccNotFoundError struct {
	// Searched are the paths tried, in order.
	Searched []string
	// Unset are the environment variables (CUDA_PATH, CUDA_HOME, PATH) that
	// were unset or empty.
	Unset []string
}

// Error lists the paths searched and says how to fix it, on one line.
func (e *NvccNotFoundError) Error() string {
	msg := "nvcc not found; searched " + strings.Join(e.Searched, ", ")
	if len(e.Unset) > 0 {
		msg += " (" + strings.Join(e.Unset, ", ") + " unset)"
	}
	return msg + "; install the CUDA toolkit (NVIDIA's installer, or e.g. apt install nvidia-cuda-toolkit) or set CUDA_PATH to the toolkit root (the directory containing bin/nvcc)"
}

// FindNvcc looks for nvcc in this order: $CUDA_PATH/bin/nvcc,
// $CUDA_HOME/bin/nvcc, nvcc in each directory of $PATH (empty entries are
// skipped), /usr/local/cuda/bin/nvcc, and Debian's
// /usr/lib/nvidia-cuda-toolkit/bin/nvcc (Debian's /usr/bin/nvcc is found
// through $PATH). env reads an environment variable (nil: os.Getenv);
// isExecutable reports whether a path is an executable file (nil: a regular
// file with an execute bit). It returns the first hit and the paths tried up
// to and including it, or a *NvccNotFoundError listing every path tried.
func FindNvcc(env func(string) string, isExecutable func(string) bool) (path string, searched []string, err error) {
	return findNvcc(env, isExecutable, systemLayout.nvccFallbacks)
}

// findNvcc is FindNvcc with the paths tried after $PATH given.
func findNvcc(env func(string) string, isExecutable func(string) bool, fallbacks []string) (path string, searched []string, err error) {
	if env == nil {
		env = os.Getenv
	}
	if isExecutable == nil {
		isExecutable = defaultIsExecutable
	}
	var candidates, unset []string
	for _, v := range []string{"CUDA_PATH", "CUDA_HOME"} {
		if root := env(v); root != "" {
			candidates = append(candidates, filepath.Join(root, "bin", "nvcc"))
		} else {
			unset = append(unset, v)
		}
	}
	if p := env("PATH"); p != "" {
		for _, dir := range filepath.SplitList(p) {
			if dir != "" {
				candidates = append(candidates, filepath.Join(dir, "nvcc"))
			}
		}
	} else {
		unset = append(unset, "PATH")
	}
	candidates = append(candidates, fallbacks...)
	seen := map[string]bool{}
	for _, c := range candidates {
		if seen[c] {
			continue
		}
		seen[c] = true
		searched = append(searched, c)
		if isExecutable(c) {
			return c, searched, nil
		}
	}
	return "", searched, &NvccNotFoundError{Searched: searched, Unset: unset}
}

func defaultIsExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// Version is a CUDA toolkit version such as 13.0.88.
type Version struct {
	Major, Minor, Patch int
}

// String formats v as MAJOR.MINOR.PATCH.
func (v Version) String() string {
	return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch)
}

var (
	releaseFullRE = regexp.MustCompile(`release ([0-9]{1,4})\.([0-9]{1,4}), V([0-9]{1,4})\.([0-9]{1,4})\.([0-9]{1,6})\b`)
	releaseRE     = regexp.MustCompile(`release ([0-9]{1,4})\.([0-9]{1,4})\b`)
)

// ParseNvccVersion reads the version from `nvcc --version` output, i.e. from
// its line "Cuda compilation tools, release 13.0, V13.0.88" (Patch is 0 if
// the V part is missing).
func ParseNvccVersion(out string) (Version, error) {
	atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }
	if m := releaseFullRE.FindStringSubmatch(out); m != nil {
		v := Version{atoi(m[3]), atoi(m[4]), atoi(m[5])}
		if atoi(m[1]) != v.Major || atoi(m[2]) != v.Minor {
			return Version{}, fmt.Errorf("inconsistent nvcc --version output: release %s.%s but V%s.%s.%s", m[1], m[2], m[3], m[4], m[5])
		}
		return v, nil
	}
	if m := releaseRE.FindStringSubmatch(out); m != nil && strings.Contains(out, "Cuda compilation tools") {
		return Version{atoi(m[1]), atoi(m[2]), 0}, nil
	}
	return Version{}, fmt.Errorf("no \"Cuda compilation tools, release X.Y, VX.Y.Z\" line in nvcc --version output %s", quoteShort(out))
}

var codeRE = regexp.MustCompile(`^(sm|compute|lto)_[0-9]{2,4}[af]?$`)

// ParseGPUCodeList parses the output of `nvcc --list-gpu-code` (sm_75 ...),
// `nvcc --list-gpu-arch` (compute_75 ...), both concatenated, or of both
// options at once (arch=compute_75,code=sm_75 ...). Codes may be separated
// by newlines, spaces or commas. It returns the codes in order, without
// duplicates, and fails on anything else (such as nvcc's "Unknown option"
// from a CUDA too old for these options) or on an empty list.
func ParseGPUCodeList(out string) ([]string, error) {
	fields := strings.FieldsFunc(out, func(r rune) bool {
		return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r'
	})
	var codes []string
	seen := map[string]bool{}
	for _, f := range fields {
		c := f
		if rest, ok := strings.CutPrefix(c, "arch="); ok {
			c = rest
		} else if rest, ok := strings.CutPrefix(c, "code="); ok {
			c = rest
		}
		if !codeRE.MatchString(c) {
			return nil, fmt.Errorf("unexpected %s in nvcc GPU code list (want codes like sm_80 or compute_90, as printed by nvcc --list-gpu-code or --list-gpu-arch)", quoteShort(f))
		}
		if !seen[c] {
			seen[c] = true
			codes = append(codes, c)
		}
	}
	if len(codes) == 0 {
		return nil, fmt.Errorf("empty nvcc GPU code list %s", quoteShort(out))
	}
	return codes, nil
}

func quoteShort(s string) string {
	const max = 120
	if len(s) > max {
		return strconv.Quote(s[:max]) + "..."
	}
	return strconv.Quote(s)
}

// knownSM lists the sm_ codes of nvcc releases, per MAJOR.MINOR. Sources:
// clang's per-arch CUDA version limits (sm_20/21 until 8.0, sm_72 from 9.1,
// sm_75 from 10.0, sm_30/32 until 10.2, sm_80 from 11.0, sm_86 from 11.1,
// sm_87 from 11.4, sm_89/90 from 11.8, sm_35/37 until 11.8), agreeing with
// CMake's tables and with the recorded `nvcc --list-gpu-code` of 11.8.
var knownSM = func() map[[2]int][]int {
	m := map[[2]int][]int{}
	set := func(sm []int, versions ...[2]int) {
		for _, v := range versions {
			m[v] = sm
		}
	}
	set([]int{20, 21, 30, 32, 35, 37, 50, 52, 53, 60, 61, 62}, [2]int{8, 0})
	set([]int{30, 32, 35, 37, 50, 52, 53, 60, 61, 62, 70}, [2]int{9, 0})
	set([]int{30, 32, 35, 37, 50, 52, 53, 60, 61, 62, 70, 72}, [2]int{9, 1}, [2]int{9, 2})
	set([]int{30, 32, 35, 37, 50, 52, 53, 60, 61, 62, 70, 72, 75}, [2]int{10, 0}, [2]int{10, 1}, [2]int{10, 2})
	set([]int{35, 37, 50, 52, 53, 60, 61, 62, 70, 72, 75, 80}, [2]int{11, 0})
	set([]int{35, 37, 50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86}, [2]int{11, 1}, [2]int{11, 2}, [2]int{11, 3})
	set([]int{35, 37, 50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87}, [2]int{11, 4}, [2]int{11, 5}, [2]int{11, 6}, [2]int{11, 7})
	set([]int{35, 37, 50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90}, [2]int{11, 8})
	return m
}()

// KnownGPUCodes returns the codes an nvcc of version v supports, sm_ codes
// followed by compute_ codes like `nvcc --list-gpu-code` followed by
// `nvcc --list-gpu-arch`, for the releases 8.0 to 11.8, for use when nvcc
// cannot answer --list-gpu-code (the option is missing from old releases;
// 11.8 has it, and the table covers all 11.x in case early ones do not). It
// returns false for other versions (ask nvcc). sm_21 has no compute_21: it
// is built from compute_20.
func KnownGPUCodes(v Version) ([]string, bool) {
	sm, ok := knownSM[[2]int{v.Major, v.Minor}]
	if !ok {
		return nil, false
	}
	var codes []string
	for _, n := range sm {
		codes = append(codes, "sm_"+strconv.Itoa(n))
	}
	for _, n := range sm {
		if n != 21 {
			codes = append(codes, "compute_"+strconv.Itoa(n))
		}
	}
	return codes, true
}

// VariantCandidates returns the arch-specific (sm_XYa) and family-specific
// (sm_XYf) codes that may exist beside the sm_ codes of codes: sm_XYa for
// XY >= 90 and sm_XYf for XY >= 100, the arches NVIDIA defines them for
// (sm_90a since CUDA 12.0, the f variants since 12.9). nvcc --list-gpu-code
// lists none of them; ProbeVariants asks nvcc which it accepts.
func VariantCandidates(codes []string) []string {
	var out []string
	for _, c := range codes {
		num, ok := strings.CutPrefix(c, "sm_")
		if !ok {
			continue
		}
		n, err := strconv.Atoi(num)
		if err != nil {
			continue // already a variant
		}
		if n >= 90 {
			out = append(out, c+"a")
		}
		if n >= 100 {
			out = append(out, c+"f")
		}
	}
	return out
}

// ProbeVariants returns the codes of VariantCandidates(codes) that the nvcc at
// path accepts, in that order: each is asked of nvcc with --dryrun, which
// checks the -gencode option and compiles nothing. A candidate nvcc rejects
// (or a run that fails otherwise) is left out.
func ProbeVariants(path string, codes []string) []string {
	var out []string
	for _, c := range VariantCandidates(codes) {
		num := strings.TrimPrefix(c, "sm_")
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		err := exec.CommandContext(ctx, path, "--dryrun", "-gencode=arch=compute_"+num+",code="+c,
			"-x", "cu", "-c", os.DevNull, "-o", os.DevNull).Run()
		cancel()
		if err == nil {
			out = append(out, c)
		}
	}
	return out
}
