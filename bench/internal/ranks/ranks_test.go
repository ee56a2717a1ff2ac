package ranks

import (
	"strings"
	"testing"
)

func TestChild(t *testing.T) {
	if _, ok, err := Child("RANKSTEST"); ok || err != nil {
		t.Fatalf("Child without RANKSTEST_RANK = %v, %v; want not a child", ok, err)
	}
	t.Setenv("RANKSTEST_RANK", "1")
	t.Setenv("RANKSTEST_SIZE", "2")
	t.Setenv("RANKSTEST_ADDR", "127.0.0.1:4000")
	r, ok, err := Child("RANKSTEST")
	if !ok || err != nil || r != (Rank{Rank: 1, Size: 2, Addr: "127.0.0.1:4000"}) {
		t.Fatalf("Child = %+v, %v, %v; want rank 1 of 2 at 127.0.0.1:4000", r, ok, err)
	}
	for _, bad := range [][2]string{{"x", "2"}, {"2", "2"}, {"0", ""}, {"-1", "2"}} {
		t.Setenv("RANKSTEST_RANK", bad[0])
		t.Setenv("RANKSTEST_SIZE", bad[1])
		if _, ok, err := Child("RANKSTEST"); !ok || err == nil || !strings.Contains(err.Error(), "RANKSTEST_") {
			t.Errorf("Child with rank %q, size %q = %v, %v; want an error naming the variable", bad[0], bad[1], ok, err)
		}
	}
}
