package resolver

import (
	"errors"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/toolchains/toolkit"
)

var flagRE = regexp.MustCompile(`^-gencode=arch=compute_([0-9]{2,3}[af]?),code=(sm|compute)_([0-9]{2,3}[af]?)$`)

var (
	fuzzSetupOnce sync.Once
	fuzzLists     [][]string
	fuzzTables    []bzlParsed
)

func fuzzSetup(t *testing.T) {
	fuzzSetupOnce.Do(func() {
		fuzzLists = [][]string{nil, readCodes(t, "nvcc13_list_gpu_code.txt"), readCodes(t, "nvcc118_list_gpu_code_and_arch.txt"), readCodes(t, "nvcc118_list_gpu_arch.txt"), pinned135}
		for _, l := range fuzzLists {
			fuzzTables = append(fuzzTables, parseBzl(t, BzlTable(Options{Supported: l})))
		}
	})
}

// FuzzResolve checks, for arbitrary specs: no panic; errors are one-line
// *SpecErrors; results are sorted, de-duplicated and well-formed; the
// result is the union of each token's own result; it agrees with the
// PyTorch transliteration torchRef on the spec without noise; and with the
// BzlTable token table.
func FuzzResolve(f *testing.F) {
	for _, r := range loadGolden(f) {
		if r.Spec != nil {
			f.Add(*r.Spec, uint8(0), uint8(0))
		}
	}
	for _, s := range []string{"Blackwell+Tegraa+PTX", "KeplerMaxwell", " native ;", "9.0a", "Ampere+Tegra+PTX;\t10.0a", "3.5", "12.1+PTX"} {
		f.Add(s, uint8(1), uint8(2))
		f.Add(s, uint8(2), uint8(5))
	}
	f.Fuzz(func(t *testing.T, spec string, listSel, gpuSel uint8) {
		fuzzSetup(t)
		li := int(listSel) % len(fuzzLists)
		opt := Options{Supported: fuzzLists[li]}
		allGPUs := []Capability{{9, 0}, {8, 6}, {12, 0}, {7, 0}, {10, 0}, {3, 0}, {12, 1}, {8, 9}}
		for i, g := range allGPUs {
			if gpuSel&(1<<i) != 0 {
				opt.GPUs = append(opt.GPUs, g)
			}
		}
		got, err := Resolve(spec, opt)
		if err != nil {
			var se *SpecError
			if !errors.As(err, &se) {
				t.Fatalf("Resolve(%q): %T %v, want *SpecError", spec, err, err)
			}
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("Resolve(%q): multi-line error %q", spec, err)
			}
		} else {
			if len(got) == 0 {
				t.Fatalf("Resolve(%q) = no flags and no error", spec)
			}
			if !sort.StringsAreSorted(got) {
				t.Fatalf("Resolve(%q) = %q, not sorted", spec, got)
			}
			for i, fl := range got {
				if i > 0 && fl == got[i-1] {
					t.Fatalf("Resolve(%q) = %q, duplicate %q", spec, got, fl)
				}
				m := flagRE.FindStringSubmatch(fl)
				if m == nil || m[1] != m[3] {
					t.Fatalf("Resolve(%q): malformed flag %q", spec, fl)
				}
			}
		}

		toks := tokens(spec)
		native := spec == "" || (len(toks) == 1 && toks[0] == "native")
		if native {
			if opt.Supported == nil {
				// No list: no clamp, as with PyTorch clamping to sm_999.
				n := "native"
				want, werr := extendedRef(&n, opt.GPUs, []string{"sm_999"})
				if (werr == nil) != (err == nil) || !reflect.DeepEqual(got, want) {
					t.Fatalf("native %v: Resolve = %q, %v; PyTorch = %q, %v", opt.GPUs, got, err, want, werr)
				}
			}
			return
		}

		// Token-wise: each token alone resolves, and the union is the result.
		if err == nil {
			var union []string
			for _, tok := range toks {
				f, terr := Resolve(tok, opt)
				if terr != nil {
					t.Fatalf("Resolve(%q) ok but its token %q fails: %v", spec, tok, terr)
				}
				union = append(union, f...)
			}
			if u := sortedSet(union); !reflect.DeepEqual(u, got) {
				t.Fatalf("Resolve(%q) = %q, union of tokens %q", spec, got, u)
			}
		}

		// PyTorch agreement: without a supported list, we accept exactly
		// what PyTorch (with the extra arches) accepts once noise is
		// removed, with the same flags; with one, a subset of it.
		clean := strings.Join(toks, ";")
		want, werr := extendedRef(&clean, nil, nil)
		if len(toks) == 0 {
			werr = errors.New("empty")
		}
		if opt.Supported == nil {
			if (werr == nil) != (err == nil) || !reflect.DeepEqual(got, want) {
				t.Fatalf("Resolve(%q) = %q, %v; PyTorch(%q) = %q, %v", spec, got, err, clean, want, werr)
			}
		} else if err == nil && (werr != nil || !reflect.DeepEqual(got, want)) {
			t.Fatalf("Resolve(%q, supported) = %q; PyTorch(%q) = %q, %v", spec, got, clean, want, werr)
		} else if err != nil && werr == nil {
			var se *SpecError
			if !errors.As(err, &se) || se.Kind != ErrUnsupported {
				t.Fatalf("Resolve(%q, supported): %v, but PyTorch accepts it", spec, err)
			}
		}

		// The Starlark token table gives the same answer.
		tg, ok := fuzzTables[li].resolve(spec)
		if ok != (err == nil) || !reflect.DeepEqual(tg, got) {
			t.Fatalf("Resolve(%q) = %q, %v; BzlTable gives %q, %v", spec, got, err, tg, ok)
		}
	})
}

// FuzzSupportedList: every code list toolkit.ParseGPUCodeList accepts works
// as Options.Supported (Resolve fails only with ErrUnsupported), including as
// ClampTo in native mode; ParseCapability round-trips.
func FuzzSupportedList(f *testing.F) {
	for _, name := range []string{"nvcc13_list_gpu_code.txt", "nvcc13_list_gpu_arch.txt", "nvcc118_list_gpu_code.txt", "nvcc118_list_gpu_code_and_arch.txt", "nvcc13_version.txt"} {
		f.Add(readNvccOutput(f, name))
	}
	f.Add("sm_80,compute_90 sm_90a")
	f.Add("9.0")
	f.Fuzz(func(t *testing.T, out string) {
		if codes, err := toolkit.ParseGPUCodeList(out); err == nil {
			if _, err := Resolve("Hopper;Blackwell;3.5;9.0a+PTX", Options{Supported: codes, GPUs: []Capability{{9, 0}}}); err != nil {
				var se *SpecError
				if !errors.As(err, &se) || se.Kind != ErrUnsupported {
					t.Fatalf("Resolve with supported %q: %v", codes, err)
				}
			}
			Resolve("", Options{ClampTo: codes, GPUs: []Capability{{12, 1}}})
		}
		if c, err := ParseCapability(out); err == nil {
			if c2, err := ParseCapability(c.String()); err != nil || c2 != c {
				t.Fatalf("ParseCapability(%q) = %v; round trip %v, %v", out, c, c2, err)
			}
		}
	})
}
