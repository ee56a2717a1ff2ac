// Command hello computes ‖x³ + 2x² + 3x + 4‖ and its gradient with rules_cuda_go's ops: on the GPU
// when there is one, on the CPU otherwise (the same binary starts without a GPU or NVIDIA driver).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda" // the CUDA backend, registered on import
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, w io.Writer) error {
	x, err := ops.FromFloat32([]float32{1, 2, 3, 4})
	if err != nil {
		return err
	}
	if xd, err := x.To(ctx, ops.CUDA(0)); err == nil {
		x = xd
	} else if !errors.Is(err, cuda.ErrNoDevice) {
		return err
	}
	if err := x.SetRequiresGrad(true); err != nil {
		return err
	}
	y, err := ops.Polynomial(ctx, x, 1, 2, 3, 4) // x³ + 2x² + 3x + 4, one fused kernel
	if err != nil {
		return err
	}
	n, err := ops.Norm(ctx, y)
	if err != nil {
		return err
	}
	if err := n.Backward(ctx); err != nil { // x.Grad() = d‖y‖/dx, on x's device
		return err
	}
	norm, err := n.Float32s()
	if err != nil {
		return err
	}
	grad, err := x.Grad().Float32s()
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "on %v: norm %.2f, gradient %.2f\n", x.Device(), norm[0], grad)
	return err
}
