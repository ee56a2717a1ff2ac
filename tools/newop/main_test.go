package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNewParamsValidates(t *testing.T) {
	for _, c := range []struct{ name, dir, pkg, want string }{
		{"leakyRelu", "pkg/x", "", "--name"},
		{"Leaky_Relu", "pkg/x", "", "--name"},
		{"LeakyRelu", "", "", "--dir is required"},
		{"LeakyRelu", "/abs/x", "", "clean relative path"},
		{"LeakyRelu", "../x", "", "clean relative path"},
		{"LeakyRelu", "pkg//x", "", "clean relative path"},
		{"LeakyRelu", "bazel-bin/x", "", "bazel-"},
		{"LeakyRelu", "pkg/x y", "", "element"},
		{"LeakyRelu", "pkg/func", "", "keyword"},
		{"LeakyRelu", "pkg/x", "Upper", "lower-case"},
		{"LeakyRelu", "pkg/x", "main", "main"},
	} {
		if _, err := newParams(c.name, c.dir, c.pkg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("newParams(%q, %q, %q) = %v, want an error mentioning %q", c.name, c.dir, c.pkg, err, c.want)
		}
	}
	p, err := newParams("LeakyRelu", "pkg/leaky-relu", "")
	if err != nil {
		t.Fatal(err)
	}
	if p.Package != "leaky_relu" || p.Guard != "PKG_LEAKY_RELU_LEAKY_RELU_H_" {
		t.Errorf("newParams = %+v", p)
	}
}

func TestRenderAndRefuseOverwrite(t *testing.T) {
	p, err := newParams("Cube", "ops/cube", "")
	if err != nil {
		t.Fatal(err)
	}
	files, err := render(p) // also gofmt-checks the Go files
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"cube.cu":      "extern \"C\" int cube_forward_launch(",
		"cube.h":       "#ifndef OPS_CUBE_CUBE_H_",
		"cube.go":      `#include "ops/cube/cube.h"`,
		"cube_test.go": "func BenchmarkCube(b *testing.B)",
		"cube_stub.cc": "extern \"C\" int cube_backward_launch(",
	} {
		if !strings.Contains(string(files[name]), want) {
			t.Errorf("%s does not contain %q", name, want)
		}
	}
	if !strings.Contains(string(buildFile(p, false)), "gazelle:resolve cuda ops/cuda/csrc/opscuda.h @rules_cuda_go//ops/cuda:api") {
		t.Error("a consumer's BUILD file lacks the resolve directive for opscuda.h")
	}
	for _, c := range []struct {
		inRulesCudaGo bool
		want          []string
	}{
		{false, []string{`"@rules_cuda_go//toolchains:cuda_enabled": [":cube_cu"]`, `load("@rules_cuda_go//rules:defs.bzl", "cu_library", "go_cuda_library")`}},
		{true, []string{`"//toolchains:cuda_enabled": [":cube_cu"]`, `load("//rules:defs.bzl", "cu_library", "go_cuda_library")`}},
	} {
		b := string(buildFile(p, c.inRulesCudaGo))
		for _, w := range append(c.want, "# gazelle:exclude cube_stub.cc", `"//conditions:default": [":cube_stub"]`, `srcs = ["cube_stub.cc"]`) {
			if !strings.Contains(b, w) {
				t.Errorf("buildFile(inRulesCudaGo=%v) lacks %q:\n%s", c.inRulesCudaGo, w, b)
			}
		}
	}
	dir := filepath.Join(t.TempDir(), "cube")
	if err := write(dir, files); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(dir, "cube.go"))
	if err := os.WriteFile(filepath.Join(dir, "cube.go"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	err = write(dir, files)
	if err == nil || !strings.Contains(err.Error(), "refusing to overwrite") {
		t.Fatalf("second write = %v, want a refusal", err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "cube.go")); string(got) != "mine" || len(before) == 0 {
		t.Errorf("the refused write changed cube.go")
	}
}
