// Package gowired calls a kernel through the C header of its directory.
package gowired

// #include "gowired/scale.h"
import "C"

// Scale scales nothing; it shows the wiring.
func Scale() int { return int(C.scale_run(C.Vec{}, 2)) }
