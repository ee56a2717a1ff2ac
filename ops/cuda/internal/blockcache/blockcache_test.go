package blockcache

import (
	"slices"
	"sync"
	"testing"
)

func TestSizeClass(t *testing.T) {
	for _, tc := range []struct{ n, want int }{
		{1, 512}, {512, 512}, {513, 576}, {4000, 4096}, {4096, 4096}, {4097, 4608}, {1 << 20, 1 << 20}, {1<<20 + 1, 1<<20 + 1<<17},
	} {
		if got := SizeClass(tc.n); got != tc.want {
			t.Errorf("SizeClass(%d) = %d, want %d", tc.n, got, tc.want)
		}
	}
	prev := 0
	for n := 1; n <= 1<<22; n += 1 + n/97 {
		c := SizeClass(n)
		if c < n || c < 512 || (n > 512 && float64(c) > 1.125*float64(n)) || c%32 != 0 || c < prev {
			t.Fatalf("SizeClass(%d) = %d: want >= n, >= 512, <= n*9/8 above 512, a multiple of 32, monotonic (previous %d)", n, c, prev)
		}
		if SizeClass(c) != c {
			t.Fatalf("SizeClass(%d) = %d, but SizeClass(%d) = %d: a class must map to itself", n, c, c, SizeClass(c))
		}
		prev = c
	}
}

func TestCache(t *testing.T) {
	c := New(4096, 8192)
	if p := c.Get(0, 512); p != 0 {
		t.Fatalf("empty cache gave %#x", p)
	}
	if !c.Put(0, 512, 0x1000) || !c.Put(0, 512, 0x2000) || !c.Put(1, 512, 0x3000) {
		t.Fatal("Put refused a block within the limits")
	}
	if c.Put(0, 8192, 0x4000) {
		t.Error("Put took a block over MaxBlock")
	}
	if got := c.Get(0, 512); got != 0x2000 {
		t.Errorf("Get = %#x, want the last block put (0x2000)", got)
	}
	if got := c.Get(0, 1024); got != 0 {
		t.Errorf("Get of another size class = %#x, want 0", got)
	}
	if got := c.Bytes(0); got != 512 {
		t.Errorf("Bytes(0) = %d, want 512", got)
	}
	// The per-device limit: 8192 bytes.
	for i := range 4 {
		if ok := c.Put(0, 2048, uintptr(0x10000+i)); ok != (i < 3) {
			t.Errorf("Put #%d of 2048 bytes with %d cached: %v", i, c.Bytes(0), ok)
		}
	}
	got := c.Drain(0)
	slices.Sort(got)
	if want := []uintptr{0x1000, 0x10000, 0x10001, 0x10002}; !slices.Equal(got, want) {
		t.Errorf("Drain(0) = %#x, want %#x", got, want)
	}
	if c.Bytes(0) != 0 || c.Get(0, 2048) != 0 {
		t.Error("device 0 not empty after Drain")
	}
	if got := c.Get(1, 512); got != 0x3000 {
		t.Errorf("Drain(0) touched device 1: Get(1) = %#x", got)
	}
}

func TestCacheConcurrent(t *testing.T) {
	c := New(1<<20, 1<<30)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 1000 {
				p := uintptr(g<<20 | i + 1)
				if !c.Put(0, 512, p) {
					t.Error("Put refused")
					return
				}
				if c.Get(0, 512) == 0 {
					t.Error("Get found nothing after a Put")
					return
				}
			}
		}()
	}
	wg.Wait()
	if c.Bytes(0) != 0 {
		t.Errorf("Bytes = %d after balanced Put/Get, want 0", c.Bytes(0))
	}
}
