package resolver_test

import (
	"fmt"
	"strings"

	"github.com/rules-cuda-go/rules_cuda_go/toolchains/resolver"
)

func ExampleResolve() {
	flags, err := resolver.Resolve("Ampere;9.0a 10.0+PTX", resolver.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range flags {
		fmt.Println(f)
	}
	// Output:
	// -gencode=arch=compute_100,code=compute_100
	// -gencode=arch=compute_100,code=sm_100
	// -gencode=arch=compute_80,code=sm_80
	// -gencode=arch=compute_86,code=compute_86
	// -gencode=arch=compute_86,code=sm_86
	// -gencode=arch=compute_90a,code=sm_90a
}

func ExampleResolve_native() {
	// Unset or "native": the GPUs' capabilities, capped at what the nvcc
	// supports, sorted as strings; the last one gets +PTX.
	flags, _ := resolver.Resolve("native", resolver.Options{
		GPUs:      []resolver.Capability{{Major: 12, Minor: 0}, {Major: 8, Minor: 9}},
		Supported: []string{"sm_80", "sm_89", "sm_90", "sm_100", "sm_120"},
	})
	fmt.Println(strings.Join(flags, "\n"))
	// Output:
	// -gencode=arch=compute_120,code=sm_120
	// -gencode=arch=compute_89,code=compute_89
	// -gencode=arch=compute_89,code=sm_89
}

func ExampleResolve_unsupported() {
	_, err := resolver.Resolve("3.5;8.0", resolver.Options{Supported: []string{"sm_75", "sm_80", "sm_90"}})
	fmt.Println(err)
	// Output:
	// TORCH_CUDA_ARCH_LIST="3.5;8.0": CUDA arch "3.5" needs sm_35, which this nvcc cannot build; it supports: sm_75 sm_80 sm_90
}

func ExampleExplain() {
	rows, err := resolver.Explain("Maxwell Hopper", resolver.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range rows {
		fmt.Printf("%s -> %s -> %s\n", r.Entry, strings.Join(r.Arches, ";"), strings.Join(r.Flags, " "))
	}
	// Output:
	// Maxwell -> 5.0;5.2+PTX -> -gencode=arch=compute_50,code=sm_50 -gencode=arch=compute_52,code=compute_52 -gencode=arch=compute_52,code=sm_52
	// Hopper -> 9.0+PTX -> -gencode=arch=compute_90,code=compute_90 -gencode=arch=compute_90,code=sm_90
}
