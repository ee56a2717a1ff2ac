package jit

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Error is a failed NVRTC call other than a compile error.
type Error struct {
	Op   string // the NVRTC function, e.g. "nvrtcCreateProgram"
	Code int    // the nvrtcResult
	Name string // its name, e.g. "NVRTC_ERROR_INVALID_OPTION"
}

func (e *Error) Error() string {
	return fmt.Sprintf("jit: %s: %s (%d)", e.Op, e.Name, e.Code)
}

// Diagnostic is one message of NVRTC's log, e.g. `silu.cu(12): error: identifier "y" is undefined`.
type Diagnostic struct {
	File     string // the program name or an included header's name
	Line     int
	Severity string // "error", "warning", "catastrophic error", "remark", ...
	Message  string
}

func (d Diagnostic) String() string {
	return fmt.Sprintf("%s(%d): %s: %s", d.File, d.Line, d.Severity, d.Message)
}

// CompileError is a program NVRTC rejected. Log is NVRTC's whole log; Diagnostics are its
// messages with file and line, errors first.
type CompileError struct {
	Program     string // Program.Name
	Arch        Arch
	Options     []string // the options NVRTC got
	Log         string
	Diagnostics []Diagnostic
}

func (e *CompileError) Error() string {
	var errs []Diagnostic
	for _, d := range e.Diagnostics {
		if strings.Contains(d.Severity, "error") {
			errs = append(errs, d)
		}
	}
	switch {
	case len(errs) == 1:
		return fmt.Sprintf("jit: compiling %s for %s: %v", e.Program, e.Arch, errs[0])
	case len(errs) > 1:
		return fmt.Sprintf("jit: compiling %s for %s: %v (and %d more errors)", e.Program, e.Arch, errs[0], len(errs)-1)
	}
	return fmt.Sprintf("jit: compiling %s for %s failed:\n%s", e.Program, e.Arch, strings.TrimSpace(e.Log))
}

// NVRTC writes "file(line): severity: message"; severity may carry a "#number-D" code.
var diagRE = regexp.MustCompile(`^(.+?)\((\d+)\): ((?:catastrophic )?(?:error|warning|remark|fatal error))(?: #[\w-]+)?: (.*)$`)

// parseLog returns the diagnostics of an NVRTC log, errors before other messages.
func parseLog(log string) []Diagnostic {
	var errs, rest []Diagnostic
	for _, line := range strings.Split(log, "\n") {
		m := diagRE.FindStringSubmatch(strings.TrimRight(line, "\r"))
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		d := Diagnostic{File: m[1], Line: n, Severity: m[3], Message: m[4]}
		if strings.Contains(d.Severity, "error") {
			errs = append(errs, d)
		} else {
			rest = append(rest, d)
		}
	}
	return append(errs, rest...)
}
