package half_test

import (
	"fmt"

	"github.com/rules-cuda-go/rules_cuda_go/ops/half"
)

func Example() {
	h := half.Float16From(0.1)
	b := half.BFloat16From(0.1)
	fmt.Println(h, h.Float32())
	fmt.Println(b, b.Float32())
	fmt.Println(half.Float16From(1e5), half.BFloat16From(1e5)) // Float16 overflows past 65504
	// Output:
	// 0.1 0.099975586
	// 0.1 0.100097656
	// +Inf 1e+05
}
