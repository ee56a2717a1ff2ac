package resolver

import (
	"strconv"
	"strings"
)

// support answers which codes a Supported list allows.
type support struct {
	list        []string // as given, de-duplicated
	codes       map[string]bool
	hasCompute  bool // any compute_ code
	hasSM       bool // any sm_ code
	hasSpecific bool // any arch-specific (…a) code
	hasFamily   bool // any family-specific (…f) code
	hasKepler   bool // sm_35, sm_37 (or compute_): an nvcc before CUDA 12.0
	hasSM103    bool // sm_103 (or compute_103): CUDA 12.9 or later, which has …f codes
}

func newSupport(list []string) *support {
	if list == nil {
		return nil
	}
	s := &support{codes: map[string]bool{}}
	for _, c := range list {
		c = strings.TrimSpace(c)
		if c == "" || s.codes[c] {
			continue
		}
		s.codes[c] = true
		s.list = append(s.list, c)
		if strings.HasPrefix(c, "compute_") {
			s.hasCompute = true
		}
		if strings.HasPrefix(c, "sm_") {
			s.hasSM = true
		}
		if strings.HasSuffix(c, "a") {
			s.hasSpecific = true
		}
		if strings.HasSuffix(c, "f") {
			s.hasFamily = true
		}
		switch c {
		case "sm_35", "sm_37", "compute_35", "compute_37":
			s.hasKepler = true
		case "sm_103", "compute_103":
			s.hasSM103 = true
		}
	}
	return s
}

// has reports whether the nvcc can build code (sm_N or compute_N).
func (s *support) has(code string) bool {
	if s.codes[code] {
		return true
	}
	kind, num, _ := strings.Cut(code, "_")
	if kind == "compute" && !s.hasCompute {
		return s.has("sm_" + num)
	}
	if kind == "sm" && !s.hasSM && s.hasCompute {
		return s.has("compute_" + num)
	}
	if base, ok := strings.CutSuffix(num, "a"); ok && !s.hasSpecific {
		if base == "90" && s.hasKepler {
			return false // CUDA 11.8: sm_90 but no sm_90a
		}
		return s.has(kind + "_" + base)
	}
	if base, ok := strings.CutSuffix(num, "f"); ok && !s.hasFamily {
		if n, err := strconv.Atoi(base); err != nil || n < 100 || !s.hasSM103 {
			return false // no family-specific code below sm_100, or before CUDA 12.9
		}
		return s.has(kind + "_" + base)
	}
	return false
}

// missing returns the codes arch needs that the nvcc lacks.
func (s *support) missing(arch string) []string {
	num := archNum(arch)
	var out []string
	if !s.has("sm_" + num) {
		out = append(out, "sm_"+num)
	}
	if strings.HasSuffix(arch, ptxSuffix) && !s.has("compute_"+num) {
		out = append(out, "compute_"+num)
	}
	return out
}
