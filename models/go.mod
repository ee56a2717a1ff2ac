module github.com/rules-cuda-go/rules_cuda_go/models

go 1.24.12
