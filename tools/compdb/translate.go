package main

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
)

// An action is what the translation needs of one action of `bazel aquery --output=jsonproto`.
type action struct {
	Mnemonic  string   `json:"mnemonic"`
	Arguments []string `json:"arguments"`
	Env       []struct {
		Key   string `json:"key"`
		Value string `json:"value"`
	} `json:"environmentVariables"`
}

// An entry is one compile_commands.json entry (clang's JSON compilation database).
type entry struct {
	Directory string   `json:"directory"`
	File      string   `json:"file"`
	Arguments []string `json:"arguments"`
	Output    string   `json:"output,omitempty"`
}

// options are the translation's settings.
type options struct {
	execRoot   string // the entries' directory: Bazel's execution root
	outputBase string // Bazel's output base: external/REPO paths are made absolute under it
	clang      string // the compiler named in the entries (clangd reads the flags, not the binary)
	arch       string // --cuda-gpu-arch for every .cu file, e.g. sm_90 ("": the newest real arch the action builds, at most maxArch)
	maxArch    int    // the newest arch the default picks, e.g. 86 (clangd 14 knows up to sm_86)
}

var gencodeSMRE = regexp.MustCompile(`code=\[?(?:[a-z_0-9]+,)*sm_(\d+a?)`)

// nvccDropWithValue are nvcc options that take a value (as the next argument) and mean nothing to
// clang: host-compiler choice, nvcc's temporary files, the device code generation.
var nvccDropWithValue = map[string]bool{
	"-ccbin": true, "--compiler-bindir": true, "-Xcudafe": true, "-Xptxas": true, "-Xnvlink": true,
	"-Xfatbin": true, "-gencode": true, "--generate-code": true, "-arch": true, "--gpu-architecture": true,
	"-code": true, "--gpu-code": true, "-t": true, "--threads": true, "-diag-suppress": true,
	"--diag-suppress": true, "-o": true, "--output-file": true, "-x": true, "-ftemplate-depth": false,
}

// nvccDropFlags are nvcc options without a value that clang does not take.
var nvccDropFlags = map[string]bool{
	"-objtemp": true, "-lineinfo": true, "--generate-line-info": true, "-G": true, "--device-debug": true,
	"-c": true, "--compile": true, "-dc": true, "-dw": true, "--expt-relaxed-constexpr": true,
	"--expt-extended-lambda": true, "--extended-lambda": true, "-Wno-deprecated-gpu-targets": true,
	"--keep": true, "-keep": true, "-MD": true, "-MMD": true, "--resource-usage": true, "-res-usage": true,
}

// gccOnly are host-compiler options that clang rejects or warns about.
var gccOnly = map[string]bool{
	"-fno-canonical-system-headers": true, "-fno-tree-loop-distribute-patterns": true,
	"-Wno-free-nonheap-object": true, "-Wunused-but-set-parameter": true, "-fcf-protection": false,
}

// nvccCommand is nvcc's command line in an nvcc compile action: the whole of an NvccCompile
// action's, or in an NvccHost action's (nvcc_split.sh host NVCC STUB ASM STANDIN_C KIND:SM=FILE... --
// ARGS...) NVCC followed by ARGS, the compile that the split's actions do together.
func nvccCommand(a action) ([]string, error) {
	args := a.Arguments
	if a.Mnemonic != "NvccHost" {
		return args, nil
	}
	for i, s := range args {
		if s == "--" && i >= 3 {
			return append([]string{args[2]}, args[i+1:]...), nil
		}
	}
	return nil, fmt.Errorf("NvccHost action without nvcc_split.sh's NVCC ... -- ARGS: %q", args)
}

