// Package glibc reads which versions of the C and C++ runtime libraries an ELF binary needs, and
// checks them against a baseline: the newest version of each that the machines a binary is
// deployed to are known to have.
//
// A dynamically linked binary records, for every library it links (libc.so.6, libstdc++.so.6,
// ...), the symbol versions it needs (GLIBC_2.34, GLIBCXX_3.4.30); the dynamic loader refuses to
// start it where the library lacks one. Those records are what this package reads, with the
// imported symbols that caused each, so that an error can say which call to change.
package glibc

import (
	"debug/elf"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
)

// Baseline maps a version family (GLIBC, GLIBCXX, CXXABI) to the newest version of it allowed,
// e.g. {"GLIBC": "2.36"}. Families it does not name are not checked.
type Baseline map[string]string

// Need is one symbol version a binary needs from a library.
type Need struct {
	// Library is the shared library that must provide the version (libc.so.6).
	Library string
	// Version is the version's name (GLIBC_2.34).
	Version string
	// Symbols are the imported symbols bound to that version, sorted.
	Symbols []string
}

// Family is the version's family: "GLIBC" for GLIBC_2.34.
func (n Need) Family() string {
	family, _, _ := strings.Cut(n.Version, "_")
	return family
}

// Number is the version's number: "2.34" for GLIBC_2.34.
func (n Need) Number() string {
	_, number, _ := strings.Cut(n.Version, "_")
	return number
}

// ErrNotELF is returned by Needs for a file that is not an ELF object (a script, say).
var ErrNotELF = errors.New("not an ELF file")

// Needs returns the symbol versions the ELF file at path needs, sorted by library and version. A
// statically linked binary needs none.
func Needs(path string) ([]Need, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	defer f.Close()
	magic := make([]byte, len(elf.ELFMAG))
	if _, err := f.ReadAt(magic, 0); err != nil || string(magic) != elf.ELFMAG {
		return nil, fmt.Errorf("%s: %w", path, ErrNotELF)
	}
	ef, err := elf.NewFile(f)
	if err != nil {
		return nil, fmt.Errorf("reading the ELF file %s: %w", path, err)
	}
	defer ef.Close()
	if ef.Section(".dynamic") == nil {
		return nil, nil
	}
	byKey := map[[2]string]*Need{}
	add := func(library, version string) *Need {
		key := [2]string{library, version}
		if byKey[key] == nil {
			byKey[key] = &Need{Library: library, Version: version}
		}
		return byKey[key]
	}
	needs, err := ef.DynamicVersionNeeds()
	if err != nil && !errors.Is(err, elf.ErrNoSymbols) {
		return nil, fmt.Errorf("reading the version needs of %s: %w", path, err)
	}
	for _, n := range needs {
		for _, v := range n.Needs {
			add(n.Name, v.Dep)
		}
	}
	symbols, err := ef.ImportedSymbols()
	if err != nil && !errors.Is(err, elf.ErrNoSymbols) {
		return nil, fmt.Errorf("reading the imported symbols of %s: %w", path, err)
	}
	for _, s := range symbols {
		if s.Version == "" {
			continue
		}
		n := add(s.Library, s.Version)
		n.Symbols = append(n.Symbols, s.Name)
	}
	out := make([]Need, 0, len(byKey))
	for _, n := range byKey {
		sort.Strings(n.Symbols)
		out = append(out, *n)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Library != out[j].Library {
			return out[i].Library < out[j].Library
		}
		if out[i].Family() != out[j].Family() {
			return out[i].Family() < out[j].Family()
		}
		return Compare(out[i].Number(), out[j].Number()) < 0
	})
	return out, nil
}

// Exceeding returns the needs newer than the baseline allows.
func (b Baseline) Exceeding(needs []Need) []Need {
	var out []Need
	for _, n := range needs {
		max, ok := b[n.Family()]
		if ok && Compare(n.Number(), max) > 0 {
			out = append(out, n)
		}
	}
	return out
}

// Newest returns, per family, the newest version among needs ("GLIBC" -> "2.34").
func Newest(needs []Need) map[string]string {
	out := map[string]string{}
	for _, n := range needs {
		if cur, ok := out[n.Family()]; !ok || Compare(n.Number(), cur) > 0 {
			out[n.Family()] = n.Number()
		}
	}
	return out
}

// Compare compares dotted version numbers numerically: -1, 0 or 1 as a is older than, equal to or
// newer than b ("2.9" < "2.34"). A part that is not a number compares as text.
func Compare(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) || i < len(bs); i++ {
		var x, y string
		if i < len(as) {
			x = as[i]
		}
		if i < len(bs) {
			y = bs[i]
		}
		xn, xerr := strconv.Atoi(x)
		yn, yerr := strconv.Atoi(y)
		switch {
		case x == y:
			continue
		case x == "":
			return -1
		case y == "":
			return 1
		case xerr == nil && yerr == nil && xn != yn:
			if xn < yn {
				return -1
			}
			return 1
		case x < y:
			return -1
		case x > y:
			return 1
		}
	}
	return 0
}
