// Package k calls the kernel through cgo.
package k

// #include <stdlib.h>
// #include "k/k.h"
import "C"

// Run runs the kernel.
func Run(x []float32) int {
	return int(C.k_run((*C.float)(&x[0]), C.longlong(len(x))))
}