// translateNvcc turns an nvcc compile action (NvccCompile, or the NvccHost action of a split
// compile) into a clang CUDA entry.
func translateNvcc(a action, o options) (entry, error) {
	args, err := nvccCommand(a)
	if err != nil {
		return entry{}, err
	}
	if len(args) < 2 {
		return entry{}, fmt.Errorf("%s action with no arguments", a.Mnemonic)
	}
	nvcc := args[0]
	// nvcc is TOOLKIT/bin/nvcc: clang's --cuda-path is TOOLKIT.
	cudaPath := o.abs(path.Dir(path.Dir(nvcc)))
	if !path.IsAbs(cudaPath) {
		cudaPath = path.Join(o.execRoot, cudaPath)
	}
	var src, out string
	var flags []string
	var archs []string
	rdc := false
	for i := 1; i < len(args); i++ {
		a := args[i]
		next := func() string {
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		name, value, hasValue := strings.Cut(a, "=")
		switch {
		case a == "-c":
			src = next()
		case a == "-o":
			out = next()
		case a == "-Xcompiler" || a == "--compiler-options":
			for _, f := range strings.Split(next(), ",") {
				if f != "" && !gccOnly[f] {
					flags = append(flags, f)
				}
			}
		case strings.HasPrefix(a, "-gencode") || strings.HasPrefix(a, "--generate-code"):
			v := value
			if !hasValue {
				v = next()
			}
			if m := gencodeSMRE.FindStringSubmatch(v); m != nil {
				archs = append(archs, "sm_"+m[1])
			}
		case (name == "-arch" || name == "--gpu-architecture") && hasValue && strings.HasPrefix(value, "sm_"):
			archs = append(archs, value)
		case name == "-rdc" || name == "--relocatable-device-code":
			rdc = value == "true"
		case a == "-dc":
			rdc = true
		case a == "--use_fast_math" || a == "-use_fast_math":
			flags = append(flags, "-ffast-math")
		case name == "-std" || name == "--std":
			flags = append(flags, "-std="+value)
		case nvccDropWithValue[name] && !hasValue:
			next()
		case nvccDropWithValue[name], nvccDropFlags[a]:
		case strings.HasPrefix(a, "-I") || strings.HasPrefix(a, "-D") || strings.HasPrefix(a, "-U") ||
			a == "-isystem" || a == "-iquote" || a == "-include":
			flags = append(flags, a)
			if len(a) == 2 || a == "-isystem" || a == "-iquote" || a == "-include" {
				flags = append(flags, next())
			}
		case strings.HasPrefix(a, "-O") || a == "-g" || strings.HasPrefix(a, "-W") || strings.HasPrefix(a, "-f") || strings.HasPrefix(a, "-m"):
			flags = append(flags, a)
		default:
			// Anything else is nvcc's own (--keep-dir, -forward-unknown-to-host-compiler, ...): dropped.
		}
	}
	if src == "" {
		return entry{}, fmt.Errorf("NvccCompile action without -c SOURCE: %q", args)
	}
	arch := o.arch
	if arch == "" {
		arch = newest(archs, o.maxArch)
	}
	language := "cuda"
	if ext := path.Ext(src); ext != ".cu" && ext != ".cuh" {
		language = "c++" // .cc helpers of a cu_library: host C++ with the CUDA headers
	}
	cmd := []string{o.clang, "-x", language}
	if language == "cuda" {
		cmd = append(cmd, "--cuda-path="+cudaPath, "--no-cuda-version-check", "-nocudalib")
		if arch != "" {
			cmd = append(cmd, "--cuda-gpu-arch="+arch)
		}
		if rdc {
			cmd = append(cmd, "-fgpu-rdc")
		}
	}
	if !hasStd(flags) {
		cmd = append(cmd, "-std=c++17") // nvcc's default dialect
	}
	for _, f := range flags {
		cmd = append(cmd, o.abs(f))
	}
	cmd = append(cmd, "-c", src)
	if out != "" {
		cmd = append(cmd, "-o", out)
	}
	return entry{Directory: o.execRoot, File: src, Arguments: cmd, Output: out}, nil
}

func hasStd(flags []string) bool {
	for _, f := range flags {
		if strings.HasPrefix(f, "-std=") {
			return true
		}
	}
	return false
}

// newest returns the highest sm_XY of archs, clamped to sm_max when max > 0 ("" for none).
func newest(archs []string, max int) string {
	bestN := -1
	for _, a := range archs {
		var n int
		fmt.Sscanf(strings.TrimPrefix(a, "sm_"), "%d", &n)
		if max > 0 && n > max {
			n = max
		}
		if n > bestN {
			bestN = n
		}
	}
	if bestN < 0 {
		return ""
	}
	return fmt.Sprintf("sm_%d", bestN)
}

// abs makes a path into an external repository (external/REPO/..., also after -I, -isystem's
// value, --sysroot=) absolute under the output base: the execution root holds links only to the
// repositories that its last build used.
func (o options) abs(arg string) string {
	if o.outputBase == "" {
		return arg
	}
	for _, prefix := range []string{"", "-I", "-iquote", "--sysroot=", "-isysroot"} {
		if strings.HasPrefix(arg, prefix+"external/") {
			return prefix + path.Join(o.outputBase, strings.TrimPrefix(arg, prefix))
		}
	}
	return arg
}

// translateCpp keeps a CppCompile action (a cc_library's C or C++ file) as it is, less the
// options only gcc takes.
func translateCpp(a action, o options) (entry, error) {
	var src, out string
	cmd := []string{o.clang}
	args := a.Arguments
	for i := 1; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-c" && i+1 < len(args):
			i++
			src = args[i]
			cmd = append(cmd, "-c", src)
		case a == "-o" && i+1 < len(args):
			i++
			out = args[i]
			cmd = append(cmd, "-o", out)
		case gccOnly[a]:
		default:
			cmd = append(cmd, o.abs(a))
		}
	}
	if src == "" {
		return entry{}, fmt.Errorf("CppCompile action without -c SOURCE")
	}
	if strings.HasSuffix(src, ".c") {
		cmd[0] = strings.TrimSuffix(o.clang, "++")
	}
	return entry{Directory: o.execRoot, File: src, Arguments: cmd, Output: out}, nil
}

