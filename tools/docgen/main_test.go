package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A ModuleInfo as starlark_doc_extract writes it in the text format.
const extract = `rule_info {
  rule_name: "cu_library"
  doc_string: "Compiles .cu files.\n\nThe target\'s objects \342\200\224 PIC."
  attribute {
    name: "name"
    doc_string: "A unique name for this target."
    type: NAME
    mandatory: true
  }
  attribute {
    name: "srcs"
    doc_string: "Sources | .cu and .cc."
    type: LABEL_LIST
    default_value: "[]"
  }
  attribute {
    name: "deps"
    type: LABEL_LIST
    default_value: "[]"
    provider_name_group {
      provider_name: "CcInfo"
    }
  }
  origin_key {
    name: "cu_library"
    file: "@@//rules/private:cu_library.bzl"
  }
}
func_info {
  function_name: "go_cuda_library"
  parameter {
    name: "name"
    doc_string: "the target's name."
    mandatory: true
  }
  parameter {
    name: "cu_deps"
    default_value: "[]"
  }
  doc_string: "A go_library over kernels."
  return {
    doc_string: "nothing\n  at all"
  }
}
aspect_info {
  aspect_name: "glibc_check"
  doc_string: "Checks binaries."
  aspect_attribute: "data"
}
provider_info {
  provider_name: "CuInfo"
  doc_string: "Device code."
  field_info {
    name: "rdc_objects"
    doc_string: "depset of Files"
  }
}
module_extension_info {
  extension_name: "cuda"
  doc_string: "The toolkits."
  tag_class {
    tag_name: "mirror"
    doc_string: "Mirrors."
    attribute {
      name: "urls"
      type: STRING_LIST
      mandatory: true
    }
  }
}
func_info {
  function_name: "cc_binary"
  parameter {
    name: "attrs"
    doc_string: "Rule attributes"
  }
  doc_string: "Bazel cc_binary rule."
  origin_key {
    name: "cc_binary"
    file: "@rules_cc//cc:cc_binary.bzl"
  }
}
repository_rule_info {
  rule_name: "cuda_redist_manifest"
  doc_string: "Reads a manifest."
  attribute {
    name: "name"
    type: NAME
    mandatory: true
  }
  attribute {
    name: "repo_mapping"
    doc_string: "In WORKSPACE context only."
    type: STRING_DICT
  }
  attribute {
    name: "manifest"
    doc_string: "URL of the manifest."
    type: STRING
    default_value: "\"\""
  }
}
# a comment
module_docstring: "Public API: " "load it."
file: "@@//rules:defs.bzl"
`

const buildFile = `load("@bazel_skylib//rules:common_settings.bzl", "bool_flag", "string_flag")
load(":versions.bzl", "DEFAULT_CUDA_VERSION")

# Which toolkit.
# Alias: --cuda_version.
string_flag(
    name = "cuda_version",
    build_setting_default = DEFAULT_CUDA_VERSION,
    values = ["13.2", "local"],
)

config_setting(name = "x")

# Fast math.
bool_flag(
    name = "fast_math",
    build_setting_default = False,
)
`

