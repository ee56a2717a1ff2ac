package resolver

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/toolchains/toolkit"
)

func sm(n string) string      { return "-gencode=arch=compute_" + n + ",code=sm_" + n }
func ptx(n string) string     { return "-gencode=arch=compute_" + n + ",code=compute_" + n }
func fl(f ...string) []string { return f }

func TestResolve(t *testing.T) {
	for _, tc := range []struct {
		spec string
		want []string
	}{
		{"8.0", fl(sm("80"))},
		{"8.0+PTX", fl(ptx("80"), sm("80"))},
		{"9.0;8.0", fl(sm("80"), sm("90"))},
		{"8.0 9.0", fl(sm("80"), sm("90"))},
		// named arches
		{"Kepler+Tesla", fl(sm("37"))},
		{"Kepler", fl(ptx("35"), sm("35"))},
		{"Maxwell+Tegra", fl(sm("53"))},
		{"Maxwell", fl(sm("50"), ptx("52"), sm("52"))},
		{"Pascal", fl(sm("60"), ptx("61"), sm("61"))},
		{"Volta+Tegra", fl(sm("72"))},
		{"Volta", fl(ptx("70"), sm("70"))},
		{"Turing", fl(ptx("75"), sm("75"))},
		{"Ampere+Tegra", fl(sm("87"))},
		{"Ampere", fl(sm("80"), ptx("86"), sm("86"))},
		{"Ada", fl(ptx("89"), sm("89"))},
		{"Hopper", fl(ptx("90"), sm("90"))},
		{"Blackwell+Tegra", fl(sm("110"))},
		{"Blackwell", fl(sm("100"), sm("103"), sm("120"), ptx("121"), sm("121"))},
		{"Ampere+Tegra+PTX", fl(ptx("87"), sm("87"))},
		{"Blackwell+Tegraa", fl(sm("110a"))},
		{"Blackwell+Tegraa+PTX", fl(ptx("110a"), sm("110a"))},
		// 'a' suffixes and two-digit majors
		{"9.0a", fl(sm("90a"))},
		{"10.0a+PTX", fl(ptx("100a"), sm("100a"))},
		{"12.1a", fl(sm("121a"))},
		{"12.1", fl(sm("121"))},
		{"10.3+PTX", fl(ptx("103"), sm("103"))},
		// arches PyTorch 2.11 does not know that the pinned toolkits build
		{"8.8", fl(sm("88"))},
		{"10.1", fl(sm("101"))},
		{"10.7+PTX", fl(ptx("107"), sm("107"))},
		{"10.7a", fl(sm("107a"))},
		{"10.0f", fl(sm("100f"))},
		{"12.1f+PTX", fl(ptx("121f"), sm("121f"))},
		{"Blackwell+Tegraf", fl(sm("110f"))},
		{"10.0;10.0a;10.0f", fl(sm("100"), sm("100a"), sm("100f"))},
		// dedupe and plain string order ("compute_100" < "compute_90")
		{"8.6;8.0;8.6", fl(sm("80"), sm("86"))},
		{"9.0+PTX;9.0", fl(ptx("90"), sm("90"))},
		{"Hopper 9.0+PTX", fl(ptx("90"), sm("90"))},
		{"9.0;10.0", fl(sm("100"), sm("90"))},
		{"9.0a;9.0", fl(sm("90"), sm("90a"))},
		// harmless noise
		{"8.0;", fl(sm("80"))},
		{";8.0", fl(sm("80"))},
		{" 8.0 ", fl(sm("80"))},
		{"8.0  9.0", fl(sm("80"), sm("90"))},
		{"8.0;;9.0", fl(sm("80"), sm("90"))},
		{"\t8.0\n9.0\r\n", fl(sm("80"), sm("90"))},
	} {
		got, err := Resolve(tc.spec, Options{})
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Resolve(%q) = %q, %v; want %q", tc.spec, got, err, tc.want)
		}
	}
}

