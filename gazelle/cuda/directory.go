package cuda

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bazelbuild/bazel-gazelle/config"
	"github.com/bazelbuild/bazel-gazelle/language"
	"github.com/bazelbuild/bazel-gazelle/rule"

	"github.com/rules-cuda-go/rules_cuda_go/gazelle/cuda/internal/cpp"
)

// dirInput is what one directory offers the rules planned for it: its configuration, its
// existing build file and the rules other extensions generate, its files sorted by kind (minus
// those that other rules claim), and the caches of facts read from them. newDirInput builds it;
// the planning functions only read it.
type dirInput struct {
	rel, dir string
	c        *config.Config
	cc       *cudaConfig
	// file is the existing build file, nil for none; otherGen are the rules other extensions
	// generate for the directory; genFiles the files that rules generate; regularFiles the
	// directory's regular files.
	file                   *rule.File
	otherGen               []*rule.Rule
	genFiles, regularFiles []string

	// existingCu are the cu_library rules of the existing build file.
	existingCu []*rule.Rule
	// cuSrcs, hostSrcs and headers are the directory's .cu files, C++ sources and headers that
	// no other rule claims (see newDirInput) and no cuda_program directive lists.
	cuSrcs, hostSrcs, headers []string
	// textualSrcs are .cu files that a source includes (see splitTextual): textual_hdrs.
	textualSrcs []string
	// hasCuda: the directory has .cu or .cuh files that are not another rule's.
	hasCuda bool
	// wanted: the directory gets CUDA rules (see wantsLibrary).
	wanted bool

	// srcs are the directory's files as read, with their facts; pp reads the includes that
	// compiles of them reach; codeFacts are the facts of the repository files they reach.
	srcs      *dirSources
	pp        *preprocessor
	codeFacts *codeFactCache
}

// newDirInput describes the directory of args with configuration cc. included returns the
// repository's source files that other sources include (see includedSources); it is called once
// the directory's files are sorted.
func newDirInput(args language.GenerateArgs, cc *cudaConfig, pp *preprocessor, codeFacts *codeFactCache, included func() map[string]bool) *dirInput {
	d := &dirInput{
		rel:          args.Rel,
		dir:          args.Dir,
		c:            args.Config,
		cc:           cc,
		file:         args.File,
		otherGen:     args.OtherGen,
		genFiles:     args.GenFiles,
		regularFiles: args.RegularFiles,
		srcs:         newDirSources(args.Dir),
		pp:           pp,
		codeFacts:    codeFacts,
	}
	if d.file != nil {
		for _, r := range d.file.Rules {
			if d.isKind(r, cuLibraryKind) {
				d.existingCu = append(d.existingCu, r)
			}
		}
	}
	claimedSrcs, claimedHdrs := d.claimedFiles()

	seen := map[string]bool{}
	files := concat(args.RegularFiles, args.GenFiles)
	sort.Strings(files)
	for _, f := range files {
		if seen[f] || strings.Contains(f, "/") {
			continue
		}
		seen[f] = true
		ext := path.Ext(f)
		switch {
		case cudaSourceExts[ext] && !claimedSrcs[f]:
			d.cuSrcs = append(d.cuSrcs, f)
			d.hasCuda = true
		case hostSourceExts[ext] && !claimedSrcs[f]:
			d.hostSrcs = append(d.hostSrcs, f)
		case headerExts[ext] && !claimedHdrs[f]:
			d.headers = append(d.headers, f)
			if ext == ".cuh" {
				d.hasCuda = true
			}
		}
	}
	d.wanted = wantsLibrary(d)
	// The sources of cuda_program directives are their programs' (see directivePrograms).
	if listed := cc.programFiles(); len(listed) > 0 {
		d.cuSrcs = without(d.cuSrcs, listed)
		d.hostSrcs = without(d.hostSrcs, listed)
	}
	d.splitTextual(included())
	return d
}

// claimedFiles returns the files that rules other than cu_library list (Go rules included: cgo
// compiles the .cc files of its package), and the headers that a cc_library lists (only a library
// provides headers: not a Go rule, which lists every header of its cgo directory, nor a
// cu_device_image, whose hdrs are just its inputs).
func (d *dirInput) claimedFiles() (srcs, hdrs map[string]bool) {
	srcs, hdrs = map[string]bool{}, map[string]bool{}
	claim := func(r *rule.Rule) {
		if d.isKind(r, cuLibraryKind) {
			return
		}
		// Only a library provides its headers: a header that a cc_library lists is that
		// library's, while one that another rule lists (a cu_device_image's or a cc_binary's
		// hdrs, a Go rule's srcs) is just an input of it, and the directory's cu_library still
		// provides it. Imports indexes the headers of the same two kinds.
		providesHdrs := d.isKind(r, ccLibraryKind)
		for _, key := range []string{"srcs", "hdrs", "textual_hdrs"} {
			// Files listed with glob() are claimed too; what cannot be evaluated is not.
			files, _ := attrFiles(r, key, d.dir, d.c.ValidBuildFileNames)
			for _, f := range localFiles(files) {
				if headerExts[path.Ext(f)] {
					if providesHdrs {
						hdrs[f] = true
					}
				} else {
					srcs[f] = true
				}
			}
		}
	}
	if d.file != nil {
		for _, r := range d.file.Rules {
			claim(r)
		}
	}
	for _, r := range d.otherGen {
		claim(r)
	}
	return srcs, hdrs
}

