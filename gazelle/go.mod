module github.com/rules-cuda-go/rules_cuda_go/gazelle

go 1.24.12

require (
	github.com/bazelbuild/bazel-gazelle v0.54.0
	github.com/bazelbuild/buildtools v0.0.0-20250930140053-2eb4fccefb52
)

require (
	github.com/bazel-contrib/bazel-gazelle/v2 v2.0.0-3 // indirect
	github.com/bmatcuk/doublestar/v4 v4.9.1 // indirect
	github.com/google/go-cmp v0.6.0 // indirect
	golang.org/x/mod v0.23.0 // indirect
	golang.org/x/sync v0.11.0 // indirect
	golang.org/x/sys v0.30.0 // indirect
	golang.org/x/tools/go/vcs v0.1.0-deprecated // indirect
)
