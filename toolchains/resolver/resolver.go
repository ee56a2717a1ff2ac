// Package resolver turns a TORCH_CUDA_ARCH_LIST value into nvcc -gencode flags
// with exactly the semantics of PyTorch 2.11's
// torch.utils.cpp_extension._get_cuda_arch_flags, and checks the result against
// what the local nvcc can build (a list of codes such as package
// github.com/rules-cuda-go/rules_cuda_go/toolchains/toolkit reads from nvcc).
//
// Semantics, as in PyTorch 2.11:
//
//   - An unset or empty value, or exactly "native", means the visible GPUs:
//     each GPU's compute capability, capped at the highest sm_ code of a
//     supported list, de-duplicated, sorted as strings (so "10.0" sorts before
//     "9.0"), and the last one gets +PTX.
//   - Otherwise spaces separate entries like ';' does, the named arches
//     (Kepler+Tesla, Kepler, ..., Blackwell+Tegra, Blackwell) are replaced by
//     their numeric lists, and every entry must be one of PyTorch's known arch
//     strings, each optionally with +PTX. X.Y[a] yields
//     -gencode=arch=compute_XY[a],code=sm_XY[a]; +PTX adds
//     -gencode=arch=compute_XY[a],code=compute_XY[a].
//   - The result is the sorted set of flags.
//
// Deliberate differences: empty entries (from leading, trailing or doubled
// separators) are ignored instead of rejected, and tabs, newlines, carriage
// returns, vertical tabs and form feeds separate entries like spaces do (the
// characters of Separators). Besides PyTorch's arches, the arches that the
// pinned CUDA toolkits build and PyTorch 2.11 does not know are accepted
// (ExtraArches: 8.8, 10.1, 10.7, their arch-specific "a" variants, and the
// family-specific "f" variants of 10.0 and later, e.g. 10.0f gives
// -gencode=arch=compute_100f,code=sm_100f). PyTorch rejects all of these;
// everything else PyTorch rejects is rejected here too.
package resolver

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Capability is a GPU compute capability such as 9.0.
type Capability struct {
	Major, Minor int
}

// String formats c the way PyTorch does, e.g. "9.0" or "12.1".
func (c Capability) String() string {
	return strconv.Itoa(c.Major) + "." + strconv.Itoa(c.Minor)
}

func (c Capability) less(d Capability) bool {
	return c.Major < d.Major || (c.Major == d.Major && c.Minor < d.Minor)
}

// ParseCapability parses a compute capability written as MAJOR.MINOR, the
// form printed by `nvidia-smi --query-gpu=compute_cap --format=csv,noheader`
// (e.g. "9.0" or "12.1"). Surrounding whitespace is ignored.
func ParseCapability(s string) (Capability, error) {
	t := strings.TrimSpace(s)
	major, minor, ok := strings.Cut(t, ".")
	if ok {
		ma, err1 := parseSmallUint(major)
		mi, err2 := parseSmallUint(minor)
		if err1 == nil && err2 == nil {
			return Capability{ma, mi}, nil
		}
	}
	return Capability{}, fmt.Errorf("invalid compute capability %q: want MAJOR.MINOR, e.g. \"9.0\"", s)
}

// parseSmallUint parses 1 to 3 ASCII digits.
func parseSmallUint(s string) (int, error) {
	if len(s) == 0 || len(s) > 3 {
		return 0, strconv.ErrSyntax
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, strconv.ErrSyntax
		}
	}
	return strconv.Atoi(s)
}

