package toolkit

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// FuzzParseNvccVersion: no panic, and a parsed version round-trips.
func FuzzParseNvccVersion(f *testing.F) {
	f.Add(readTestdata(f, "nvcc13_version.txt"))
	f.Add(readTestdata(f, "nvcc118_version.txt"))
	f.Add("Cuda compilation tools, release 9.0, V9.0.176")
	f.Add("Cuda compilation tools, release 5.5")
	f.Add("nvcc fatal : Unknown option")
	f.Fuzz(func(t *testing.T, out string) {
		v, err := ParseNvccVersion(out)
		if err != nil {
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		if v.Major < 0 || v.Minor < 0 || v.Patch < 0 {
			t.Fatalf("ParseNvccVersion(%q) = %v", out, v)
		}
		line := "Cuda compilation tools, release " + strings.TrimSuffix(v.String(), "."+strconv.Itoa(v.Patch)) + ", V" + v.String()
		if v2, err := ParseNvccVersion(line); err != nil || v2 != v {
			t.Fatalf("round trip of %v via %q: %v, %v", v, line, v2, err)
		}
		KnownGPUCodes(v)
	})
}

// FuzzParseGPUCodeList: no panic; codes are well-formed, unique and
// round-trip; errors are one line. (The resolver's FuzzSupportedList checks
// that every parsed list works as its Options.Supported.)
func FuzzParseGPUCodeList(f *testing.F) {
	for _, name := range []string{"nvcc13_list_gpu_code.txt", "nvcc13_list_gpu_arch.txt", "nvcc118_list_gpu_code.txt", "nvcc118_list_gpu_code_and_arch.txt", "nvcc13_version.txt"} {
		f.Add(readTestdata(f, name))
	}
	f.Add("sm_80,compute_90 sm_90a")
	f.Add("9.0")
	f.Fuzz(func(t *testing.T, out string) {
		codes, err := ParseGPUCodeList(out)
		if err != nil {
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		seen := map[string]bool{}
		for _, c := range codes {
			if !codeRE.MatchString(c) || seen[c] {
				t.Fatalf("ParseGPUCodeList(%q) = %q: bad or repeated %q", out, codes, c)
			}
			seen[c] = true
		}
		again, err := ParseGPUCodeList(strings.Join(codes, "\n"))
		if err != nil || !reflect.DeepEqual(again, codes) {
			t.Fatalf("round trip of %q: %q, %v", codes, again, err)
		}
	})
}
