package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommand runs the modes on the CPU as a user would: prepare byte
// shards from a small text, train the tiny configuration with checkpoints,
// resume it, evaluate and sample, and checks what they wrote.
func TestCommand(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "text.txt")
	var sb strings.Builder
	for i := 0; i < 40; i++ {
		sb.WriteString("And God said, Let there be light: and there was light. And God saw the light, that it was good.\n")
		if i%2 == 1 {
			sb.WriteString("\f\n")
		}
	}
	if err := os.WriteFile(text, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	data, out := filepath.Join(dir, "data"), filepath.Join(dir, "run")
	run := func(f func([]string) error, args ...string) {
		t.Helper()
		if err := f(args); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
	}
	run(prepare, "-text", text, "-out", data, "-val-every", "5")
	common := []string{"-data", data, "-out", out, "-device", "cpu", "-dtype", "float32", "-batch", "2", "-seq", "16",
		"-steps", "8", "-warmup", "2", "-lr", "3e-3", "-eval-every", "3", "-eval-batches", "2", "-save-every", "4"}
	run(train, append([]string{"-config", "tiny", "-max-time", "1ns"}, common...)...) // stops after one step, saving
	run(train, append([]string{"-resume", filepath.Join(out, "latest")}, common...)...)
	for _, f := range []string{"loss.png", "latest/config.json", "latest/model.safetensors", "latest/train_state.safetensors"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	lf, err := os.Open(filepath.Join(out, "log.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer lf.Close()
	lines := 0
	for sc := bufio.NewScanner(lf); sc.Scan(); lines++ {
	}
	if lines != 8 {
		t.Errorf("log.jsonl has %d lines, want 8 (1 step, then 7 more after resuming)", lines)
	}
	run(eval, "-ckpt", filepath.Join(out, "latest"), "-data", data, "-device", "cpu", "-dtype", "float32", "-batch", "2", "-seq", "16")
	run(sample, "-ckpt", filepath.Join(out, "latest"), "-device", "cpu", "-dtype", "float32", "-prompt", "And", "-batch", "2", "-n", "5")
	// Another batch size than the saved run's is refused.
	bad := append([]string{"-resume", filepath.Join(out, "latest")}, common...)
	bad = append(bad, "-batch", "3")
	if err := train(bad); err == nil || !strings.Contains(err.Error(), "resume with the same settings") {
		t.Errorf("resume with another batch: %v", err)
	}
}
