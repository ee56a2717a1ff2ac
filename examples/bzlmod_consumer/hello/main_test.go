package main

import (
	"context"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	var out strings.Builder
	if err := run(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	// p(x) = [10 26 58 112], ‖p‖ = √16684; d‖p‖/dx = p·p'/‖p‖ with p'(x) = [10 23 42 67].
	const want = "norm 129.17, gradient [0.77 4.63 18.86 58.10]"
	if !strings.Contains(out.String(), want) {
		t.Errorf("run printed %q, want it to contain %q", out.String(), want)
	}
	t.Log(out.String())
}
