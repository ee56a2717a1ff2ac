// Command docgen writes the reference of rules_cuda_go's public Starlark API and flags, in
// Markdown, from what starlark_doc_extract reads out of the .bzl files (their docstrings, rules'
// and tags' attributes, defaults) and from the comments above the build settings of a BUILD file.
//
//	docgen -o OUT.md -bzl LOAD_LABEL=EXTRACT.textproto... -flags PACKAGE=BUILD_FILE... [-load LABEL=FILE...]
//	docgen -install GENERATED=DEST   (under bazel run: DEST relative to the workspace)
//
// Each -bzl is a .bzl file (as users load it) and starlark_doc_extract's text output for it; each
// -flags is a package (as users name its targets) and its BUILD file, whose string_flag, bool_flag,
// int_flag and string_list_flag targets are documented by the comment lines right above them. A
// flag's default that is a name the BUILD file loads is shown as the string that name is assigned in
// the loaded file, when that file is given with -load (its label as the BUILD file writes it).
//
// Symbols a documented file re-exports from another repository (rules_cc's cc_binary) are listed
// with their origin only, so that the reference does not change with that repository's version.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bazelbuild/buildtools/build"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(os.Stderr, "docgen: %v\n", err)
		}
		os.Exit(1)
	}
}

type pairs []string

