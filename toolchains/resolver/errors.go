package resolver

import (
	"fmt"
	"strings"
)

// ErrorKind classifies a SpecError.
type ErrorKind int

const (
	// ErrUnknownArch: an entry is not an arch PyTorch 2.11 knows (PyTorch
	// raises ValueError).
	ErrUnknownArch ErrorKind = iota + 1
	// ErrUnsupported: PyTorch knows the arch, but the local nvcc cannot
	// build it (Options.Supported lacks a code it needs).
	ErrUnsupported
	// ErrEmpty: the spec contains only separators.
	ErrEmpty
	// ErrNoGPUs: native mode, but no GPUs were visible.
	ErrNoGPUs
)

// SpecError reports a TORCH_CUDA_ARCH_LIST that cannot be resolved.
type SpecError struct {
	Kind ErrorKind
	// Spec is the whole TORCH_CUDA_ARCH_LIST value.
	Spec string
	// Native is true when the arches came from the GPUs (native mode).
	Native bool
	// Entry is the offending entry as the user wrote it (a token between
	// separators); in native mode, the arch derived from a GPU.
	Entry string
	// Expanded is what Entry became after named-arch substitution, when
	// that differs from Entry.
	Expanded string
	// Arch is the offending arch string after substitution (the entry
	// PyTorch would name in its error).
	Arch string
	// Missing are the codes (sm_XY, compute_XY) the nvcc lacks
	// (ErrUnsupported).
	Missing []string
	// Supported is Options.Supported (ErrUnsupported).
	Supported []string
	// Toolkit is Options.Toolkit (ErrUnsupported).
	Toolkit string
}

// Error returns a one-line message naming the entry, the whole spec and
// what is accepted (or, for ErrUnsupported, what the nvcc supports).
func (e *SpecError) Error() string {
	var subject string
	switch {
	case e.Spec == "":
		subject = "TORCH_CUDA_ARCH_LIST (unset or empty)"
	default:
		subject = fmt.Sprintf("TORCH_CUDA_ARCH_LIST=%q", e.Spec)
	}
	return subject + ": " + e.detail()
}

// detail is the message without the spec, for per-token tables.
func (e *SpecError) detail() string {
	entry := fmt.Sprintf("%q", e.Entry)
	if e.Expanded != "" {
		entry += fmt.Sprintf(" (expands to %q)", e.Expanded)
	}
	switch e.Kind {
	case ErrUnknownArch:
		if e.Native {
			return fmt.Sprintf("native: CUDA arch %s of a visible GPU is not one PyTorch 2.11 knows; set TORCH_CUDA_ARCH_LIST to the arches to build; accepted: %s", entry, accepted)
		}
		hint := ""
		if e.Entry == "native" {
			hint = " (\"native\" must be the whole list)"
		} else if e.Arch != e.Entry && e.Arch != e.Expanded {
			hint = fmt.Sprintf(" (bad part %q)", e.Arch)
		}
		return fmt.Sprintf("unknown CUDA arch %s%s; accepted: %s", entry, hint, accepted)
	case ErrUnsupported:
		what := "CUDA arch " + entry
		if e.Native {
			what = "CUDA arch " + entry + " of a visible GPU"
		}
		sup := "nothing"
		if len(e.Supported) > 0 {
			sup = strings.Join(e.Supported, " ")
		}
		tk := "this nvcc"
		if e.Toolkit != "" {
			tk = e.Toolkit
		}
		return fmt.Sprintf("%s needs %s, which %s cannot build; it supports: %s", what, strings.Join(e.Missing, " and "), tk, sup)
	case ErrEmpty:
		return "empty arch list (only separators); accepted: " + accepted
	case ErrNoGPUs:
		return "no GPUs were visible to pick arches for; set TORCH_CUDA_ARCH_LIST to the arches to build, e.g. \"8.0;9.0+PTX\"; accepted: " + accepted
	}
	return "invalid arch list"
}