// translateCgo makes entries for the C and C++ files of a cgo package (GoCompilePkg: -src FILE,
// -cppflags "...", -cflags "...", -cxxflags "...").
func translateCgo(a action, o options) []entry {
	var srcs []string
	var cppflags, cflags, cxxflags []string
	args := a.Arguments
	for i := 0; i+1 < len(args); i++ {
		switch args[i] {
		case "-src":
			srcs = append(srcs, args[i+1])
		case "-cppflags":
			cppflags = splitQuoted(args[i+1])
		case "-cflags":
			cflags = splitQuoted(args[i+1])
		case "-cxxflags":
			cxxflags = splitQuoted(args[i+1])
		}
	}
	var entries []entry
	for _, s := range srcs {
		var cmd []string
		switch path.Ext(s) {
		case ".c":
			cmd = append([]string{strings.TrimSuffix(o.clang, "++"), "-x", "c"}, cppflags...)
			cmd = append(cmd, cflags...)
		case ".cc", ".cpp", ".cxx":
			cmd = append([]string{o.clang, "-x", "c++"}, cppflags...)
			cmd = append(cmd, cxxflags...)
		default:
			continue
		}
		var keep []string
		for _, f := range cmd {
			if !gccOnly[f] {
				keep = append(keep, o.abs(f))
			}
		}
		entries = append(entries, entry{Directory: o.execRoot, File: s, Arguments: append(keep, "-c", s)})
	}
	return entries
}

// splitQuoted splits rules_go's quote_opts string: options joined by spaces, those with spaces
// single-quoted.
func splitQuoted(s string) []string {
	var out []string
	var cur strings.Builder
	inQuote, any := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			inQuote, any = !inQuote, true
		case r == ' ' && !inQuote:
			if any {
				out = append(out, cur.String())
			}
			cur.Reset()
			any = false
		default:
			cur.WriteRune(r)
			any = true
		}
	}
	if any {
		out = append(out, cur.String())
	}
	return out
}

// translate turns aquery's actions into entries, one per source file (the first action wins, in
// the order of the sorted output paths, so that the result does not depend on aquery's order).
func translate(actions []action, o options) ([]entry, []error) {
	var entries []entry
	var errs []error
	for _, a := range actions {
		switch a.Mnemonic {
		case "NvccCompile", "NvccHost":
			e, err := translateNvcc(a, o)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			entries = append(entries, e)
		case "CppCompile":
			e, err := translateCpp(a, o)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			entries = append(entries, e)
		case "GoCompilePkg", "GoCompilePkgExternal":
			entries = append(entries, translateCgo(a, o)...)
		}
	}
	sort.SliceStable(entries, func(i, j int) bool {
		if entries[i].File != entries[j].File {
			return entries[i].File < entries[j].File
		}
		return entries[i].Output < entries[j].Output
	})
	var uniq []entry
	for _, e := range entries {
		if len(uniq) > 0 && uniq[len(uniq)-1].File == e.File {
			continue
		}
		uniq = append(uniq, e)
	}
	return uniq, errs
}
