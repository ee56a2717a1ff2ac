package jit

import (
	"fmt"
	"regexp"
	"strconv"
)

// Arch is a GPU architecture as NVRTC's -arch names its real form: "sm_90", "sm_90a", "sm_120".
// Compiling to a CUBIN uses it as is; compiling to PTX uses the virtual architecture of the same
// number ("compute_90").
type Arch string

var archRE = regexp.MustCompile(`^(?:sm_|compute_)?(\d{2,3})([af]?)$|^(\d+)\.(\d)([af]?)$`)

// ArchOf returns the architecture of a device of compute capability major.minor ("sm_90" for 9.0).
func ArchOf(major, minor int) Arch { return Arch(fmt.Sprintf("sm_%d%d", major, minor)) }

// ParseArch accepts "sm_90", "compute_90", "90", "9.0" and the arch-specific forms "sm_90a",
// "9.0a" (and family-specific "sm_100f"), and returns the real architecture ("sm_90", "sm_90a").
func ParseArch(s string) (Arch, error) {
	m := archRE.FindStringSubmatch(s)
	if m == nil {
		return "", fmt.Errorf("jit: invalid GPU architecture %q; want e.g. sm_90, sm_90a, compute_90 or 9.0", s)
	}
	if m[1] != "" {
		return Arch("sm_" + m[1] + m[2]), nil
	}
	return Arch("sm_" + m[3] + m[4] + m[5]), nil
}

// number returns the compute capability as major*10+minor (90 for sm_90 and sm_90a).
func (a Arch) number() (int, error) {
	m := archRE.FindStringSubmatch(string(a))
	if m == nil || m[1] == "" {
		return 0, fmt.Errorf("jit: invalid GPU architecture %q; want e.g. sm_90 (see ParseArch)", string(a))
	}
	return strconv.Atoi(m[1])
}

// flag returns NVRTC's -arch option for a CUBIN (sm_XY) or PTX (compute_XY).
func (a Arch) flag(format Format) string {
	if format == PTX {
		return "-arch=compute_" + string(a)[len("sm_"):]
	}
	return "-arch=" + string(a)
}

// check returns an error unless NVRTC can compile for a.
func (a Arch) check() error {
	n, err := a.number()
	if err != nil {
		return err
	}
	archs, err := SupportedArchs()
	if err != nil {
		return err
	}
	for _, s := range archs {
		if s == n {
			return nil
		}
	}
	v, _ := Version()
	return fmt.Errorf("jit: NVRTC %s cannot compile for %s; it supports sm_%v", v, a, archs)
}

// Format is what Compile produces.
type Format int

const (
	// CUBIN is machine code (SASS) for exactly one architecture: no JIT step in the driver, so it
	// also loads where the driver is older than NVRTC. The default.
	CUBIN Format = iota
	// PTX is virtual-ISA text the driver compiles for the GPU at hand when it loads it; it needs a
	// driver at least as new as NVRTC.
	PTX
)

// String returns "cubin" or "ptx".
func (f Format) String() string {
	switch f {
	case CUBIN:
		return "cubin"
	case PTX:
		return "ptx"
	}
	return fmt.Sprintf("Format(%d)", int(f))
}
