// Package nocgo has no cgo.
package nocgo

// N is a number.
const N = 1