// splitTextual moves the source files of the directory that a source includes (a source of the
// directory, or of another package: see includedSources) from the sources that the directory's
// rules compile to textualSrcs, the textual_hdrs of its library. One that defines main() stays a
// source too: it is a program of its own that other programs include.
func (d *dirInput) splitTextual(included map[string]bool) {
	split := func(srcs []string) []string {
		var kept []string
		for _, f := range srcs {
			if !included[path.Join(d.rel, f)] {
				kept = append(kept, f)
				continue
			}
			d.textualSrcs = append(d.textualSrcs, f)
			if d.srcs.file(f).definesMain() {
				kept = append(kept, f)
			}
		}
		return kept
	}
	d.cuSrcs = split(d.cuSrcs)
	d.hostSrcs = split(d.hostSrcs)
	sort.Strings(d.textualSrcs)
}

// wantsLibrary reports whether the directory gets a cu_library: it has .cu or .cuh files; or it
// is an include directory (see isIncludeDir) with headers; or its headers or host sources
// (.cc, .cpp, .cxx), or the repository's headers they include, include a CUDA toolkit header or
// a .cuh header. A directory of plain C++ gets nothing.
func wantsLibrary(d *dirInput) bool {
	if d.hasCuda {
		return true
	}
	if len(d.headers) > 0 && d.isIncludeDir() {
		return true
	}
	for _, f := range concat(d.headers, d.hostSrcs) {
		cuda := false
		d.walkIncludes(f, func(_ string, inc cpp.Include, _ string, _ bool) bool {
			_, toolkit := toolkitHeader(inc.Path)
			cuda = toolkit || path.Ext(inc.Path) == ".cuh"
			return !cuda
		})
		if cuda {
			return true
		}
	}
	return false
}

// isIncludeDir reports whether the directory is one that other code includes headers from by
// their names alone: the directory of a cuda_include_dir directive, or a directory named include
// or inc next to CUDA code (its parent or a sibling directory has .cu or .cuh files).
func (d *dirInput) isIncludeDir() bool {
	if d.cc.isIncludeDir(d.rel) {
		return true
	}
	base := path.Base(d.rel)
	if d.rel == "" || (base != "include" && base != "inc") {
		return false
	}
	parent := filepath.Dir(d.dir)
	if hasCudaFiles(parent) {
		return true
	}
	entries, err := os.ReadDir(parent)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.IsDir() && e.Name() != base && hasCudaFiles(filepath.Join(parent, e.Name())) {
			return true
		}
	}
	return false
}

// hasCudaFiles reports whether the directory dir (a path on disk) has .cu or .cuh files.
func hasCudaFiles(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if ext := path.Ext(e.Name()); !e.IsDir() && (ext == ".cu" || ext == ".cuh") {
			return true
		}
	}
	return false
}

// walkIncludes calls visit for each #include that a compile of file f of the directory reaches
// (see preprocessor.walkIncludes); nothing for a file that cannot be read.
func (d *dirInput) walkIncludes(f string, visit func(from string, inc cpp.Include, located string, found bool) bool) {
	src, ok := d.srcs.read(f)
	if !ok {
		return
	}
	d.pp.walkIncludes(d.cc, path.Join(d.rel, f), src, visit)
}

// isKind reports whether r is a rule of the given kind, directly or through # gazelle:alias_kind.
func (d *dirInput) isKind(r *rule.Rule, kind string) bool {
	return r.Kind() == kind || d.c.AliasMap[r.Kind()] == kind
}

// isGoLibrary reports whether r is a go_library (or a go_cuda_library).
func (d *dirInput) isGoLibrary(r *rule.Rule) bool {
	return d.isKind(r, "go_library") || r.Kind() == goCudaLibraryKind
}

// buildPath returns the path of the directory's build file, for log lines.
func (d *dirInput) buildPath() string {
	if d.file != nil {
		return d.file.Path
	}
	return filepath.Join(d.dir, d.c.DefaultBuildFileName())
}

// rules returns the rules of the existing build file (none without one).
func (d *dirInput) rules() []*rule.Rule {
	if d.file == nil {
		return nil
	}
	return d.file.Rules
}

// dirname is the base name of the directory ({dirname} of the naming patterns); the repository's
// name at the root.
func (d *dirInput) dirname() string {
	if d.rel == "" {
		if d.c.RepoName != "" {
			return d.c.RepoName
		}
		return path.Base(d.c.RepoRoot)
	}
	return path.Base(d.rel)
}

// wantedName returns the name the naming pattern gives the directory's library, with "_cu"
// appended when another rule of the directory (the Go library) has that name.
func (d *dirInput) wantedName() string {
	want := d.cc.libraryName(d.dirname())
	for _, r := range d.otherGen {
		if r.Name() == want {
			return want + "_cu"
		}
	}
	for _, r := range d.rules() {
		if r.Name() == want && !d.isKind(r, cuLibraryKind) {
			return want + "_cu"
		}
	}
	return want
}

// exists reports whether file f of the directory exists or a rule generates it.
func (d *dirInput) exists(f string) bool {
	for _, gf := range d.genFiles {
		if gf == f {
			return true
		}
	}
	_, err := os.Stat(filepath.Join(d.dir, filepath.FromSlash(f)))
	return err == nil
}
