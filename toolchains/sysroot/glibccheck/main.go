// Command glibccheck fails when an ELF binary needs a newer C or C++ runtime than the glibc
// baseline allows, naming each version and the symbols that need it.
//
//	glibccheck [-glibc 2.36] [-glibcxx 3.4.30] [-cxxabi 1.3.13] [-stamp FILE] [-v] BINARY...
//
// Files that are not ELF (scripts) and statically linked binaries pass. With -stamp it writes
// FILE when every binary passes (for Bazel's validation actions). Exit status: 0 when all pass, 1
// when one needs too new a version, 2 on a usage or read error.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/rules-cuda-go/rules_cuda_go/toolchains/sysroot/glibc"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("glibccheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	glibcMax := fs.String("glibc", "2.36", "newest GLIBC_ version allowed (empty: not checked)")
	glibcxxMax := fs.String("glibcxx", "3.4.30", "newest GLIBCXX_ version allowed (empty: not checked)")
	cxxabiMax := fs.String("cxxabi", "1.3.13", "newest CXXABI_ version allowed (empty: not checked)")
	stamp := fs.String("stamp", "", "file to write when every binary passes")
	verbose := fs.Bool("v", false, "print the newest version each binary needs")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "glibccheck: no binaries named; usage: glibccheck [flags] BINARY...")
		return 2
	}
	baseline := glibc.Baseline{}
	for family, max := range map[string]string{"GLIBC": *glibcMax, "GLIBCXX": *glibcxxMax, "CXXABI": *cxxabiMax} {
		if max != "" {
			baseline[family] = max
		}
	}
	failed := false
	for _, path := range fs.Args() {
		needs, err := glibc.Needs(path)
		if errors.Is(err, glibc.ErrNotELF) {
			if *verbose {
				fmt.Fprintf(stdout, "%s: not ELF, skipped\n", path)
			}
			continue
		}
		if err != nil {
			fmt.Fprintf(stderr, "glibccheck: %v\n", err)
			return 2
		}
		if *verbose {
			fmt.Fprintf(stdout, "%s: needs %s\n", path, describe(glibc.Newest(needs)))
		}
		for _, n := range baseline.Exceeding(needs) {
			failed = true
			fmt.Fprintf(stderr, "%s needs %s from %s, newer than the baseline's %s %s, for: %s\n",
				path, n.Version, n.Library, n.Family(), baseline[n.Family()], symbols(n.Symbols))
		}
	}
	if failed {
		fmt.Fprintln(stderr, "glibccheck: these binaries would not start on a machine with the baseline's C library. "+
			"Build them with the glibc baseline's C++ toolchain (rules_cuda_go's default; see --@rules_cuda_go//toolchains:sysroot), "+
			"or replace the calls named above.")
		return 1
	}
	if *stamp != "" {
		if err := os.WriteFile(*stamp, []byte("ok\n"), 0o644); err != nil {
			fmt.Fprintf(stderr, "glibccheck: writing the stamp: %v\n", err)
			return 2
		}
	}
	return 0
}

func describe(newest map[string]string) string {
	if len(newest) == 0 {
		return "no versioned symbols (static, or no versioned imports)"
	}
	parts := make([]string, 0, len(newest))
	for family, v := range newest {
		parts = append(parts, family+"_"+v)
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

func symbols(names []string) string {
	if len(names) == 0 {
		return "(no symbol names it; a version dependency of the binary)"
	}
	const max = 8
	if len(names) > max {
		return strings.Join(names[:max], ", ") + fmt.Sprintf(" and %d more", len(names)-max)
	}
	return strings.Join(names, ", ")
}
