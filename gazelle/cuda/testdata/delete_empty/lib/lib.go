// Package lib calls the kernel through cgo.
package lib

// #include <stdlib.h>
// #include "lib/k.h"
import "C"

// Run runs the kernel.
func Run(x []float32) int {
	return int(C.k_run((*C.float)(&x[0]), C.longlong(len(x))))
}