func TestResolveErrors(t *testing.T) {
	for _, tc := range []struct {
		spec       string
		kind       ErrorKind
		entry      string
		expanded   string
		arch       string
		msgContent []string
	}{
		{"Hopper+PTX", ErrUnknownArch, "Hopper+PTX", "9.0+PTX+PTX", "9.0+PTX+PTX", []string{`"Hopper+PTX"`, `expands to "9.0+PTX+PTX"`}},
		{"8.0;9.1", ErrUnknownArch, "9.1", "", "9.1", []string{`"9.1"`, `TORCH_CUDA_ARCH_LIST="8.0;9.1"`}},
		{"8.0,9.0", ErrUnknownArch, "8.0,9.0", "", "8.0,9.0", nil},
		{"8.0+ptx", ErrUnknownArch, "8.0+ptx", "", "8.0+ptx", nil},
		{"hopper", ErrUnknownArch, "hopper", "", "hopper", nil},
		{"sm_90", ErrUnknownArch, "sm_90", "", "sm_90", nil},
		{"90", ErrUnknownArch, "90", "", "90", nil},
		{"8.7a", ErrUnknownArch, "8.7a", "", "8.7a", nil},
		{"9.0f", ErrUnknownArch, "9.0f", "", "9.0f", nil},
		{"10.2", ErrUnknownArch, "10.2", "", "10.2", nil},
		{"12.0af", ErrUnknownArch, "12.0af", "", "12.0af", nil},
		{"Hopperf", ErrUnknownArch, "Hopperf", "9.0+PTXf", "9.0+PTXf", nil},
		{"+PTX", ErrUnknownArch, "+PTX", "", "+PTX", nil},
		{"all", ErrUnknownArch, "all", "", "all", nil},
		{"Native", ErrUnknownArch, "Native", "", "Native", nil},
		{"KeplerMaxwell", ErrUnknownArch, "KeplerMaxwell", "3.5+PTX5.0;5.2+PTX", "3.5+PTX5.0", []string{`bad part "3.5+PTX5.0"`}},
		{"8.0;native", ErrUnknownArch, "native", "", "native", []string{`"native" must be the whole list`}},
		{" ;", ErrEmpty, "", "", "", []string{"empty arch list"}},
		{"\t", ErrEmpty, "", "", "", nil},
	} {
		_, err := Resolve(tc.spec, Options{GPUs: []Capability{{9, 0}}})
		var se *SpecError
		if !errors.As(err, &se) {
			t.Errorf("Resolve(%q) error = %v, want *SpecError", tc.spec, err)
			continue
		}
		if se.Kind != tc.kind || se.Entry != tc.entry || se.Expanded != tc.expanded || se.Arch != tc.arch || se.Spec != tc.spec {
			t.Errorf("Resolve(%q) = %+v, want kind %d entry %q expanded %q arch %q", tc.spec, *se, tc.kind, tc.entry, tc.expanded, tc.arch)
		}
		msg := err.Error()
		if strings.ContainsAny(msg, "\n\r") {
			t.Errorf("Resolve(%q): multi-line message %q", tc.spec, msg)
		}
		want := append([]string{accepted, "3.5 3.7 5.0", "+PTX", "Kepler+Tesla", "Blackwell", `"native"`}, tc.msgContent...)
		if tc.entry != "" {
			want = append(want, `"`+tc.entry+`"`)
		}
		for _, w := range want {
			if !strings.Contains(msg, w) {
				t.Errorf("Resolve(%q) message %q lacks %q", tc.spec, msg, w)
			}
		}
	}
}

