module github.com/rules-cuda-go/rules_cuda_go

go 1.24.12

require github.com/x448/float16 v0.8.4
