package main

import (
	"fmt"
	"strings"

	"github.com/bazelbuild/buildtools/build"
)

// Archive is one entry of a component's list in CUDA_TOOLKITS.
type Archive struct {
	// Version and Component say where the archive is: CUDA_TOOLKITS[Version]["components"][Component].
	Version, Component string
	// Line is the line of the entry in versions.bzl (0 for one not read from a file).
	Line int
	// Platform is the platform the archive is for: PlatformX86 (the "components" of a toolkit) or
	// PlatformAarch64 (its "components_aarch64": the target libraries of linux-aarch64 builds).
	Platform string
	// Package is "name==version", empty for an archive that is not a PyPI wheel.
	Package     string
	URL         string
	SHA256      string
	StripPrefix string
}

// Starlark formats a as an entry of a component's list, indented like versions.bzl.
func (a Archive) Starlark() string {
	var b strings.Builder
	const in = "                "
	b.WriteString(in + "{\n")
	field := func(k, v string) {
		if v != "" {
			fmt.Fprintf(&b, "%s    %q: %q,\n", in, k, v)
		}
	}
	field("package", a.Package)
	field("url", a.URL)
	field("sha256", a.SHA256)
	field("strip_prefix", a.StripPrefix)
	b.WriteString(in + "},\n")
	return b.String()
}

// ParseVersions returns the archives of the CUDA_TOOLKITS dict literal in a versions.bzl, in the
// order they appear.
func ParseVersions(filename string, data []byte) ([]Archive, error) {
	f, err := build.ParseBzl(filename, data)
	if err != nil {
		return nil, fmt.Errorf("parsing %s: %w", filename, err)
	}
	var toolkits *build.DictExpr
	// Top-level names bound to a literal, so a component may be a shared list (_CUOBJDUMP = [...]).
	globals := map[string]build.Expr{}
	for _, stmt := range f.Stmt {
		as, ok := stmt.(*build.AssignExpr)
		if !ok || as.Op != "=" {
			continue
		}
		if id, ok := as.LHS.(*build.Ident); ok {
			globals[id.Name] = as.RHS
		}
		if id, ok := as.LHS.(*build.Ident); ok && id.Name == "CUDA_TOOLKITS" {
			d, ok := as.RHS.(*build.DictExpr)
			if !ok {
				return nil, fmt.Errorf("%s: CUDA_TOOLKITS is not a dict literal", pos(filename, as.RHS))
			}
			toolkits = d
		}
	}
	if toolkits == nil {
		return nil, fmt.Errorf("%s: no CUDA_TOOLKITS = {...}", filename)
	}
	var archives []Archive
	for _, v := range toolkits.List {
		version, err := str(filename, v.Key, "CUDA_TOOLKITS key")
		if err != nil {
			return nil, err
		}
		at := fmt.Sprintf("CUDA_TOOLKITS[%q]", version)
		tk, ok := v.Value.(*build.DictExpr)
		if !ok {
			return nil, fmt.Errorf("%s: %s is not a dict literal", pos(filename, v.Value), at)
		}
		if lookup(tk, "components") == nil {
			return nil, fmt.Errorf("%s: %s has no \"components\"", pos(filename, tk), at)
		}
		for _, field := range platformFields {
			comps := lookup(tk, field.key)
			if comps == nil {
				continue
			}
			list, err := parseComponents(filename, globals, at, version, field.key, field.platform, comps)
			if err != nil {
				return nil, err
			}
			archives = append(archives, list...)
		}
	}
	return archives, nil
}

// platformFields are the keys of a toolkit that list archives, and the platform of each.
var platformFields = []struct{ key, platform string }{
	{"components", PlatformX86},
	{"components_aarch64", PlatformAarch64},
}

// parseComponents returns the archives of one components dict (key) of the toolkit at.
func parseComponents(filename string, globals map[string]build.Expr, at, version, key, platform string, comps build.Expr) ([]Archive, error) {
	var archives []Archive
	{
		cd, ok := comps.(*build.DictExpr)
		if !ok {
			return nil, fmt.Errorf("%s: %s[%q] is not a dict literal", pos(filename, comps), at, key)
		}
		for _, c := range cd.List {
			comp, err := str(filename, c.Key, fmt.Sprintf("%s[%q] key", at, key))
			if err != nil {
				return nil, err
			}
			cat := fmt.Sprintf("%s[%q][%q]", at, key, comp)
			value := c.Value
			if id, ok := value.(*build.Ident); ok && globals[id.Name] != nil {
				value = globals[id.Name]
			}
			list, ok := value.(*build.ListExpr)
			if !ok {
				return nil, fmt.Errorf("%s: %s is not a list literal (or a top-level name bound to one)", pos(filename, c.Value), cat)
			}
			for i, e := range list.List {
				eat := fmt.Sprintf("%s[%d]", cat, i)
				d, ok := e.(*build.DictExpr)
				if !ok {
					return nil, fmt.Errorf("%s: %s is not a dict literal", pos(filename, e), eat)
				}
				start, _ := d.Span()
				a := Archive{Version: version, Component: comp, Line: start.Line, Platform: platform}
				for _, kv := range d.List {
					k, err := str(filename, kv.Key, eat+" key")
					if err != nil {
						return nil, err
					}
					val, err := str(filename, kv.Value, fmt.Sprintf("%s[%q]", eat, k))
					if err != nil {
						return nil, err
					}
					switch k {
					case "package":
						a.Package = val
					case "url":
						a.URL = val
					case "sha256":
						a.SHA256 = val
					case "strip_prefix":
						a.StripPrefix = val
					default:
						return nil, fmt.Errorf("%s: %s has unknown key %q", pos(filename, kv), eat, k)
					}
				}
				if a.URL == "" || a.SHA256 == "" {
					return nil, fmt.Errorf("%s: %s needs \"url\" and \"sha256\"", pos(filename, d), eat)
				}
				archives = append(archives, a)
			}
		}
	}
	return archives, nil
}

// lookup returns the value of the string key k in d, or nil.
func lookup(d *build.DictExpr, k string) build.Expr {
	for _, kv := range d.List {
		if s, ok := kv.Key.(*build.StringExpr); ok && s.Value == k {
			return kv.Value
		}
	}
	return nil
}

// str returns the value of a string literal, or an error naming what (at) it should have been.
func str(filename string, e build.Expr, at string) (string, error) {
	s, ok := e.(*build.StringExpr)
	if !ok {
		return "", fmt.Errorf("%s: %s is not a string literal", pos(filename, e), at)
	}
	return s.Value, nil
}

func pos(filename string, e build.Expr) string {
	start, _ := e.Span()
	return fmt.Sprintf("%s:%d", filename, start.Line)
}
