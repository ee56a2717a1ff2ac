module github.com/rules-cuda-go/rules_cuda_go

go 1.24

require gorgonia.org/cu v0.9.6

require (
	github.com/google/uuid v1.1.1 // indirect
	github.com/pkg/errors v0.9.1 // indirect
)
