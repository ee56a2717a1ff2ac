package cuda

import (
	"path"
	"strings"
)

// setOf returns the set of names.
func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// without returns the elements of list that are not in drop.
func without(list []string, drop map[string]bool) []string {
	var out []string
	for _, x := range list {
		if !drop[x] {
			out = append(out, x)
		}
	}
	return out
}

// appendNew appends s to list unless list has it already.
func appendNew(list []string, s string) []string {
	if contains(list, s) {
		return list
	}
	return append(list, s)
}

// contains reports whether list has s.
func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// concat returns a new slice with the elements of lists, in order.
func concat(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// stem returns a file name without its extension.
func stem(f string) string {
	return strings.TrimSuffix(f, path.Ext(f))
}