func (p *pairs) String() string     { return strings.Join(*p, " ") }
func (p *pairs) Set(v string) error { *p = append(*p, v); return nil }

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("docgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var bzls, flagFiles, loads pairs
	out := fs.String("o", "", "the Markdown file to write")
	install := fs.String("install", "", "GENERATED=DEST: copy the generated reference into the workspace")
	fs.Var(&bzls, "bzl", "LOAD_LABEL=TEXTPROTO: a .bzl file and starlark_doc_extract's output for it (repeatable)")
	fs.Var(&flagFiles, "flags", "PACKAGE=BUILD_FILE: a package whose build settings to document (repeatable)")
	fs.Var(&loads, "load", "LABEL=FILE: a .bzl file the BUILD files load, for defaults named by a constant (repeatable)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *install != "" {
		return installFile(*install, stdout)
	}
	if *out == "" {
		return errors.New("-o is required (or -install)")
	}
	var sections []section
	for _, b := range bzls {
		label, path, ok := strings.Cut(b, "=")
		if !ok {
			return fmt.Errorf("-bzl %q: want LOAD_LABEL=TEXTPROTO", b)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		m, err := parseText(string(data))
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		sections = append(sections, section{label: label, module: m})
	}
	loaded := map[string]string{}
	for _, l := range loads {
		label, path, ok := strings.Cut(l, "=")
		if !ok {
			return fmt.Errorf("-load %q: want LABEL=FILE", l)
		}
		loaded[label] = path
	}
	var settings []setting
	for _, f := range flagFiles {
		pkg, path, ok := strings.Cut(f, "=")
		if !ok {
			return fmt.Errorf("-flags %q: want PACKAGE=BUILD_FILE", f)
		}
		s, err := buildSettings(pkg, path, loaded)
		if err != nil {
			return err
		}
		settings = append(settings, s...)
	}
	return os.WriteFile(*out, []byte(render(sections, settings)), 0o644)
}

// installFile copies GENERATED to DEST, DEST relative to $BUILD_WORKSPACE_DIRECTORY (bazel run).
func installFile(spec string, stdout io.Writer) error {
	src, dest, ok := strings.Cut(spec, "=")
	if !ok {
		return fmt.Errorf("-install %q: want GENERATED=DEST", spec)
	}
	if ws := os.Getenv("BUILD_WORKSPACE_DIRECTORY"); ws != "" && !filepath.IsAbs(dest) {
		dest = filepath.Join(ws, dest)
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.WriteFile(dest, data, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s\n", dest)
	return nil
}

type section struct {
	label  string // how users load the file, e.g. @rules_cuda_go//rules:defs.bzl
	module *Msg   // stardoc_output.ModuleInfo
}

// setting is a build setting (a flag) of a BUILD file.
type setting struct {
	label, kind, def, doc string
	values                []string
}

var settingKinds = map[string]bool{"string_flag": true, "bool_flag": true, "int_flag": true, "string_list_flag": true}

// buildSettings returns the flags of the BUILD file at path, in package pkg, with the comment
// above each. A flag without a comment is an error: every flag is documented. loaded maps labels of
// .bzl files (as the BUILD file's load statements write them) to their paths.
func buildSettings(pkg, path string, loaded map[string]string) ([]setting, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f, err := build.ParseBuild(path, data)
	if err != nil {
		return nil, err
	}
	var out []setting
	for _, r := range f.Rules("") {
		if !settingKinds[r.Kind()] {
			continue
		}
		s := setting{label: pkg + ":" + r.Name(), kind: r.Kind()}
		var doc []string
		for _, c := range r.Call.Comments.Before {
			doc = append(doc, strings.TrimSpace(strings.TrimPrefix(c.Token, "#")))
		}
		s.doc = strings.Join(doc, " ")
		if s.doc == "" {
			return nil, fmt.Errorf("%s: %s %s has no comment above it to document it", path, r.Kind(), r.Name())
		}
		if e := r.Attr("build_setting_default"); e != nil {
			s.def = build.FormatString(e)
			if id, ok := e.(*build.Ident); ok && id.Name != "True" && id.Name != "False" && id.Name != "None" {
				v, err := loadedString(f, id.Name, loaded)
				if err != nil {
					return nil, fmt.Errorf("%s: the default of %s: %w", path, r.Name(), err)
				}
				s.def = v
			}
		}
		s.values = r.AttrStrings("values")
		out = append(out, s)
	}
	return out, nil
}

// loadedString returns, quoted, the string literal that name is assigned at the top level of the
// .bzl file f loads it from.
func loadedString(f *build.File, name string, loaded map[string]string) (string, error) {
	for _, stmt := range f.Stmt {
		l, ok := stmt.(*build.LoadStmt)
		if !ok {
			continue
		}
		for i, to := range l.To {
			if to.Name != name {
				continue
			}
			module := l.Module.Value
			path, ok := loaded[module]
			if !ok {
				return "", fmt.Errorf("%s comes from %s: pass it with -load %s=FILE", name, module, module)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return "", err
			}
			bzl, err := build.ParseBzl(path, data)
			if err != nil {
				return "", err
			}
			orig := l.From[i].Name
			for _, st := range bzl.Stmt {
				if a, ok := st.(*build.AssignExpr); ok {
					if lhs, ok := a.LHS.(*build.Ident); ok && lhs.Name == orig {
						if str, ok := a.RHS.(*build.StringExpr); ok {
							return build.FormatString(str), nil
						}
						return "", fmt.Errorf("%s in %s is not a string literal", orig, module)
					}
				}
			}
			return "", fmt.Errorf("%s assigns no %s", module, orig)
		}
	}
	return "", fmt.Errorf("%s is neither a literal nor loaded", name)
}

// render is the reference in Markdown.
func render(sections []section, settings []setting) string {
	var b strings.Builder
	b.WriteString("# Reference\n\n")
	b.WriteString("<!-- Generated by tools/docgen from the .bzl files' docstrings and toolchains/BUILD.bazel; do not\n")
	b.WriteString("     edit. After changing those: bazel run //docs:update_reference (CI: //docs:reference_test). -->\n\n")
	b.WriteString("Every public rule, macro, aspect, provider, module extension and flag of rules_cuda_go, as its\n")
	b.WriteString("sources document it. How to use them together: [rules.md](rules.md), [toolchains.md](toolchains.md),\n")
	b.WriteString("[consumers.md](consumers.md).\n\n")
	for _, s := range sections {
		fmt.Fprintf(&b, "- [`%s`](#%s)\n", s.label, anchor(s.label))
	}
	if len(settings) > 0 {
		b.WriteString("- [Flags](#flags)\n")
	}
	for _, s := range sections {
		renderSection(&b, s)
	}
	if len(settings) > 0 {
		b.WriteString("\n## Flags\n\n")
		b.WriteString("Build settings, set on the command line or in `.bazelrc` as `--LABEL=VALUE`.\n\n")
		b.WriteString("| flag | default | description |\n| --- | --- | --- |\n")
		for _, s := range settings {
			desc := s.doc
			if len(s.values) > 0 {
				desc += " Values: " + strings.Join(quoteAll(s.values), ", ") + "."
			}
			fmt.Fprintf(&b, "| `--%s` | `%s` | %s |\n", s.label, s.def, cell(desc))
		}
	}
	return b.String()
}

func quoteAll(v []string) []string {
	out := make([]string, len(v))
	for i, s := range v {
		out[i] = "`" + s + "`"
	}
	return out
}

// anchor is GitHub's anchor for a heading `label` (code span).
func anchor(label string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(label) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		}
	}
	return b.String()
}

func renderSection(b *strings.Builder, s section) {
	fmt.Fprintf(b, "\n## `%s`\n\n", s.label)
	if doc := strings.TrimSpace(s.module.Str("module_docstring")); doc != "" {
		b.WriteString(doc + "\n")
	}
	load := func(name string) string {
		return fmt.Sprintf("load(%q, %q)", s.label, name)
	}
	for _, r := range byName(s.module.Msgs("rule_info"), "rule_name") {
		name := r.Str("rule_name")
		if reexported(b, r, name, load(name)) {
			continue
		}
		fmt.Fprintf(b, "\n### %s\n\nRule. `%s`\n\n", name, load(name))
		fmt.Fprintf(b, "```starlark\n%s(%s)\n```\n\n", name, strings.Join(attrNames(r.Msgs("attribute")), ", "))
		writeDoc(b, r.Str("doc_string"))
		attributeTable(b, r.Msgs("attribute"))
	}
	for _, f := range byName(s.module.Msgs("func_info"), "function_name") {
		name := f.Str("function_name")
		if reexported(b, f, name, load(name)) {
			continue
		}
		var params []string
		for _, p := range f.Msgs("parameter") {
			params = append(params, p.Str("name"))
		}
		fmt.Fprintf(b, "\n### %s\n\nMacro or function. `%s`\n\n", name, load(name))
		fmt.Fprintf(b, "```starlark\n%s(%s)\n```\n\n", name, strings.Join(params, ", "))
		writeDoc(b, f.Str("doc_string"))
		if ps := f.Msgs("parameter"); len(ps) > 0 {
			b.WriteString("| parameter | default | description |\n| --- | --- | --- |\n")
			for _, p := range ps {
				def := p.Str("default_value")
				if p.Bool("mandatory") {
					def = "required"
				} else if def != "" {
					def = "`" + def + "`"
				}
				fmt.Fprintf(b, "| `%s` | %s | %s |\n", p.Str("name"), cell(def), cell(p.Str("doc_string")))
			}
			b.WriteString("\n")
		}
		if ret := strings.TrimSpace(f.Sub("return").Str("doc_string")); ret != "" {
			fmt.Fprintf(b, "Returns: %s\n\n", oneLine(ret))
		}
	}
	for _, a := range byName(s.module.Msgs("aspect_info"), "aspect_name") {
		name := a.Str("aspect_name")
		fmt.Fprintf(b, "\n### %s\n\nAspect. `--aspects=%s%%%s`", name, s.label, name)
		if along := a.Strs("aspect_attribute"); len(along) > 0 {
			fmt.Fprintf(b, "; propagates along %s", strings.Join(quoteAll(along), ", "))
		}
		b.WriteString("\n\n")
		writeDoc(b, a.Str("doc_string"))
		attributeTable(b, without(a.Msgs("attribute"), "name"))
	}
	for _, p := range byName(s.module.Msgs("provider_info"), "provider_name") {
		name := p.Str("provider_name")
		if reexported(b, p, name, load(name)) {
			continue
		}
		fmt.Fprintf(b, "\n### %s\n\nProvider. `%s`\n\n", name, load(name))
		writeDoc(b, p.Str("doc_string"))
		if fields := p.Msgs("field_info"); len(fields) > 0 {
			b.WriteString("| field | description |\n| --- | --- |\n")
			for _, f := range fields {
				fmt.Fprintf(b, "| `%s` | %s |\n", f.Str("name"), cell(f.Str("doc_string")))
			}
			b.WriteString("\n")
		}
	}
	for _, e := range byName(s.module.Msgs("module_extension_info"), "extension_name") {
		name := e.Str("extension_name")
		fmt.Fprintf(b, "\n### %s\n\nModule extension. `%s = use_extension(%q, %q)`\n\n", name, name, s.label, name)
		writeDoc(b, e.Str("doc_string"))
		for _, t := range e.Msgs("tag_class") {
			tag := t.Str("tag_name")
			fmt.Fprintf(b, "#### %s.%s\n\n", name, tag)
			fmt.Fprintf(b, "```starlark\n%s.%s(%s)\n```\n\n", name, tag, strings.Join(attrNames(t.Msgs("attribute")), ", "))
			writeDoc(b, t.Str("doc_string"))
			attributeTable(b, t.Msgs("attribute"))
		}
	}
	for _, r := range byName(s.module.Msgs("repository_rule_info"), "rule_name") {
		name := r.Str("rule_name")
		fmt.Fprintf(b, "\n### %s\n\nRepository rule. `%s`\n\n", name, load(name))
		writeDoc(b, r.Str("doc_string"))
		// repo_mapping is Bazel's, on every repository rule, and its text changes with Bazel.
		attributeTable(b, without(r.Msgs("attribute"), "repo_mapping"))
	}
}

// reexported writes the entry of a symbol defined in another repository (origin_key.file names
// one: "@rules_cc//cc:...") and reports whether it was one.
func reexported(b *strings.Builder, m *Msg, name, load string) bool {
	file := m.Sub("origin_key").Str("file")
	if !strings.HasPrefix(file, "@") || strings.HasPrefix(strings.TrimLeft(file, "@"), "//") {
		return false // this repository's: //..., @//... or @@//...
	}
	repo, _, _ := strings.Cut(file, "//")
	fmt.Fprintf(b, "\n### %s\n\n`%s`: %s's, re-exported; see its documentation.\n", name, load, strings.TrimLeft(repo, "@"))
	return true
}

// without returns attrs less those named names.
func without(attrs []*Msg, names ...string) []*Msg {
	var out []*Msg
	for _, a := range attrs {
		skip := false
		for _, n := range names {
			skip = skip || a.Str("name") == n
		}
		if !skip {
			out = append(out, a)
		}
	}
	return out
}

// byName returns ms sorted by their field key, so the order does not depend on the extractor's.
func byName(ms []*Msg, key string) []*Msg {
	out := append([]*Msg(nil), ms...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Str(key) < out[j].Str(key) })
	return out
}

