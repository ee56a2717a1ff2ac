module example.com/workspace_consumer

go 1.24.12

require github.com/rules-cuda-go/rules_cuda_go v0.1.0
