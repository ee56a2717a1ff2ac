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
	if p := c.Get(0, 0, 512); p != 0 {
		t.Fatalf("empty cache gave %#x", p)
	}
	if !c.Put(0, 0, 512, 0x1000) || !c.Put(0, 0, 512, 0x2000) || !c.Put(1, 0, 512, 0x3000) {
		t.Fatal("Put refused a block within the limits")
	}
	if c.Put(0, 0, 8192, 0x4000) {
		t.Error("Put took a block over MaxBlock")
	}
	if got := c.Get(0, 0, 512); got != 0x2000 {
		t.Errorf("Get = %#x, want the last block put (0x2000)", got)
	}
	if got := c.Get(0, 0, 1024); got != 0 {
		t.Errorf("Get of another size class = %#x, want 0", got)
	}
	if got := c.Bytes(0); got != 512 {
		t.Errorf("Bytes(0) = %d, want 512", got)
	}
	// The per-device limit: 8192 bytes.
	for i := range 4 {
		if ok := c.Put(0, 0, 2048, uintptr(0x10000+i)); ok != (i < 3) {
			t.Errorf("Put #%d of 2048 bytes with %d cached: %v", i, c.Bytes(0), ok)
		}
	}
	got := ptrs(c.Drain(0))
	if want := []uintptr{0x1000, 0x10000, 0x10001, 0x10002}; !slices.Equal(got, want) {
		t.Errorf("Drain(0) = %#x, want %#x", got, want)
	}
	if c.Bytes(0) != 0 || c.Get(0, 0, 2048) != 0 {
		t.Error("device 0 not empty after Drain")
	}
	if got := c.Get(1, 0, 512); got != 0x3000 {
		t.Errorf("Drain(0) touched device 1: Get(1) = %#x", got)
	}
}

func ptrs(bs []Block) []uintptr {
	var out []uintptr
	for _, b := range bs {
		out = append(out, b.Ptr)
	}
	slices.Sort(out)
	return out
}

// A block freed on one stream is never handed to another.
func TestStreamsDoNotShare(t *testing.T) {
	c := New(4096, 1<<20)
	const a, b = 0xa, 0xb
	c.Put(0, a, 512, 0x1000)
	if got := c.Get(0, b, 512); got != 0 {
		t.Fatalf("Get on stream b = %#x, a block freed on stream a", got)
	}
	if got := c.Get(0, a, 512); got != 0x1000 {
		t.Fatalf("Get on stream a = %#x, want 0x1000", got)
	}
	c.Put(0, a, 512, 0x2000)
	c.Move(0, a, 0)
	if c.Get(0, a, 512) != 0 || c.Get(0, 0, 512) != 0x2000 {
		t.Error("Move(a -> 0) did not hand stream a's block to stream 0")
	}
	blocks := []Block{}
	c.Put(0, b, 1024, 0x3000)
	blocks = append(blocks, c.Drain(0)...)
	if len(blocks) != 1 || blocks[0] != (Block{Ptr: 0x3000, Size: 1024, Stream: b}) {
		t.Errorf("Drain = %+v, want the block with its stream", blocks)
	}
}

// fence is a Fence whose completion the test controls.
type fence struct {
	mu       sync.Mutex
	done     bool
	released int
}

func (f *fence) Done() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.done
}

func (f *fence) Release() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.released++
}

func (f *fence) complete() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.done = true
}

// A block another stream used comes back only when every fence has
// completed (record_stream), and each fence is released exactly once.
func TestPendingWaitsForEveryFence(t *testing.T) {
	c := New(4096, 1<<20)
	f1, f2 := &fence{}, &fence{}
	if !c.PutPending(0, 7, 512, 0x1000, []Fence{f1, f2}) {
		t.Fatal("PutPending refused")
	}
	if c.Pending(0) != 1 || c.Bytes(0) != 512 {
		t.Fatalf("Pending = %d, Bytes = %d, want 1 and 512", c.Pending(0), c.Bytes(0))
	}
	if got := c.Get(0, 7, 512); got != 0 {
		t.Fatalf("Get = %#x before any fence completed", got)
	}
	f2.complete()
	if got := c.Get(0, 7, 512); got != 0 {
		t.Fatalf("Get = %#x with the first fence still pending", got)
	}
	f1.complete()
	if got := c.Get(0, 8, 512); got != 0 {
		t.Fatalf("Get on another stream = %#x", got)
	}
	if got := c.Get(0, 7, 512); got != 0x1000 {
		t.Fatalf("Get = %#x after both fences completed, want 0x1000", got)
	}
	if f1.released != 1 || f2.released != 1 {
		t.Errorf("fences released %d and %d times, want 1 each", f1.released, f2.released)
	}
	if c.Pending(0) != 0 || c.Bytes(0) != 0 {
		t.Errorf("Pending = %d, Bytes = %d after the Get, want 0", c.Pending(0), c.Bytes(0))
	}
	// Drain leaves blocks whose fences are pending, and takes completed ones.
	f3, f4 := &fence{}, &fence{}
	c.PutPending(0, 7, 512, 0x2000, []Fence{f3})
	c.PutPending(0, 7, 512, 0x3000, []Fence{f4})
	f4.complete()
	if got := ptrs(c.Drain(0)); !slices.Equal(got, []uintptr{0x3000}) {
		t.Errorf("Drain = %#x, want only the completed block 0x3000", got)
	}
	if c.Pending(0) != 1 || c.Bytes(0) != 512 {
		t.Errorf("after Drain: Pending = %d, Bytes = %d, want 1 and 512", c.Pending(0), c.Bytes(0))
	}
}

// Many goroutines putting and getting on their own streams, some blocks
// with fences that other goroutines complete: no block is handed out twice
// or to the wrong stream (run with -race).
func TestCacheConcurrent(t *testing.T) {
	c := New(1<<20, 1<<30)
	var wg sync.WaitGroup
	var mu sync.Mutex
	out := map[uintptr]bool{}
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stream := uintptr(g + 1)
			for i := range 1000 {
				p := uintptr(g<<20 | i + 1)
				if i%3 == 0 {
					f := &fence{}
					if !c.PutPending(0, stream, 512, p, []Fence{f}) {
						t.Error("PutPending refused")
						return
					}
					go f.complete()
					continue
				}
				if !c.Put(0, stream, 512, p) {
					t.Error("Put refused")
					return
				}
				q := c.Get(0, stream, 512)
				if q == 0 || int(q>>20) != g {
					t.Errorf("Get on stream %d = %#x, want one of its own blocks", stream, q)
					return
				}
				mu.Lock()
				if out[q] {
					t.Errorf("block %#x handed out twice", q)
				}
				out[q] = true
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if n := c.Bytes(0); n != 512*c.Pending(0)+512*len(allBlocks(c)) {
		t.Errorf("Bytes = %d, inconsistent with the blocks held", n)
	}
}

func allBlocks(c *Cache) []uintptr {
	var out []uintptr
	_, shards := c.shardsOf(0)
	for _, sh := range shards {
		sh.mu.Lock()
		for _, l := range sh.blocks {
			out = append(out, l...)
		}
		sh.mu.Unlock()
	}
	return out
}
