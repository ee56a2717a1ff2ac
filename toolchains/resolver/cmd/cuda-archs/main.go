// Command cuda-archs resolves a TORCH_CUDA_ARCH_LIST value into nvcc
// -gencode flags with PyTorch 2.11's semantics, one flag per line.
//
//	cuda-archs [--supported CODES] [--supported-file FILE] [--toolkit NAME] [--gpus CAPS] [--explain] [--bzl] [ARCH_LIST]
//
// An absent or empty ARCH_LIST, or "native", means the GPUs given by
// --gpus. Several ARCH_LIST arguments are joined with spaces (which separate
// entries like ';'). --supported (comma-separated codes such as sm_80 or
// compute_90) and --supported-file (raw `nvcc --list-gpu-code` and/or
// `--list-gpu-arch` output) make entries the nvcc cannot build errors, and
// cap the GPUs' capabilities in native mode; --toolkit names their toolkit in
// the error for an arch it cannot build. --explain prints how each
// entry resolves; --bzl prints the Starlark token table (see
// resolver.BzlTable) and takes no ARCH_LIST. --detect finds the local CUDA
// toolkit (see toolkit.DetectToolkit: nvcc, its version and codes, the root,
// include directories, libraries by role and cuobjdump) and prints it as JSON;
// the local_cuda repository rule uses it.
//
// Exit status: 0 on success; 2 for invalid input (one line on stderr,
// starting "cuda-archs: ") or bad usage (with the usage text); 1 if the
// output cannot be written.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/rules-cuda-go/rules_cuda_go/toolchains/resolver"
	"github.com/rules-cuda-go/rules_cuda_go/toolchains/toolkit"
)