func TestNative(t *testing.T) {
	for _, tc := range []struct {
		name string
		spec string
		opt  Options
		want []string
	}{
		{"unset one GPU", "", Options{GPUs: []Capability{{9, 0}}}, fl(ptx("90"), sm("90"))},
		{"native one GPU", "native", Options{GPUs: []Capability{{9, 0}}}, fl(ptx("90"), sm("90"))},
		{"native with noise", " native;", Options{GPUs: []Capability{{9, 0}}}, fl(ptx("90"), sm("90"))},
		{"string sort: 8.9 after 12.0 gets PTX", "", Options{GPUs: []Capability{{12, 0}, {8, 9}}}, fl(sm("120"), ptx("89"), sm("89"))},
		{"dedupe", "native", Options{GPUs: []Capability{{8, 6}, {8, 6}, {8, 0}}}, fl(sm("80"), ptx("86"), sm("86"))},
		{"clamp to nvcc 11.8", "", Options{GPUs: []Capability{{12, 1}}, Supported: readCodes(t, "nvcc118_list_gpu_code.txt")}, fl(ptx("90"), sm("90"))},
		{"clamp to sm_90a counts as 9.0", "", Options{GPUs: []Capability{{10, 0}}, ClampTo: []string{"sm_80", "sm_90a"}}, fl(ptx("90"), sm("90"))},
		{"ClampTo beats Supported", "", Options{GPUs: []Capability{{12, 0}}, ClampTo: []string{"sm_100"}, Supported: readCodes(t, "nvcc13_list_gpu_code.txt")}, fl(ptx("100"), sm("100"))},
		{"no sm_ codes: no clamp", "", Options{GPUs: []Capability{{12, 0}}, ClampTo: []string{"compute_80"}}, fl(ptx("120"), sm("120"))},
		{"no clamp list", "", Options{GPUs: []Capability{{12, 1}}}, fl(ptx("121"), sm("121"))},
		{"clamp to a compute_-only Supported list", "", Options{GPUs: []Capability{{12, 1}}, Supported: readCodes(t, "nvcc118_list_gpu_arch.txt")}, fl(ptx("90"), sm("90"))},
	} {
		got, err := Resolve(tc.spec, tc.opt)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: Resolve(%q) = %q, %v; want %q", tc.name, tc.spec, got, err, tc.want)
		}
	}

	for _, tc := range []struct {
		name string
		opt  Options
		kind ErrorKind
		msg  string
	}{
		{"no GPUs", Options{}, ErrNoGPUs, "no GPUs were visible"},
		{"unknown capability", Options{GPUs: []Capability{{3, 0}}}, ErrUnknownArch, `"3.0+PTX"`},
		{"GPU too old for nvcc 13", Options{GPUs: []Capability{{7, 0}}, Supported: readCodes(t, "nvcc13_list_gpu_code.txt")}, ErrUnsupported, "sm_70"},
	} {
		_, err := Resolve("native", tc.opt)
		var se *SpecError
		if !errors.As(err, &se) || se.Kind != tc.kind || !se.Native || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: error %v, want kind %d mentioning %q", tc.name, err, tc.kind, tc.msg)
		}
	}
	if _, err := Resolve("", Options{}); err == nil || !strings.Contains(err.Error(), "TORCH_CUDA_ARCH_LIST") {
		t.Errorf("no GPUs: error %v should tell to set TORCH_CUDA_ARCH_LIST", err)
	}
}

// nvccTestdata is where the recorded nvcc outputs are: the toolkit package's
// testdata (a data dependency of this test in Bazel).
const nvccTestdata = "../toolkit/testdata/"

