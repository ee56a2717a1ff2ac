package cuda

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"

	"github.com/rules-cuda-go/rules_cuda_go/gazelle/cuda/internal/cpp"
)

// codeFacts are what a compile needs that a file's code shows, besides its includes: the first
// line of each, 0 for none. Comments, string and character literals and preprocessor directives
// are skipped; conditional compilation is not evaluated.
type codeFacts struct {
	// ExtendedLambda is a lambda annotated __device__ (or __host__ __device__): nvcc compiles it
	// only with --extended-lambda.
	ExtendedLambda int
	// DeviceCode is a kernel definition (a __global__ function with a body), a kernel launch
	// (<<<) or a use of the device's built-in variables or barriers (threadIdx, __syncthreads):
	// code that only a CUDA compile accepts.
	DeviceCode int
	// DriverCall is a call of a CUDA driver API function (cuInit, cuMemAlloc, cuModuleLoad, ...;
	// not cuComplex's cuCadd and friends, nor cuFile's).
	DriverCall int
}

var (
	// A lambda's capture list, then optionally its parameters and mutable, then the annotation:
	// [=] __device__ (int i) {...}, [] (int i) __host__ __device__ {...}.
	extendedLambdaRE = regexp.MustCompile(`\[[^\[\]{};]*\]\s*(?:\([^()]*(?:\([^()]*\)[^()]*)*\)\s*)?(?:mutable\s+)?(?:__host__\s+)?__device__\b`)
	deviceCodeRE     = regexp.MustCompile(`<<<|\b(?:threadIdx|blockIdx|blockDim|gridDim|__syncthreads\w*|__syncwarp)\b|\b__global__\b[^;{}]*\)[^;{}]*\{`)
	driverCallRE     = regexp.MustCompile(`\bcu[A-Z]\w*\s*\(`)
	// Functions named cu[A-Z]... that are not the driver's: cuComplex.h's and cuFile's.
	notDriverRE = regexp.MustCompile(`^cu(?:C(?:real|imag|add|sub|mul|div|abs|fma)|Conj|Complex|File)`)
)

// scanCode returns the codeFacts of one source or header.
func scanCode(src []byte) codeFacts {
	clean, starts := cpp.StripComments(src)
	text := cpp.BlankLiterals(cpp.BlankDirectives(clean))
	lineOf := func(i int) int {
		return starts[bytes.Count(text[:i], []byte("\n"))]
	}
	var f codeFacts
	if m := extendedLambdaRE.FindIndex(text); m != nil {
		f.ExtendedLambda = lineOf(m[0])
	}
	if m := deviceCodeRE.FindIndex(text); m != nil {
		f.DeviceCode = lineOf(m[0])
	}
	for _, m := range driverCallRE.FindAllIndex(text, -1) {
		if !notDriverRE.Match(text[m[0]:m[1]]) {
			f.DriverCall = lineOf(m[0])
			break
		}
	}
	return f
}

// codeFactCache holds the codeFacts of the repository's files, by workspace-relative path, each
// scanned once per run: the headers that a directory's compiles reach are shared by many
// directories.
type codeFactCache struct {
	root  string
	facts map[string]codeFacts
}

// newCodeFactCache returns an empty cache for the repository at root.
func newCodeFactCache(root string) *codeFactCache {
	return &codeFactCache{root: root, facts: map[string]codeFacts{}}
}

// of returns the codeFacts of the repository file rel (none when it cannot be read).
func (fc *codeFactCache) of(rel string) codeFacts {
	if f, ok := fc.facts[rel]; ok {
		return f
	}
	var f codeFacts
	if src, err := os.ReadFile(filepath.Join(fc.root, filepath.FromSlash(rel))); err == nil {
		f = scanCode(src)
	}
	fc.facts[rel] = f
	return f
}

// sourceFile is one file of a directory and what its text shows, each fact computed on first
// use: its content, its structure (main(), kernel launches from device code, device code
// defined elsewhere), the definitions it exports and the identifiers it uses, its #include lines.
type sourceFile struct {
	// src is the content; nil when the file cannot be read (one that another rule generates).
	src []byte

	scanned bool
	scan    cpp.SourceFacts
	defsSet bool
	defs    []cpp.Symbol
	idents  map[string]bool
}

// readable reports whether the file could be read.
func (f *sourceFile) readable() bool { return f.src != nil }

// facts returns what cpp.ScanSource finds in the file (nothing for an unreadable one).
func (f *sourceFile) facts() cpp.SourceFacts {
	if !f.scanned && f.src != nil {
		f.scan = cpp.ScanSource(f.src)
	}
	f.scanned = true
	return f.scan
}

// definesMain reports whether the file defines a top-level main().
func (f *sourceFile) definesMain() bool { return f.facts().DefinesMain }

// definitions returns the file's definitions with external linkage that no #if group encloses
// (see cpp.ScanDefinitions).
func (f *sourceFile) definitions() []cpp.Symbol {
	if !f.defsSet && f.src != nil {
		for _, s := range cpp.ScanDefinitions(f.src) {
			if !s.Conditional {
				f.defs = append(f.defs, s)
			}
		}
	}
	f.defsSet = true
	return f.defs
}

// mentions reports whether the file's code uses the identifier name.
func (f *sourceFile) mentions(name string) bool {
	if f.idents == nil && f.src != nil {
		f.idents = cpp.Identifiers(f.src)
	}
	return f.idents[name]
}

// includes returns the file's #include lines, conditional ones included.
func (f *sourceFile) includes() []cpp.Include {
	if f.src == nil {
		return nil
	}
	return cpp.ParseIncludes(f.src)
}

// dirSources are the files of one directory that gazelle reads, by name in the directory, each
// read once.
type dirSources struct {
	dir   string
	files map[string]*sourceFile
}

// newDirSources returns the sources of the directory dir (a path on disk), none read yet.
func newDirSources(dir string) *dirSources {
	return &dirSources{dir: dir, files: map[string]*sourceFile{}}
}

// file returns file f of the directory.
func (s *dirSources) file(f string) *sourceFile {
	sf, ok := s.files[f]
	if !ok {
		src, err := os.ReadFile(filepath.Join(s.dir, filepath.FromSlash(f)))
		if err != nil {
			src = nil
		}
		sf = &sourceFile{src: src}
		s.files[f] = sf
	}
	return sf
}

// read returns the content of file f; false when it cannot be read.
func (s *dirSources) read(f string) ([]byte, bool) {
	src := s.file(f).src
	return src, src != nil
}
