// Package kernels calls the kernel through cgo.
package kernels

// #include <stdlib.h>
// #include "kernels/scale.h"
import "C"

// Run runs the kernel.
func Run(x []float32) int {
	return int(C.k_run((*C.float)(&x[0]), C.longlong(len(x))))
}