// readNvccOutput returns a recorded nvcc output, such as
// "nvcc13_list_gpu_code.txt".
func readNvccOutput(t testing.TB, name string) string {
	t.Helper()
	data, err := os.ReadFile(nvccTestdata + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// readCodes parses recorded nvcc GPU code lists as toolkit.DetectToolkit does
// and concatenates the codes.
func readCodes(t testing.TB, files ...string) []string {
	t.Helper()
	var all []string
	for _, f := range files {
		codes, err := toolkit.ParseGPUCodeList(readNvccOutput(t, f))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, codes...)
	}
	return all
}

// TestKnownGPUCodesAsSupported: the toolkit's table answer for an nvcc too old
// to list its codes works as Options.Supported.
func TestKnownGPUCodesAsSupported(t *testing.T) {
	codes, ok := toolkit.KnownGPUCodes(toolkit.Version{Major: 10, Minor: 2})
	if !ok {
		t.Fatal("no table for 10.2")
	}
	if _, err := Resolve("Turing;Kepler", Options{Supported: codes}); err != nil {
		t.Errorf("10.2 table rejects Turing;Kepler: %v", err)
	}
	if _, err := Resolve("Ampere", Options{Supported: codes}); err == nil {
		t.Error("10.2 table accepts Ampere")
	}
}

func TestSupported(t *testing.T) {
	lists := map[string][]string{
		"13 code":        readCodes(t, "nvcc13_list_gpu_code.txt"),
		"13 code+arch":   readCodes(t, "nvcc13_list_gpu_code.txt", "nvcc13_list_gpu_arch.txt"),
		"11.8 code":      readCodes(t, "nvcc118_list_gpu_code.txt"),
		"11.8 both":      readCodes(t, "nvcc118_list_gpu_code_and_arch.txt"),
		"11.8 arch+code": readCodes(t, "nvcc118_list_gpu_arch.txt", "nvcc118_list_gpu_code.txt"),
		"sm+compute_80":  {"sm_80", "sm_90", "compute_80"},
		"11.8 arch":      readCodes(t, "nvcc118_list_gpu_arch.txt"),
		"lto only":       {"lto_90"},
	}
	for _, tc := range []struct {
		list    string
		spec    string
		missing []string // nil: accepted
	}{
		{"13 code", "3.5", []string{"sm_35"}},
		{"13 code", "7.0+PTX", []string{"sm_70", "compute_70"}},
		{"13 code", "Maxwell", []string{"sm_50"}},
		{"13 code", "9.0+PTX", nil},
		{"13 code", "9.0a+PTX", nil},
		{"13 code", "Blackwell", nil},
		{"13 code", "Blackwell+Tegra", nil},
		{"13 code", "12.1a", nil},
		{"13 code", "Turing Ampere Ada Hopper", nil},
		{"13 code+arch", "3.5", []string{"sm_35"}},
		{"13 code+arch", "10.3a+PTX", nil},
		{"13 code+arch", "Ampere+Tegra", nil},
		{"11.8 code", "10.0", []string{"sm_100"}},
		{"11.8 code", "9.0+PTX", nil},
		{"11.8 code", "9.0a", []string{"sm_90a"}},
		{"11.8 code", "3.5;3.7", nil},
		{"11.8 both", "10.0", []string{"sm_100"}},
		{"11.8 both", "Blackwell", []string{"sm_100"}},
		{"11.8 both", "Kepler Maxwell Pascal Volta Turing Ampere Ada Hopper", nil},
		{"11.8 both", "9.0a+PTX", []string{"sm_90a", "compute_90a"}},
		{"11.8 arch+code", "12.0", []string{"sm_120"}},
		{"sm+compute_80", "8.0+PTX", nil},
		{"sm+compute_80", "9.0+PTX", []string{"compute_90"}},
		{"sm+compute_80", "9.0a", nil},
		{"11.8 arch", "9.0+PTX", nil},
		{"11.8 arch", "3.5", nil},
		{"11.8 arch", "10.0+PTX", []string{"sm_100", "compute_100"}},
		{"11.8 arch", "9.0a", []string{"sm_90a"}},
		{"lto only", "9.0+PTX", []string{"sm_90", "compute_90"}},
	} {
		list := lists[tc.list]
		got, err := Resolve(tc.spec, Options{Supported: list})
		if tc.missing == nil {
			want, _ := Resolve(tc.spec, Options{})
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("%s: Resolve(%q) = %q, %v; want %q", tc.list, tc.spec, got, err, want)
			}
			continue
		}
		var se *SpecError
		if !errors.As(err, &se) || se.Kind != ErrUnsupported || !reflect.DeepEqual(se.Missing, tc.missing) {
			t.Errorf("%s: Resolve(%q) error %v, want ErrUnsupported missing %q", tc.list, tc.spec, err, tc.missing)
			continue
		}
		msg := err.Error()
		for _, w := range []string{`"` + strings.Fields(tc.spec)[0] + `"`, strings.Join(newSupport(list).list, " "), "cannot build", tc.missing[0]} {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: Resolve(%q) message %q lacks %q", tc.list, tc.spec, msg, w)
			}
		}
	}
	// An empty (non-nil) list supports nothing.
	if _, err := Resolve("8.0", Options{Supported: []string{}}); err == nil {
		t.Error("empty Supported list accepted 8.0")
	}
}