// Options says what Resolve may use besides the spec. The zero value
// validates exactly like PyTorch 2.11 and fails in native mode (no GPUs).
type Options struct {
	// Supported lists the codes the local nvcc can build, as printed by
	// `nvcc --list-gpu-code` and/or `nvcc --list-gpu-arch` (e.g. "sm_80",
	// "compute_90"; see toolkit.ParseGPUCodeList), followed by the
	// arch-specific (sm_90a) and family-specific (sm_100f) codes it accepts,
	// which nvcc does not list (toolkit.ProbeVariants finds them). When
	// non-nil, an entry whose sm_ code, or for +PTX whose compute_ code, the
	// nvcc lacks is an error. When the list has no compute_ codes at all, PTX
	// support is derived from the sm_ codes (and, for a list of compute_
	// codes only, the other way round). A list without any arch-specific
	// code counts sm_XYa as supported when sm_XY is; the one exception is
	// sm_90a, which CUDA 11.8 lacks although it has sm_90 (11.8 is recognised
	// as the only nvcc listing sm_90 together with Kepler's sm_35 or sm_37,
	// or their compute_ codes). A list without any family-specific code
	// counts sm_XYf (XY >= 100) as supported when sm_XY is and the list has
	// sm_103, which came with CUDA 12.9 as the family-specific codes did.
	// When nil, every arch PyTorch 2.11 knows, and every extra arch
	// (ExtraArches), is accepted.
	Supported []string

	// GPUs are the compute capabilities of the visible GPUs, used only when
	// the spec is unset, empty or "native".
	GPUs []Capability

	// Toolkit names the toolkit whose codes Supported lists, e.g. "CUDA 13.5
	// (nvcc 13.5.37)", for error messages; "" reads "this nvcc".
	Toolkit string

	// ClampTo, when non-nil, replaces Supported as the list whose highest
	// sm_ code caps each GPU's capability in native mode. PyTorch caps with
	// torch.cuda.get_arch_list() (the arches PyTorch itself was built for),
	// and never validates against that list; set ClampTo to it to reproduce
	// PyTorch exactly. A ClampTo without sm_ codes caps nothing (PyTorch
	// would fail on it); a Supported list without sm_ codes caps with its
	// highest compute_ code. ClampTo is never used for validation.
	ClampTo []string
}

// namedArches are PyTorch 2.11's named arches, in its substitution order:
// combined names come before the single names they contain.
var namedArches = []struct{ name, value string }{
	{"Kepler+Tesla", "3.7"},
	{"Kepler", "3.5+PTX"},
	{"Maxwell+Tegra", "5.3"},
	{"Maxwell", "5.0;5.2+PTX"},
	{"Pascal", "6.0;6.1+PTX"},
	{"Volta+Tegra", "7.2"},
	{"Volta", "7.0+PTX"},
	{"Turing", "7.5+PTX"},
	{"Ampere+Tegra", "8.7"},
	{"Ampere", "8.0;8.6+PTX"},
	{"Ada", "8.9+PTX"},
	{"Hopper", "9.0+PTX"},
	{"Blackwell+Tegra", "11.0"},
	{"Blackwell", "10.0;10.3;12.0;12.1+PTX"},
}

// knownArches are PyTorch 2.11's supported_arches, in its order.
var knownArches = []string{"3.5", "3.7", "5.0", "5.2", "5.3", "6.0", "6.1", "6.2",
	"7.0", "7.2", "7.5", "8.0", "8.6", "8.7", "8.9", "9.0", "9.0a",
	"10.0", "10.0a", "11.0", "11.0a", "10.3", "10.3a", "12.0",
	"12.0a", "12.1", "12.1a"}

// ExtraArches are the arches, beyond PyTorch 2.11's, that the nvcc of a
// pinned CUDA toolkit builds (toolchains/versions.bzl): sm_88 (CUDA 13.0 and
// later), sm_101 (CUDA 12.9; CUDA 13 renamed it sm_110), sm_107 (CUDA 13.5),
// the arch-specific variants of the last two, and the family-specific
// variants ("f", CUDA 12.9 and later) of every arch from 10.0 on. X.Yf
// builds code that also runs on the later GPUs of X.Y's family (10.0f on
// 10.0 and 10.3 GPUs). As for PyTorch's arches, Options.Supported decides
// whether the toolkit at hand can build them.
var ExtraArches = []string{"8.8", "10.1", "10.1a", "10.7", "10.7a",
	"10.0f", "10.1f", "10.3f", "10.7f", "11.0f", "12.0f", "12.1f"}

const ptxSuffix = "+PTX"

