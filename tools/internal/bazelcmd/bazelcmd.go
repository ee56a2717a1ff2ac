// Package bazelcmd finds the Bazel that tools started with `bazel run` (tools/newop, tools/compdb)
// call back into the workspace with.
package bazelcmd

import (
	"errors"
	"os"
	"os/exec"
)

// Find returns the Bazel command to run: flagValue if set, else $RULES_CUDA_GO_BAZEL (which
// rules_cuda_go's bazelw sets to itself), else bazel or bazelisk on PATH.
func Find(flagValue string) (string, error) {
	for _, c := range []string{flagValue, os.Getenv("RULES_CUDA_GO_BAZEL")} {
		if c != "" {
			return c, nil
		}
	}
	for _, c := range []string{"bazel", "bazelisk"} {
		if p, err := exec.LookPath(c); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no bazel or bazelisk on PATH (pass --bazel=PATH, or set RULES_CUDA_GO_BAZEL)")
}