func TestExplain(t *testing.T) {
	rows, err := Explain("Maxwell 9.0a;;Hopper", Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []ExplainRow{
		{"Maxwell", []string{"5.0", "5.2+PTX"}, fl(sm("50"), ptx("52"), sm("52"))},
		{"9.0a", []string{"9.0a"}, fl(sm("90a"))},
		{"Hopper", []string{"9.0+PTX"}, fl(ptx("90"), sm("90"))},
	}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("Explain = %+v, want %+v", rows, want)
	}
	rows, err = Explain("", Options{GPUs: []Capability{{9, 0}, {8, 0}}})
	want = []ExplainRow{{"native", []string{"8.0", "9.0+PTX"}, fl(sm("80"), ptx("90"), sm("90"))}}
	if err != nil || !reflect.DeepEqual(rows, want) {
		t.Errorf("Explain(native) = %+v, %v; want %+v", rows, err, want)
	}
	if _, err := Explain("Hopper+PTX", Options{}); err == nil {
		t.Error("Explain accepted Hopper+PTX")
	}
}

func TestCapability(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Capability
	}{
		{"9.0", Capability{9, 0}},
		{"12.1", Capability{12, 1}},
		{" 8.6\n", Capability{8, 6}},
	} {
		got, err := ParseCapability(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseCapability(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
		if got.String() != strings.TrimSpace(tc.in) {
			t.Errorf("%v.String() = %q", got, got.String())
		}
	}
	for _, bad := range []string{"", "9", "9.", ".9", "9.0.1", "sm_90", "-1.0", "9.x", "1000.0", "compute_cap", "9,0", "+9.0"} {
		if c, err := ParseCapability(bad); err == nil {
			t.Errorf("ParseCapability(%q) = %v, want an error", bad, c)
		}
	}
}

// The code lists toolchains/versions.bzl records for the pinned toolkits: nvcc
// --list-gpu-code, then the arch-specific and family-specific codes nvcc
// accepts (nvcc --dryrun; for 12.9, its ptxas's names).
var (
	pinned129 = []string{"sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70", "sm_72", "sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_100", "sm_101", "sm_103", "sm_120", "sm_121",
		"sm_90a", "sm_100a", "sm_100f", "sm_101a", "sm_101f", "sm_103a", "sm_103f", "sm_120a", "sm_120f", "sm_121a", "sm_121f"}
	pinned132 = []string{"sm_75", "sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90", "sm_100", "sm_110", "sm_103", "sm_120", "sm_121",
		"sm_90a", "sm_100a", "sm_100f", "sm_110a", "sm_110f", "sm_103a", "sm_103f", "sm_120a", "sm_120f", "sm_121a", "sm_121f"}
	pinned135 = []string{"sm_75", "sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90", "sm_100", "sm_110", "sm_103", "sm_120", "sm_121", "sm_107",
		"sm_90a", "sm_100a", "sm_100f", "sm_110a", "sm_110f", "sm_103a", "sm_103f", "sm_120a", "sm_120f", "sm_121a", "sm_121f", "sm_107a", "sm_107f"}
)

// TestPinnedToolkits: every arch a pinned toolkit lists resolves against its
// recorded list, and an arch it cannot build fails naming the toolkit, the
// arch and the missing code.
func TestPinnedToolkits(t *testing.T) {
	toolkits := []struct {
		name string
		list []string
		ok   []string
		not  map[string]string // spec -> missing code
	}{
		{"CUDA 12.9", pinned129,
			[]string{"5.0", "7.2", "9.0a+PTX", "10.1", "10.1a", "10.1f", "10.0f+PTX", "12.1f", "Blackwell", "Maxwell"},
			map[string]string{"8.8": "sm_88", "11.0": "sm_110", "10.7": "sm_107", "11.0f": "sm_110f", "Blackwell+Tegra": "sm_110", "3.5": "sm_35"}},
		{"CUDA 13.2", pinned132,
			[]string{"7.5", "8.8", "9.0a", "10.0f", "10.3f+PTX", "11.0a", "11.0f", "12.0f", "12.1a+PTX", "Blackwell", "Blackwell+Tegraf"},
			map[string]string{"10.7": "sm_107", "10.7f": "sm_107f", "10.7a+PTX": "sm_107a", "10.1": "sm_101", "7.0": "sm_70", "Volta": "sm_70"}},
		{"CUDA 13.5", pinned135,
			[]string{"8.8", "10.7", "10.7a", "10.7f+PTX", "10.0f", "11.0f", "12.1f", "Blackwell", "Hopper", "Ada", "Turing"},
			map[string]string{"10.1": "sm_101", "10.1f": "sm_101f", "7.2": "sm_72", "Pascal": "sm_60"}},
	}
	for _, tk := range toolkits {
		opt := Options{Supported: tk.list, Toolkit: tk.name + " (pinned)"}
		// Every sm_ code the list names is an arch the resolver accepts.
		for _, code := range tk.list {
			num := strings.TrimPrefix(code, "sm_")
			suffix := ""
			if c := num[len(num)-1]; c == 'a' || c == 'f' {
				num, suffix = num[:len(num)-1], string(c)
			}
			arch := num[:len(num)-1] + "." + num[len(num)-1:] + suffix
			if got, err := Resolve(arch+"+PTX", opt); err != nil || !reflect.DeepEqual(got, fl(ptx(num+suffix), sm(num+suffix))) {
				t.Errorf("%s: Resolve(%q) = %q, %v", tk.name, arch+"+PTX", got, err)
			}
		}
		for _, spec := range tk.ok {
			if _, err := Resolve(spec, opt); err != nil {
				t.Errorf("%s: Resolve(%q): %v", tk.name, spec, err)
			}
		}
		for spec, code := range tk.not {
			_, err := Resolve(spec, opt)
			var se *SpecError
			if !errors.As(err, &se) || se.Kind != ErrUnsupported {
				t.Errorf("%s: Resolve(%q) = %v, want ErrUnsupported", tk.name, spec, err)
				continue
			}
			for _, w := range []string{`"` + spec + `"`, "needs " + code, "which " + tk.name + " (pinned) cannot build", "it supports: " + strings.Join(tk.list, " ")} {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%s: Resolve(%q) message %q lacks %q", tk.name, spec, err, w)
				}
			}
		}
	}
}