// validArch reports whether s is one of PyTorch's valid_arch_strings or an
// extra arch (ExtraArches), optionally with +PTX.
func validArch(s string) bool {
	s = strings.TrimSuffix(s, ptxSuffix)
	for _, a := range knownArches {
		if s == a {
			return true
		}
	}
	for _, a := range ExtraArches {
		if s == a {
			return true
		}
	}
	return false
}

// accepted describes, on one line, what a TORCH_CUDA_ARCH_LIST may contain.
// Error messages and BzlTable's ACCEPTED use it.
var accepted = func() string {
	names := make([]string, len(namedArches))
	for i, n := range namedArches {
		names[i] = n.name
	}
	return "entries separated by ';' or spaces, each one of " + strings.Join(knownArches, " ") +
		" " + strings.Join(ExtraArches, " ") +
		" optionally followed by +PTX, or a named arch (" + strings.Join(names, ", ") +
		"); or \"native\" alone (or an unset/empty list) for the visible GPUs"
}()

// Separators are the characters that separate the entries of a spec: ';' and
// ASCII whitespace (space, tab, newline, carriage return, vertical tab, form
// feed). PyTorch itself only knows ';' and ' '. BzlTable writes them to the
// generated Starlark as SEPARATORS, so that Bazel splits specs the same way.
const Separators = "; \t\n\r\v\f"

// isSep reports whether r is one of Separators.
func isSep(r rune) bool {
	return strings.ContainsRune(Separators, r)
}

// tokens splits a spec into the pieces between separators, dropping empty
// ones.
func tokens(spec string) []string {
	return strings.FieldsFunc(spec, isSep)
}

// expand applies PyTorch's named-arch substitution to one token.
//
// PyTorch substitutes on the whole string (after turning spaces into ';')
// and only then splits on ';'. Doing it per token gives the same result,
// because no substitution ever crosses a separator:
//
//   - no name contains ';' or whitespace, so a match in the original text
//     lies inside one token;
//   - text inserted by an earlier substitution never takes part in a later
//     match: every inserted text starts with a digit and no name contains a
//     digit, so no match can begin before it and run into it; and no match
//     can begin inside it, because its only other characters are '.', ';',
//     '+' and the letters of "PTX", and the only names starting with P or T
//     (Pascal, Turing) continue with a lower-case letter.
//
// So the matches in the whole string are exactly those of each token, and
// the original text on either side of a replaced match never becomes
// adjacent (replacements are never empty).
func expand(token string) string {
	for _, n := range namedArches {
		token = strings.ReplaceAll(token, n.name, n.value)
	}
	return token
}

// archNum returns "XY[a|f]" for a valid arch "X.Y[a|f][+PTX]".
func archNum(arch string) string {
	v := strings.TrimSuffix(arch, ptxSuffix)
	major, minor, _ := strings.Cut(v, ".")
	return major + minor
}

// archFlags returns the flags for one valid arch string.
func archFlags(arch string) []string {
	num := archNum(arch)
	flags := []string{"-gencode=arch=compute_" + num + ",code=sm_" + num}
	if strings.HasSuffix(arch, ptxSuffix) {
		flags = append(flags, "-gencode=arch=compute_"+num+",code=compute_"+num)
	}
	return flags
}

// ExplainRow shows how one entry of a spec resolves.
type ExplainRow struct {
	// Entry is the entry as written; "native" for native mode.
	Entry string
	// Arches are the arch strings it stands for (after named-arch
	// substitution, or derived from the GPUs in native mode).
	Arches []string
	// Flags are its -gencode flags, sorted and de-duplicated.
	Flags []string
}

// Resolve returns the nvcc -gencode flags for a TORCH_CUDA_ARCH_LIST value,
// sorted and de-duplicated, exactly as PyTorch 2.11 computes them, or a
// *SpecError.
func Resolve(spec string, opt Options) ([]string, error) {
	rows, err := Explain(spec, opt)
	if err != nil {
		return nil, err
	}
	var flags []string
	for _, r := range rows {
		flags = append(flags, r.Flags...)
	}
	return sortedSet(flags), nil
}

