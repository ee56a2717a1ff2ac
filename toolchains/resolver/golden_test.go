package resolver

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// torchRef is a line-by-line transliteration of PyTorch 2.11's
// _get_cuda_arch_flags (testdata/../torch_src.py), kept independent of the
// package's code (its own copies of the tables) so it can serve as an oracle.
// spec nil means unset. Errors read like the Python exception, "Type: msg".
func torchRef(spec *string, gpus []Capability, getArchList []string) ([]string, error) {
	return torchRefWith(nil, spec, gpus, getArchList)
}

// extensionArches is this test's own copy of the arches Resolve accepts
// beyond PyTorch's (ExtraArches): what the pinned toolkits' nvcc builds.
var extensionArches = []string{"8.8", "10.1", "10.1a", "10.7", "10.7a",
	"10.0f", "10.1f", "10.3f", "10.7f", "11.0f", "12.0f", "12.1f"}

// extendedRef is torchRef with extensionArches added to PyTorch's
// supported_arches: the oracle for Resolve's documented extension.
func extendedRef(spec *string, gpus []Capability, getArchList []string) ([]string, error) {
	return torchRefWith(extensionArches, spec, gpus, getArchList)
}

// torchRefWith is the transliteration, with extra added to PyTorch's
// supported_arches.
func torchRefWith(extra []string, spec *string, gpus []Capability, getArchList []string) ([]string, error) {
	namedArches := [][2]string{
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
	supportedArches := []string{"3.5", "3.7", "5.0", "5.2", "5.3", "6.0", "6.1", "6.2",
		"7.0", "7.2", "7.5", "8.0", "8.6", "8.7", "8.9", "9.0", "9.0a",
		"10.0", "10.0a", "11.0", "11.0a", "10.3", "10.3a", "12.0",
		"12.0a", "12.1", "12.1a"}
	supportedArches = append(supportedArches, extra...)
	validArchStrings := map[string]bool{}
	for _, s := range supportedArches {
		validArchStrings[s] = true
		validArchStrings[s+"+PTX"] = true
	}
	var archList []string
	if spec == nil || *spec == "" || *spec == "native" {
		digitsRE := regexp.MustCompile(`\d+`)
		for _, capability := range gpus {
			var supportedSM []int
			for _, arch := range getArchList {
				if strings.Contains(arch, "sm_") {
					n, err := strconv.Atoi(strings.Join(digitsRE.FindAllString(strings.Split(arch, "_")[1], -1), ""))
					if err != nil {
						return nil, fmt.Errorf("ValueError: invalid literal for int()")
					}
					supportedSM = append(supportedSM, n)
				}
			}
			if len(supportedSM) == 0 {
				return nil, fmt.Errorf("ValueError: max() arg is an empty sequence")
			}
			maxSupported := [2]int{supportedSM[0] / 10, supportedSM[0] % 10}
			for _, sm := range supportedSM[1:] {
				t := [2]int{sm / 10, sm % 10}
				if t[0] > maxSupported[0] || (t[0] == maxSupported[0] && t[1] > maxSupported[1]) {
					maxSupported = t
				}
			}
			c := [2]int{capability.Major, capability.Minor}
			if maxSupported[0] < c[0] || (maxSupported[0] == c[0] && maxSupported[1] <= c[1]) {
				c = maxSupported // min() keeps the first of equals; same value
			}
			arch := fmt.Sprintf("%d.%d", c[0], c[1])
			found := false
			for _, a := range archList {
				found = found || a == arch
			}
			if !found {
				archList = append(archList, arch)
			}
		}
		sort.Strings(archList)
		if len(archList) == 0 {
			return nil, fmt.Errorf("IndexError: list index out of range")
		}
		archList[len(archList)-1] += "+PTX"
	} else {
		s := strings.ReplaceAll(*spec, " ", ";")
		for _, n := range namedArches {
			s = strings.ReplaceAll(s, n[0], n[1])
		}
		archList = strings.Split(s, ";")
	}
	var flags []string
	for _, arch := range archList {
		if !validArchStrings[arch] {
			return nil, fmt.Errorf("ValueError: Unknown CUDA arch (%s) or GPU not supported", arch)
		}
		version := strings.Split(arch, "+")[0]
		mm := strings.Split(version, ".")
		num := mm[0] + mm[1]
		flags = append(flags, "-gencode=arch=compute_"+num+",code=sm_"+num)
		if strings.HasSuffix(arch, "+PTX") {
			flags = append(flags, "-gencode=arch=compute_"+num+",code=compute_"+num)
		}
	}
	set := map[string]bool{}
	var out []string
	for _, f := range flags {
		if !set[f] {
			set[f] = true
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out, nil
}

type goldenRecord struct {
	Spec          *string   `json:"spec"`
	GPUs          [][2]int  `json:"gpus"`
	TorchArchList []string  `json:"torch_arch_list"`
	Flags         *[]string `json:"flags"`
	Error         *string   `json:"error"`
}

func loadGolden(t testing.TB) []goldenRecord {
	t.Helper()
	data, err := os.ReadFile("testdata/torch_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		TorchVersion string         `json:"torch_version"`
		Records      []goldenRecord `json:"records"`
	}
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(g.TorchVersion, "2.11.") {
		t.Fatalf("golden data from torch %s, want 2.11", g.TorchVersion)
	}
	if len(g.Records) < 400 {
		t.Fatalf("only %d golden records", len(g.Records))
	}
	return g.Records
}

func (r goldenRecord) caps() []Capability {
	var c []Capability
	for _, g := range r.GPUs {
		c = append(c, Capability{g[0], g[1]})
	}
	return c
}

func (r goldenRecord) name() string {
	if r.Spec == nil {
		return fmt.Sprintf("unset/gpus=%v/%v", r.GPUs, r.TorchArchList)
	}
	return fmt.Sprintf("%q/gpus=%v/%v", *r.Spec, r.GPUs, r.TorchArchList)
}

// TestTorchRefMatchesGolden checks the test oracle itself against PyTorch.
func TestTorchRefMatchesGolden(t *testing.T) {
	for _, r := range loadGolden(t) {
		flags, err := torchRef(r.Spec, r.caps(), r.TorchArchList)
		switch {
		case r.Flags != nil:
			if err != nil || !reflect.DeepEqual(flags, *r.Flags) {
				t.Errorf("%s: torchRef = %q, %v; PyTorch = %q", r.name(), flags, err, *r.Flags)
			}
		case r.Error != nil:
			if err == nil || err.Error() != *r.Error {
				t.Errorf("%s: torchRef error %v; PyTorch %q", r.name(), err, *r.Error)
			}
		default:
			t.Errorf("%s: record has neither flags nor error", r.name())
		}
	}
}

// cleanSpec removes harmless noise: empty entries and non-space whitespace.
func cleanSpec(spec string) string { return strings.Join(tokens(spec), ";") }

var unknownArchRE = regexp.MustCompile(`^ValueError: Unknown CUDA arch \((.*)\) or GPU not supported$`)

func TestGolden(t *testing.T) {
	var nAccepted, rejected, noise, extension int
	for _, r := range loadGolden(t) {
		spec := ""
		if r.Spec != nil {
			spec = *r.Spec
		}
		opt := Options{GPUs: r.caps(), ClampTo: r.TorchArchList}
		got, err := Resolve(spec, opt)
		if r.Flags != nil {
			nAccepted++
			if err != nil || !reflect.DeepEqual(got, *r.Flags) {
				t.Errorf("%s: Resolve = %q, %v; PyTorch = %q", r.name(), got, err, *r.Flags)
			}
			continue
		}
		// PyTorch rejected it. Accept only harmless noise around an
		// accepted spec.
		if clean := cleanSpec(spec); r.Spec != nil && clean != spec && clean != "" {
			if want, werr := torchRef(&clean, r.caps(), r.TorchArchList); werr == nil {
				noise++
				if err != nil || !reflect.DeepEqual(got, want) {
					t.Errorf("%s: noise around %q: Resolve = %q, %v; want %q", r.name(), clean, got, err, want)
				}
				continue
			}
		}
		// PyTorch does not know an arch the pinned toolkits build (8.8,
		// 10.0f, ...): Resolve accepts it, as PyTorch would with the arch
		// in its list.
		if clean := cleanSpec(spec); r.Spec != nil && clean != "" {
			if want, werr := extendedRef(&clean, r.caps(), r.TorchArchList); werr == nil {
				extension++
				if err != nil || !reflect.DeepEqual(got, want) {
					t.Errorf("%s: extra arches: Resolve = %q, %v; want %q", r.name(), got, err, want)
				}
				continue
			}
		}
		rejected++
		if err == nil {
			t.Errorf("%s: Resolve = %q, want an error like PyTorch's %q", r.name(), got, *r.Error)
			continue
		}
		var se *SpecError
		if !errors.As(err, &se) {
			t.Errorf("%s: error %T %v, want *SpecError", r.name(), err, err)
			continue
		}
		if strings.Contains(se.Error(), "\n") {
			t.Errorf("%s: multi-line error %q", r.name(), se.Error())
		}
		if m := unknownArchRE.FindStringSubmatch(*r.Error); m != nil {
			// Our first bad entry is the one holding PyTorch's first bad
			// arch (for noise-free specs; noise is dropped before).
			// PyTorch may name an extra arch that comes before the bad one.
			if clean := cleanSpec(spec); clean == strings.ReplaceAll(spec, " ", ";") && !extraArch(m[1]) && (se.Kind != ErrUnknownArch || se.Arch != m[1]) {
				t.Errorf("%s: error kind %d arch %q, PyTorch names %q", r.name(), se.Kind, se.Arch, m[1])
			}
			if !strings.Contains(se.Error(), accepted) {
				t.Errorf("%s: error %q does not say what is accepted", r.name(), se.Error())
			}
		} else if strings.HasPrefix(*r.Error, "IndexError") && se.Kind != ErrNoGPUs {
			t.Errorf("%s: error kind %d, want ErrNoGPUs for PyTorch's %q", r.name(), se.Kind, *r.Error)
		}
	}
	t.Logf("golden: %d accepted, %d rejected, %d noise records accepted, %d with extra arches", nAccepted, rejected, noise, extension)
	if nAccepted < 100 || rejected < 100 || noise < 5 || extension < 20 {
		t.Errorf("too few golden records of some kind: %d accepted, %d rejected, %d noise, %d with extra arches", nAccepted, rejected, noise, extension)
	}
}

// extraArch reports whether a (with or without +PTX) is one of extensionArches.
func extraArch(a string) bool {
	a = strings.TrimSuffix(a, "+PTX")
	for _, e := range extensionArches {
		if a == e {
			return true
		}
	}
	return false
}