// TestVariantHeuristics: lists without arch-specific or family-specific
// codes (nvcc --list-gpu-code alone, e.g. a redist toolkit's).
func TestVariantHeuristics(t *testing.T) {
	nvcc13 := readCodes(t, "nvcc13_list_gpu_code.txt")
	nvcc135 := readCodes(t, "nvcc135_list_gpu_code.txt", "nvcc135_list_gpu_arch.txt")
	nvcc128 := []string{"sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_101", "sm_120"}
	for _, tc := range []struct {
		name string
		list []string
		spec string
		ok   bool
	}{
		{"13 a", nvcc13, "10.0a+PTX", true},
		{"13 f", nvcc13, "12.1f+PTX", true},
		{"13 f of an arch it lacks", nvcc13, "10.7f", false},
		{"13.5 f", nvcc135, "10.7f+PTX", true},
		{"12.8 has no f codes", nvcc128, "10.0f", false},
		{"12.8 a", nvcc128, "10.0a", true},
		{"an explicit a code list decides a", []string{"sm_90", "sm_100", "sm_103", "sm_90a"}, "10.0a", false},
		{"an explicit a code list leaves f to the heuristic", []string{"sm_90", "sm_100", "sm_103", "sm_90a"}, "10.0f", true},
		{"an explicit f code list decides f", []string{"sm_100", "sm_103", "sm_103f"}, "10.0f", false},
	} {
		_, err := Resolve(tc.spec, Options{Supported: tc.list})
		if (err == nil) != tc.ok {
			t.Errorf("%s: Resolve(%q) error %v, want ok=%v", tc.name, tc.spec, err, tc.ok)
		}
	}
}

// TestNativeNewArches: a GPU whose arch the toolkit cannot build fails
// naming the toolkit; one it can gets its own code.
func TestNativeNewArches(t *testing.T) {
	got, err := Resolve("native", Options{GPUs: []Capability{{10, 7}, {9, 0}}, Supported: pinned135, Toolkit: "CUDA 13.5"})
	// Sorted as strings, 9.0 is the last arch: it gets the PTX.
	if want := fl(sm("107"), ptx("90"), sm("90")); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("13.5 native 10.7: %q, %v; want %q", got, err, want)
	}
	_, err = Resolve("", Options{GPUs: []Capability{{10, 7}}, Supported: pinned132, Toolkit: "CUDA 13.2"})
	if err == nil || !strings.Contains(err.Error(), `CUDA arch "10.7+PTX" of a visible GPU needs sm_107 and compute_107, which CUDA 13.2 cannot build`) {
		t.Errorf("13.2 native 10.7: %v", err)
	}
}
