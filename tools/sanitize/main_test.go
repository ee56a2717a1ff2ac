package main

import (
	"io"
	"strings"
	"testing"
)

func TestScanSummaries(t *testing.T) {
	for _, c := range []struct {
		out    string
		seen   bool
		errors int
	}{
		{"PASS\n========= ERROR SUMMARY: 0 errors\n", true, 0},
		{"========= Invalid __global__ write\n========= ERROR SUMMARY: 3 errors\n", true, 3},
		{"========= RACECHECK SUMMARY: 2 hazards displayed (1 error, 1 warning)\n", true, 1},
		{"========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n", true, 0},
		{"PASS\n", false, 0},
	} {
		s, err := scan(strings.NewReader(c.out), io.Discard)
		if err != nil || s.seen != c.seen || s.errors != c.errors {
			t.Errorf("scan(%q) = %+v, %v; want seen %v, %d errors", c.out, s, err, c.seen, c.errors)
		}
	}
}