// Explain resolves spec like Resolve and returns one row per entry as the
// user wrote it (one row named "native" in native mode).
func Explain(spec string, opt Options) ([]ExplainRow, error) {
	toks := tokens(spec)
	if spec == "" || (len(toks) == 1 && toks[0] == "native") {
		return explainNative(spec, opt)
	}
	if len(toks) == 0 {
		return nil, &SpecError{Kind: ErrEmpty, Spec: spec}
	}
	rows := make([]ExplainRow, 0, len(toks))
	for _, tok := range toks {
		exp := expand(tok)
		arches := strings.Split(exp, ";")
		for _, a := range arches {
			if !validArch(a) {
				e := &SpecError{Kind: ErrUnknownArch, Spec: spec, Entry: tok, Arch: a}
				if exp != tok {
					e.Expanded = exp
				}
				return nil, e
			}
		}
		rows = append(rows, ExplainRow{Entry: tok, Arches: arches})
	}
	return finishRows(spec, false, rows, opt)
}

func explainNative(spec string, opt Options) ([]ExplainRow, error) {
	if len(opt.GPUs) == 0 {
		return nil, &SpecError{Kind: ErrNoGPUs, Spec: spec, Native: true}
	}
	clampList := opt.ClampTo
	if clampList == nil {
		clampList = opt.Supported
	}
	limit, hasLimit := maxCapability(clampList, "sm_")
	if !hasLimit && opt.ClampTo == nil {
		// A Supported list from `nvcc --list-gpu-arch` alone.
		limit, hasLimit = maxCapability(clampList, "compute_")
	}
	var arches []string
	seen := map[string]bool{}
	for _, c := range opt.GPUs {
		if hasLimit && limit.less(c) {
			c = limit
		}
		a := c.String()
		if !seen[a] {
			seen[a] = true
			arches = append(arches, a)
		}
	}
	sort.Strings(arches)
	arches[len(arches)-1] += ptxSuffix
	for _, a := range arches {
		if !validArch(a) {
			return nil, &SpecError{Kind: ErrUnknownArch, Spec: spec, Native: true, Entry: a, Arch: a}
		}
	}
	return finishRows(spec, true, []ExplainRow{{Entry: "native", Arches: arches}}, opt)
}

// finishRows checks the (valid) arches against opt.Supported and fills in
// the flags.
func finishRows(spec string, native bool, rows []ExplainRow, opt Options) ([]ExplainRow, error) {
	sup := newSupport(opt.Supported)
	for i := range rows {
		var flags []string
		for _, a := range rows[i].Arches {
			if sup != nil {
				if missing := sup.missing(a); len(missing) > 0 {
					e := &SpecError{Kind: ErrUnsupported, Spec: spec, Native: native,
						Entry: rows[i].Entry, Arch: a, Missing: missing, Supported: sup.list, Toolkit: opt.Toolkit}
					if native {
						e.Entry = a
					} else if exp := strings.Join(rows[i].Arches, ";"); exp != rows[i].Entry {
						e.Expanded = exp
					}
					return nil, e
				}
			}
			flags = append(flags, archFlags(a)...)
		}
		rows[i].Flags = sortedSet(flags)
	}
	return rows, nil
}

// maxCapability returns the highest capability among the list's codes
// containing kind ("sm_" or "compute_"), computed like PyTorch: n = the
// digits after the first '_' (sm_90a -> 90), and the capability is
// (n/10, n%10).
func maxCapability(list []string, kind string) (Capability, bool) {
	var best Capability
	found := false
	for _, code := range list {
		if !strings.Contains(code, kind) {
			continue
		}
		parts := strings.Split(code, "_")
		var digits []byte
		for i := 0; i < len(parts[1]); i++ {
			if c := parts[1][i]; c >= '0' && c <= '9' {
				digits = append(digits, c)
			}
		}
		if len(digits) == 0 || len(digits) > 6 {
			continue
		}
		n, _ := strconv.Atoi(string(digits))
		c := Capability{n / 10, n % 10}
		if !found || best.less(c) {
			best, found = c, true
		}
	}
	return best, found
}

func sortedSet(in []string) []string {
	out := append([]string(nil), in...)
	sort.Strings(out)
	n := 0
	for i, s := range out {
		if i == 0 || s != out[n-1] {
			out[n] = s
			n++
		}
	}
	return out[:n]
}