func write(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRender(t *testing.T) {
	tp := write(t, "defs.textproto", extract)
	bf := write(t, "BUILD.bazel", buildFile)
	versions := write(t, "versions.bzl", "X = 1\nDEFAULT_CUDA_VERSION = \"13.2\"\n")
	out := filepath.Join(t.TempDir(), "reference.md")
	var stdout, stderr bytes.Buffer
	args := []string{"-o", out, "-bzl", "@rules_cuda_go//rules:defs.bzl=" + tp, "-flags", "@rules_cuda_go//toolchains=" + bf, "-load", ":versions.bzl=" + versions}
	if err := run(args, &stdout, &stderr); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got := string(data)
	for _, want := range []string{
		"- [`@rules_cuda_go//rules:defs.bzl`](#rules_cuda_gorulesdefsbzl)",
		"## `@rules_cuda_go//rules:defs.bzl`\n\nPublic API: load it.\n",
		"### cu_library\n\nRule. `load(\"@rules_cuda_go//rules:defs.bzl\", \"cu_library\")`",
		"cu_library(name, srcs, deps)",
		"Compiles .cu files.\n\nThe target's objects — PIC.\n",
		"| `name` | name | required | A unique name for this target. |",
		"| `srcs` | label list | `[]` | Sources \\| .cu and .cc. |",
		"| `deps` | label list | `[]` | Needs: CcInfo. |",
		"go_cuda_library(name, cu_deps)",
		"| `name` | required | the target's name. |",
		"| `cu_deps` | `[]` |  |",
		"Returns: nothing at all",
		"Aspect. `--aspects=@rules_cuda_go//rules:defs.bzl%glibc_check`; propagates along `data`",
		"| `rdc_objects` | depset of Files |",
		"Module extension. `cuda = use_extension(\"@rules_cuda_go//rules:defs.bzl\", \"cuda\")`",
		"#### cuda.mirror\n\n```starlark\ncuda.mirror(urls)\n```",
		"| `--@rules_cuda_go//toolchains:cuda_version` | `\"13.2\"` | Which toolkit. Alias: --cuda_version. Values: `13.2`, `local`. |",
		"| `--@rules_cuda_go//toolchains:fast_math` | `False` | Fast math. |",
		"### cc_binary\n\n`load(\"@rules_cuda_go//rules:defs.bzl\", \"cc_binary\")`: rules_cc's, re-exported; see its documentation.\n",
		"Repository rule. `load(\"@rules_cuda_go//rules:defs.bzl\", \"cuda_redist_manifest\")`",
		"| `manifest` | string | `\"\"` | URL of the manifest. |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("reference lacks %q\n--- got:\n%s", want, got)
		}
	}
	for _, unwanted := range []string{"Bazel cc_binary rule", "repo_mapping", "Rule attributes"} {
		if strings.Contains(got, unwanted) {
			t.Errorf("reference has %q (another repository's or Bazel's text)", unwanted)
		}
	}

	// A second run writes the same bytes.
	out2 := filepath.Join(t.TempDir(), "again.md")
	args[1] = out2
	if err := run(args, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile(out2); !bytes.Equal(again, data) {
		t.Error("two runs differ")
	}

	// -install copies into the workspace.
	ws := t.TempDir()
	t.Setenv("BUILD_WORKSPACE_DIRECTORY", ws)
	if err := run([]string{"-install", out + "=reference.md"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if installed, _ := os.ReadFile(filepath.Join(ws, "reference.md")); !bytes.Equal(installed, data) {
		t.Error("-install did not copy the reference")
	}
}

func TestErrors(t *testing.T) {
	undocumented := write(t, "BUILD.bazel", "bool_flag(\n    name = \"x\",\n    build_setting_default = True,\n)\n")
	bad := write(t, "bad.textproto", "rule_info {\n  rule_name: \"x\"\n")
	badEscape := write(t, "esc.textproto", `doc: "a\qb"`)
	constant := write(t, "BUILD.bazel", "load(\":v.bzl\", \"DEFAULT\")\n\n# Documented.\nstring_flag(\n    name = \"x\",\n    build_setting_default = DEFAULT,\n)\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{}, "-o is required"},
		{[]string{"-o", "x", "-flags", "pkg=" + undocumented}, "bool_flag x has no comment above it"},
		{[]string{"-o", "x", "-bzl", "@a//:b.bzl=" + bad}, "line 3: in rule_info: missing }"},
		{[]string{"-o", "x", "-bzl", "@a//:b.bzl=" + badEscape}, `unknown escape \q`},
		{[]string{"-o", "x", "-bzl", "nolabel"}, "want LOAD_LABEL=TEXTPROTO"},
		{[]string{"-o", "x", "-flags", "pkg=" + constant}, "DEFAULT comes from :v.bzl: pass it with -load :v.bzl=FILE"},
		{[]string{"extra"}, `unexpected argument "extra"`},
	} {
		var stdout, stderr bytes.Buffer
		err := run(tc.args, &stdout, &stderr)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("run(%q) = %v, want an error containing %q", tc.args, err, tc.want)
		}
	}
}