func attrNames(attrs []*Msg) []string {
	var out []string
	for _, a := range attrs {
		out = append(out, a.Str("name"))
	}
	return out
}

// attrTypes names starlark_doc_extract's attribute types as rule authors write them.
var attrTypes = map[string]string{
	"NAME": "name", "INT": "int", "LABEL": "label", "STRING": "string", "STRING_LIST": "string list",
	"INT_LIST": "int list", "LABEL_LIST": "label list", "BOOLEAN": "bool", "LABEL_STRING_DICT": "dict: label -> string",
	"STRING_DICT": "dict: string -> string", "STRING_LIST_DICT": "dict: string -> string list", "OUTPUT": "output",
	"OUTPUT_LIST": "output list", "LABEL_DICT_UNARY": "dict: string -> label", "LABEL_LIST_DICT": "dict: label -> label list",
}

func attributeTable(b *strings.Builder, attrs []*Msg) {
	if len(attrs) == 0 {
		return
	}
	b.WriteString("| attribute | type | default | description |\n| --- | --- | --- | --- |\n")
	for _, a := range attrs {
		typ := attrTypes[a.Str("type")]
		if typ == "" {
			typ = strings.ToLower(a.Str("type"))
		}
		def := a.Str("default_value")
		switch {
		case a.Bool("mandatory"):
			def = "required"
		case def != "":
			def = "`" + def + "`"
		}
		doc := a.Str("doc_string")
		if groups := a.Msgs("provider_name_group"); len(groups) > 0 {
			var names []string
			for _, g := range groups {
				names = append(names, strings.Join(g.Strs("provider_name"), " and "))
			}
			doc = strings.TrimSpace(doc + " Needs: " + strings.Join(names, ", or ") + ".")
		}
		fmt.Fprintf(b, "| `%s` | %s | %s | %s |\n", a.Str("name"), typ, cell(def), cell(doc))
	}
	b.WriteString("\n")
}

// writeDoc writes a docstring as paragraphs (its own line breaks kept).
func writeDoc(b *strings.Builder, doc string) {
	doc = strings.TrimSpace(dedent(doc))
	if doc == "" {
		return
	}
	b.WriteString(doc + "\n\n")
}

// dedent removes the indentation that every line after the first shares (docstrings are written
// indented in the source).
func dedent(s string) string {
	lines := strings.Split(s, "\n")
	common := -1
	for _, l := range lines[1:] {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " "))
		if common < 0 || n < common {
			common = n
		}
	}
	if common <= 0 {
		return s
	}
	for i := 1; i < len(lines); i++ {
		if len(lines[i]) >= common {
			lines[i] = lines[i][common:]
		}
	}
	return strings.Join(lines, "\n")
}

// oneLine joins a text's lines with spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// cell makes text fit a Markdown table cell: one line, pipes escaped.
func cell(s string) string { return strings.ReplaceAll(oneLine(s), "|", "\\|") }
