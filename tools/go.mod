module github.com/rules-cuda-go/rules_cuda_go/tools

go 1.24.12

require github.com/bazelbuild/buildtools v0.0.0-20250930140053-2eb4fccefb52