const usage = `usage: cuda-archs [flags] [ARCH_LIST]

Prints the nvcc -gencode flags for a TORCH_CUDA_ARCH_LIST value, one per
line, as PyTorch 2.11 computes them. ARCH_LIST absent, empty or "native"
means the GPUs given by --gpus.

flags:
  --supported CODES      comma-separated codes this nvcc supports (sm_80,compute_90,...)
  --supported-file FILE  the same, as raw output of nvcc --list-gpu-code / --list-gpu-arch
  --toolkit NAME         the toolkit those codes are of, for errors ("CUDA 13.5 (nvcc 13.5.37)")
  --gpus CAPS            comma-separated compute capabilities of the GPUs (9.0,8.6)
  --explain              print how each entry resolves
  --bzl                  print the Starlark token table (no ARCH_LIST)
  --detect               find the local CUDA toolkit and print it as JSON (no ARCH_LIST)
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the command without the process: it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("cuda-archs", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	supported := fs.String("supported", "", "")
	supportedFile := fs.String("supported-file", "", "")
	toolkitName := fs.String("toolkit", "", "")
	gpus := fs.String("gpus", "", "")
	explain := fs.Bool("explain", false, "")
	bzl := fs.Bool("bzl", false, "")
	detect := fs.Bool("detect", false, "")

	// Flags may come before or after ARCH_LIST.
	var positional []string
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprint(stdout, usage)
				return 0
			}
			fmt.Fprintf(stderr, "cuda-archs: %v\n%s", err, usage)
			return 2
		}
		consumed := len(rest) - len(fs.Args())
		afterDashDash := consumed > 0 && rest[consumed-1] == "--"
		rest = fs.Args()
		if afterDashDash {
			positional = append(positional, rest...)
			break
		}
		if len(rest) == 0 {
			break
		}
		positional = append(positional, rest[0])
		rest = rest[1:]
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })

	if *detect {
		if len(positional) > 0 || len(set) > 1 {
			fmt.Fprintf(stderr, "cuda-archs: --detect takes no other flag and no ARCH_LIST\n%s", usage)
			return 2
		}
		return runDetect(stdout, stderr)
	}
	if *bzl && (*explain || len(positional) > 0) {
		fmt.Fprintf(stderr, "cuda-archs: --bzl takes no ARCH_LIST and no --explain\n%s", usage)
		return 2
	}

	opt, err := options(set, *supported, *supportedFile, *gpus)
	opt.Toolkit = *toolkitName
	if err != nil {
		fmt.Fprintf(stderr, "cuda-archs: %s\n", oneLine(err.Error()))
		return 2
	}

	var out strings.Builder
	spec := strings.Join(positional, " ")
	switch {
	case *bzl:
		out.WriteString(resolver.BzlTable(opt))
	case *explain:
		rows, err := resolver.Explain(spec, opt)
		if err != nil {
			fmt.Fprintf(stderr, "cuda-archs: %s\n", specMessage(err))
			return 2
		}
		writeExplain(&out, rows)
	default:
		flags, err := resolver.Resolve(spec, opt)
		if err != nil {
			fmt.Fprintf(stderr, "cuda-archs: %s\n", specMessage(err))
			return 2
		}
		for _, f := range flags {
			out.WriteString(f + "\n")
		}
	}
	if _, err := io.WriteString(stdout, out.String()); err != nil {
		fmt.Fprintf(stderr, "cuda-archs: %s\n", oneLine(err.Error()))
		return 1
	}
	return 0
}

func options(set map[string]bool, supported, supportedFile, gpus string) (resolver.Options, error) {
	var opt resolver.Options
	if set["supported"] {
		codes, err := toolkit.ParseGPUCodeList(supported)
		if err != nil {
			return opt, fmt.Errorf("--supported: %w", err)
		}
		opt.Supported = append(opt.Supported, codes...)
	}
	if set["supported-file"] {
		data, err := os.ReadFile(supportedFile)
		if err != nil {
			return opt, fmt.Errorf("--supported-file: %w", err)
		}
		codes, err := toolkit.ParseGPUCodeList(string(data))
		if err != nil {
			return opt, fmt.Errorf("--supported-file %s: %w", supportedFile, err)
		}
		opt.Supported = append(opt.Supported, codes...)
	}
	for _, g := range strings.FieldsFunc(gpus, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\t' }) {
		c, err := resolver.ParseCapability(g)
		if err != nil {
			return opt, fmt.Errorf("--gpus: %w", err)
		}
		opt.GPUs = append(opt.GPUs, c)
	}
	return opt, nil
}

// writeExplain prints a table (entry, its arches, its flags one per line)
// and then the combined result.
func writeExplain(w io.Writer, rows []resolver.ExplainRow) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ENTRY\tARCHES\tFLAGS")
	var all []string
	for _, r := range rows {
		for i, f := range r.Flags {
			if i == 0 {
				fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Entry, strings.Join(r.Arches, ";"), f)
			} else {
				fmt.Fprintf(tw, "\t\t%s\n", f)
			}
		}
		all = append(all, r.Flags...)
	}
	tw.Flush()
	sort.Strings(all)
	all = slices.Compact(all)
	fmt.Fprintf(w, "\nresult (%d flags):\n", len(all))
	for _, f := range all {
		fmt.Fprintln(w, f)
	}
}

// specMessage is the one-line message for a Resolve or Explain error.
func specMessage(err error) string {
	msg := oneLine(err.Error())
	var se *resolver.SpecError
	if errors.As(err, &se) && se.Kind == resolver.ErrNoGPUs {
		msg += " (or pass --gpus)"
	}
	return msg
}

// oneLine keeps a message on one line.
func oneLine(s string) string {
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}

// runDetect prints toolkit.DetectToolkit's result as JSON. A missing toolkit is a result (its
// "error" field says where we looked), not a failure; an nvcc that does not work is a failure.
func runDetect(stdout, stderr io.Writer) int {
	tk, err := toolkit.DetectToolkit(os.Getenv)
	if err != nil {
		fmt.Fprintf(stderr, "cuda-archs: %s\n", oneLine(err.Error()))
		return 1
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(tk); err != nil {
		fmt.Fprintf(stderr, "cuda-archs: %s\n", oneLine(err.Error()))
		return 1
	}
	return 0
}
