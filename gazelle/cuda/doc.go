// Package cuda is a Gazelle language extension that generates and updates the cu_library rules of
// rules_cuda_go and wires them into Go packages (go_cuda_library).
//
// Add it to a gazelle_binary after Gazelle's own languages (it reads the Go library that the Go
// extension generated for the same directory):
//
//	load("@bazel_gazelle//:def.bzl", "DEFAULT_LANGUAGES", "gazelle", "gazelle_binary")
//
//	gazelle_binary(
//	    name = "gazelle_binary",
//	    languages = DEFAULT_LANGUAGES + ["@rules_cuda_go//gazelle/cuda"],
//	)
//
//	gazelle(
//	    name = "gazelle",
//	    gazelle = ":gazelle_binary",
//	)
//
// # What it generates
//
// A directory gets CUDA rules when it has .cu or .cuh files (that no other rule of its build file
// lists); or when it is an include directory (the directory of a cuda_include_dir directive, one
// named include or inc whose parent or a sibling directory has CUDA files, or one the
// repository's includes imply: see Implied include directories) and has headers;
// or when its headers or host sources (.cc, .cpp, .cxx, .c), or the repository's headers they
// include, include a CUDA toolkit header or a .cuh header. Header-only and host-only directories
// get cu_library rules too, not cc_library: their headers need the CUDA headers that a
// cu_library's compiles see, their .cpp files compile as host code like any cu_library
// helper, and cc_library stays free for a C++ extension (gazelle_cc) to own. A directory of plain
// C++ gets nothing.
//
// Its files go into three kinds of rules: programs, the directory's library, or, in a directory
// of headers, one library per header.
//
// # Programs
//
// A source that defines a top-level main() is a program. A directory's only program is part of
// the directory's library, and a cc_binary named by cuda_binary_naming ("{dirname}_bin") links
// it: deps = [":<cu_library>"]. In a directory with several (a folder of single-file kernel
// programs, benchmarks, library samples), each program gets a cu_library of its own,
// "<stem>_lib" with srcs = ["<stem>.cu"] (or .cpp, ...), and a cc_binary "<stem>" with
// deps = [":<stem>_lib"] ("<stem>_bin" and "<stem>_bin_lib" when another rule has one of those
// names); the program's library depends on what its includes resolve to and on the directory's
// library when that compiles sources (the program may call them through declarations of its
// own). cc_binary is loaded from rules_cc when the module has a rules_cc bazel_dep, else from
// rules_cuda_go's defs.bzl, which re-exports it. A new program's library starts with the copts, host_copts and local_defines of the
// directory's existing library, which compiled its source before. A new cc_binary gets
// target_compatible_with = requires_cuda(), so that a build without CUDA (--config=cpu) skips it
// instead of failing to link a main() it does not compile.
//
// An existing program pair, a cc_binary without srcs whose only dep is a cu_library (not the
// directory's library) with one source and no hdrs, keeps its names, for a directory's only
// program too (bench/floor: floor and floor_lib). A pair named as above whose source has no
// main() any more, or is gone, is deleted, and the source joins the directory's library; the
// directory's {dirname}_bin is deleted when the library has no main() any more (if its deps are
// still only that library). No binary is generated for a library that a cc_binary or cc_test of
// the build file lists in deps already. `# gazelle:cuda_binaries disabled` turns programs off:
// every source stays in the directory's library (but sources that define one symbol twice, see
// below), and existing binaries are left alone.
//
// One program per file around a shared main() (see engineFiles): when exactly one source defines
// main(), two or more others define the same symbols (at file scope, with external linkage,
// outside #if groups: see cpp.ScanDefinitions), the main() file does not, and a source that
// defines none of them uses each (common.cu reads the ncclTestEngine that all_reduce.cu,
// all_gather.cu, ... define), each defining file is a program as above, the other sources stay in
// the directory's library, and that library gets no {dirname}_bin. A program's library comes
// before the directory's library on the link line, so where it defines what the directory's
// library uses it gets alwayslink = True (unless the rule already says alwayslink). When
// the sources of one rule would define a symbol twice otherwise, those sources go into no rule and
// a log line names them and the symbol (see dropDuplicates).
//
// `# gazelle:cuda_program NAME FILE...` declares a program by hand: cu_library NAME_lib with srcs
// = the FILEs (taken out of the directory's library) and deps on what they include and on the
// directory's library, linked whole as above, and cc_binary NAME; both follow the directive on
// every run.
//
// # The directory's library
//
// The other sources and the headers go into one cu_library:
//
//   - name: the cuda_library_naming pattern, "{dirname}" by default. When another rule of the
//     directory already has that name (the Go library, which Gazelle names after the directory),
//     "_cu" is appended. An existing cu_library keeps its name: the one with the pattern's name,
//     else the only one that the directory's go_cuda_library lists in cu_deps, else the only
//     cu_library of the build file. A build file with several cu_library rules and none of these
//     (programs' and per-header rules aside) is left alone (hand-written variants, as in
//     tests/rules).
//   - srcs: the .cu files, and the .cc, .cpp, .cxx and .c files (host code, which cu_library
//     compiles with the C++ toolchain), plus the
//     headers that the existing rule lists in srcs (private headers stay private).
//   - hdrs: every other header of the directory (.cuh and cc_library's header extensions: .h, .hh,
//     .hpp, .hxx, .inc, .inl, .ipp, .tcc, ...): all of them are
//     public, includable by other packages. Move one to srcs by hand to make it private.
//   - textual_hdrs: the source files (.cu, .c, .cpp, ...) that a source of the repository includes
//     (#include "train.cu",
//     from this directory or another package; includes under conditions that a compile with the
//     compiler's macros skips do not count): they compile only inside their includer, so they
//     leave srcs; one that defines main() is a program of its own too (see Programs).
//   - deps: resolved from the #include lines of those files (see Resolving includes).
//   - includes = ["."] on the rules of an include directory, so that nvcc finds its headers by
//     their names alone; set only when the rule has no includes attribute.
//   - rdc = True when the sources need relocatable device code: a kernel launched from inside a
//     __global__ or __device__ function (dynamic parallelism), or a __device__ function or extern
//     __device__/__constant__ variable declared in one file and defined in another. Set only
//     when the rule has no rdc attribute; an rdc = False that the user wrote stays, with a log
//     line saying which line needs rdc. Device code declared in another package's headers is not
//     seen: set rdc there by hand.
//   - host_srcs_as_cuda = True when a .cc, .cpp or .cxx source, or a repository header it
//     includes, has device code (see codeFacts): nvcc compiles it as CUDA, as CMake's LANGUAGE
//     CUDA does. copts = ["--extended-lambda"] when a source that nvcc compiles reaches a
//     __device__ lambda. Each only when the rule has no such attribute; a log line says when the
//     user's attribute contradicts the code.
//   - deps also get @cuda//:cuda_driver_lazy when a source reaches cuda.h and a driver API call:
//     the driver API loaded on first use, so the program starts without the driver.
//   - archs: the cuda_archs directive's value, when it is set.
//
// # Implied include directories
//
// Before the first directory, the repository's sources and headers are read once: an include
// ("P" or <P>) that the compiler's search finds nowhere (see Resolving includes; build files'
// cuda_include_dir directives and rules' includes count too), that is no toolkit or system
// header, and that exactly one file of the repository ends with (D/P) makes D an include
// directory, as a Makefile's -I would: it is searched like a cuda_include_dir directory, and its
// rules get includes = ["."]. Each such directory is logged; an include that several files end
// with implies nothing and is logged.
//
// # Header collections
//
// When the files (programs' aside) are two or more headers and host sources, with no .cu file
// and no main() (a shared Common/ folder of helper headers, an include directory), each header
// gets a cu_library of its own, named after it (helper_cuda.h: helper_cuda; "helper_hpp" when
// another rule has that name), with hdrs = [that header] and the deps its includes resolve to. A
// program then depends on the headers it includes and on their deps only, not on every library
// some header of the folder needs (nvrtc for one, cusolver for another). A host source joins the
// rule of the header with its name (stopwatch.cpp: stopwatch.h), else of the first header of the
// directory it includes. A host source of a directory without .cu files is compiled only when
// nothing that its compile includes is missing (not a file of the repository where the compiler
// looks, not a toolkit header, not a system header, see cpp.SystemHeader in internal/cpp): a helper for another
// platform (one that includes d3d11.h) is compiled by no rule, and a log line says why; so is a
// host source of a collection that shares its name with no header and includes none. With one
// header, the directory's library is the rule, with the host sources that compile.
//
// The directory's library of an earlier run is replaced by the per-header rules, and per-header
// rules by the directory's library once the directory has a .cu file or a main().
//
// Files that another rule of the build file lists (a hand-written cc_library's hdrs, also through
// glob(), the .cc files a cgo go_library compiles) are left to that rule. A subdirectory whose
// files a rule of an ancestor package lists (srcs = ["csrc/kernel.cu"]) gets no build file.
//
// Gazelle owns srcs, hdrs, textual_hdrs and deps (hand additions need a "# keep" comment, as for
// Go rules), archs only while cuda_archs is set, copts and local_defines only while cuda_copts and
// cuda_define are in effect, and a generated cc_binary's deps. It adds
// includes, rdc, host_srcs_as_cuda and copts only where they are missing. All other attributes (copts, host_copts, defines,
// linkopts, visibility, tags, ...) are the user's and survive every run. A cu_library whose srcs or hdrs
// is a glob, select or concatenation is left alone.
//
// When the .cu and .cuh files of the directory's cu_library are all gone, the rule is deleted;
// so is any other cu_library none of whose files exists.
//
// # Wiring the Go package
//
// When the cgo preamble of the directory's Go library includes a header of the directory's
// cu_library (by its workspace-relative path, "pkg/kernel.h", or relative to the directory), the
// Go library becomes a go_cuda_library with cu_deps = [":<cu_library>"]; in a header collection,
// cu_deps lists the rule of each header it includes. cu_deps entries that name other rules are
// kept; entries that name cu_library rules of the directory that no longer exist are removed. A go_cuda_library stays one when it is no longer wired (its cu_deps lose the deleted
// library). The extension makes go_cuda_library an alias of go_library for Gazelle (as
// `# gazelle:alias_kind go_cuda_library go_library` would), so the Go extension keeps updating
// its srcs, importpath and deps. No `# gazelle:map_kind` directive is needed; an existing
// `# gazelle:map_kind go_library go_cuda_library ...` is fine. A map_kind of go_library to any
// other kind turns the wiring off.
//
// # Resolving includes
//
// Every cu_library and cc_library of the repository is indexed under the paths of its hdrs (for a
// cc_library also textual_hdrs, strip_include_prefix and include_prefix; for both the includes
// attribute). hdrs written with glob() (also joined with lists by +) are expanded against the
// package's files; a select() or anything else gazelle cannot evaluate is logged and not indexed.
//
// An include is looked for in these directories, in order, as nvcc searches them: for a quoted
// include the including file's directory; the cuda_include_dir directories, then the implied
// ones; the conventional
// include directories dir/include, dir/inc, ../include and ../inc next to the including file's
// directory; the repository root. For each include: the library's own headers give no dep; then a
// `# gazelle:resolve cuda HEADER LABEL` directive (for the include as written or a searched
// path); then the index, path by path; then the CUDA toolkit's headers (see toolkitHeader):
// library headers give their @cuda target (@cuda//:cublas, ...), runtime and CCCL headers
// (Thrust, CUB, libcu++) none, because the toolchain puts them on every nvcc compile; then the
// system's headers (see cpp.SystemHeader in internal/cpp), quoted or angle: none, and no log line. An include that
// nothing resolves, quoted or angle, or that several rules provide, is left out of deps and logged
// once per file, naming the file and the include (and the file when it exists but no rule lists
// it); Gazelle never guesses.
//
// Only the includes a compile reaches count: conditional compilation (#if, #ifdef, #ifndef, #elif,
// #elifdef, #elifndef, #else, #endif) is evaluated with the macros of cuda_define and cuda_copts
// directives and the rule's (defines, local_defines, -D and -U in copts and host_copts), the #define and #undef lines before the include, also those
// of the repository's headers that the file includes (which are read, found on the same search
// path, so include guards, #pragma once and a config.h work), and the compiler's (__linux__
// defined, __NVCC__ and __CUDACC__ in .cu files and not in the host sources, _WIN32 and __APPLE__
// undefined). Every other macro is undefined, as for the preprocessor, so the includes of #ifdef
// ENABLE_CUDNN or #if MULTI_GPU give no dep until the rule defines the macro. Expressions may use
// defined, !, ~, the arithmetic, shift, comparison and bitwise operators, && and ||, ?:, integer
// literals and __has_include (true for a header of the repository, the toolkit or the system, or
// one a resolve directive names). What gazelle cannot know is kept: macros that only some compiles
// define or that the toolkit's and the C library's headers define (__CUDA_ARCH__, NDEBUG,
// CUDART_VERSION, NCCL_VERSION_CODE, CUDNN_MAJOR, ...), values like __cplusplus's, function-like
// macros, character literals. An include under such a condition that gives a dep keeps it, and a
// log line names it and the condition. A macro of the rule turns on the includes it guards in the
// repository headers the rule's files include, too: those that the header compiled on its own does
// not reach become the rule's deps. Macros that deps' defines propagate and those given on the
// command line are not seen.
//
// `# gazelle:resolve cuda HEADER LABEL` (Gazelle's general form, `# gazelle:resolve cuda cuda
// HEADER LABEL`, is the same) maps a header, angle or quoted; it also overrides the toolkit
// mapping, e.g. for a toolkit hub with another name than @cuda. The index holds hand-written
// cc_library rules because the extension lists cc_library among its kinds (it never generates
// one). A C++ extension that generates cc_library (gazelle_cc) claims that kind too: list it
// after this one, and includes of cc_library headers are then left to it.
//
// # Directives
//
//	# gazelle:cuda enabled|disabled
//	    Generate cu_library rules in this directory and below (default enabled). Disabled
//	    leaves existing rules as they are.
//	# gazelle:cuda_library_naming PATTERN
//	    Name of the directory's new cu_library; {dirname} is the directory's base name.
//	    Default "{dirname}". An empty value restores the default. A pattern with {dirname}
//	    applies to this directory and its subdirectories; a literal name (no {dirname}) to this
//	    directory only, whose subdirectories keep the pattern from above.
//	# gazelle:cuda_archs SPEC
//	    Set archs = "SPEC" (TORCH_CUDA_ARCH_LIST syntax, e.g. 8.0;9.0+PTX) on generated
//	    cu_library rules. Without it (or with an empty value) archs is left as it is.
//	# gazelle:cuda_go_wiring enabled|disabled
//	    Turn the Go library into a go_cuda_library with cu_deps (default enabled). Disabled
//	    leaves Go rules as the Go extension makes them.
//	# gazelle:cuda_include_dir DIR
//	    Look for includes in DIR too, like nvcc's -I: relative to the build file's directory,
//	    or to the repository root when it starts with /. Repeat for several; inherited; an
//	    empty value clears the inherited list. DIR's own cu_library gets includes = ["."].
//	# gazelle:cuda_binaries enabled|disabled
//	    Generate a cc_binary per program (default enabled; see Programs).
//	# gazelle:cuda_binary_naming PATTERN
//	    Name of the cc_binary of a directory's only program, "{dirname}_bin" by default; a
//	    literal name applies to this directory only, as for cuda_library_naming.
//	# gazelle:cuda_define NAME[=VALUE] ...
//	    A macro of every compile in this directory and below, as a Makefile's -D: conditional
//	    compilation is evaluated with it (see Resolving includes), and every generated rule that
//	    compiles sources gets local_defines = the directives' macros (not defines: the Makefile's
//	    -D does not reach dependents elsewhere). Repeatable; a later NAME replaces the earlier;
//	    inherited; an empty value clears.
//	# gazelle:cuda_copts FLAGS
//	    nvcc options of every CUDA compile in this directory and below (NVCCFLAGS,
//	    CMAKE_CUDA_FLAGS): copts of every generated rule with .cu sources (or host_srcs_as_cuda);
//	    split at whitespace, quotes keep an option together; -D and -U count for conditional
//	    compilation. Repeatable; inherited; an empty value clears. While cuda_define or
//	    cuda_copts is in effect, Gazelle owns local_defines or copts of the rules it generates:
//	    the directives' values (then --extended-lambda where needed), then elements marked # keep.
//	# gazelle:cuda_program NAME FILE...
//	    This directory only: a program declared by hand (see Programs).
//	# gazelle:cuda_rules_repo REPO
//	    Root build file only. Where generated files load cu_library and go_cuda_library from:
//	    REPO//rules:defs.bzl. Default: "" inside the rules_cuda_go module itself, else the
//	    repo_name that MODULE.bazel gives rules_cuda_go, else "@rules_cuda_go".
//
// All directives but cuda_rules_repo and cuda_program apply to the directory of the build file
// and its subdirectories (a naming directive with a literal name: to the directory only).
package cuda
