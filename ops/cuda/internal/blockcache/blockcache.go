// Package blockcache is the cache of freed device-memory blocks behind
// ops/cuda's allocator: blocks are kept by device, stream and size class
// and handed out again to the next allocation of that class on that
// stream, so a loop of op calls makes no CUDA allocation call (like
// PyTorch's caching allocator). It only does the bookkeeping; allocating
// and freeing device memory, and recording events, is the caller's.
//
// A block is only ever reused on the stream it was freed on: the next
// owner's work is queued after the previous owner's there, so reuse needs
// no synchronization. A block that other streams also used (PyTorch's
// record_stream) is put with one Fence per such stream (an event recorded
// on it at free time) and waits in a pending list until every fence has
// completed; only then can an allocation get it.
//
// Each (device, stream) pair has its own lock, so goroutines allocating on
// different streams do not contend; only the per-device byte count is
// shared (an atomic).
package blockcache

import (
	"math/bits"
	"sync"
	"sync/atomic"
)

// SizeClass returns the bytes to allocate for a request of n > 0 bytes: at
// least 512, and above that n rounded up to a multiple of 2^(bits(n-1)-4),
// which adds at most 1/8 of n, so one class serves nearby sizes.
func SizeClass(n int) int {
	if n <= 512 {
		return 512
	}
	g := 1 << (bits.Len(uint(n-1)) - 4)
	return (n + g - 1) &^ (g - 1)
}

// Fence is a point in another stream's work (a recorded event).
type Fence interface {
	// Done reports whether the work before the fence has completed. A
	// fence whose query fails counts as done (the device's error is
	// reported by the next call that waits for it).
	Done() bool
	// Release gives the fence back; the cache calls it once, after Done
	// returned true or when the block is handed to another stream.
	Release()
}

// Block is a cached block: its device address, size and stream.
type Block struct {
	Ptr    uintptr
	Size   int
	Stream uintptr
}

type key struct {
	device int
	stream uintptr
}

type pending struct {
	size   int
	ptr    uintptr
	fences []Fence
}

// shard holds the blocks of one device and stream.
type shard struct {
	mu      sync.Mutex
	blocks  map[int][]uintptr // by size
	pending []pending
}

// Cache holds blocks by device, stream and size. The zero value is not
// usable; call New. A Cache is safe for concurrent use.
type Cache struct {
	maxBlock, maxBytes int

	shards sync.Map // key -> *shard
	bytes  sync.Map // device -> *atomic.Int64: cached and pending bytes
}

// New returns an empty cache that takes blocks of at most maxBlock bytes and
// holds at most maxBytes per device.
func New(maxBlock, maxBytes int) *Cache {
	return &Cache{maxBlock: maxBlock, maxBytes: maxBytes}
}

// MaxBlock returns the largest block size the cache takes.
func (c *Cache) MaxBlock() int { return c.maxBlock }

// shard returns the shard of (device, stream), creating it if create is set
// (else nil when there is none).
func (c *Cache) shard(device int, stream uintptr, create bool) *shard {
	k := key{device, stream}
	if v, ok := c.shards.Load(k); ok {
		return v.(*shard)
	}
	if !create {
		return nil
	}
	v, _ := c.shards.LoadOrStore(k, &shard{blocks: map[int][]uintptr{}})
	return v.(*shard)
}

// counter returns the byte count of device.
func (c *Cache) counter(device int) *atomic.Int64 {
	if v, ok := c.bytes.Load(device); ok {
		return v.(*atomic.Int64)
	}
	v, _ := c.bytes.LoadOrStore(device, new(atomic.Int64))
	return v.(*atomic.Int64)
}

// Get removes and returns a cached block of size bytes for stream on
// device (the most recently put one), or 0 if there is none. On a miss it
// first moves the stream's pending blocks whose fences have all completed
// into the cache.
func (c *Cache) Get(device int, stream uintptr, size int) uintptr {
	sh := c.shard(device, stream, false)
	if sh == nil {
		return 0
	}
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if len(sh.blocks[size]) == 0 && len(sh.pending) > 0 {
		sh.collectLocked()
	}
	l := sh.blocks[size]
	if len(l) == 0 {
		return 0
	}
	p := l[len(l)-1]
	if len(l) == 1 {
		delete(sh.blocks, size)
	} else {
		sh.blocks[size] = l[:len(l)-1]
	}
	c.counter(device).Add(-int64(size))
	return p
}

// collectLocked moves pending blocks whose fences are all done into the
// shard's blocks. Fences are queried in order and released as soon as they
// are done.
func (sh *shard) collectLocked() {
	kept := sh.pending[:0]
	for _, b := range sh.pending {
		for len(b.fences) > 0 && b.fences[0].Done() {
			b.fences[0].Release()
			b.fences = b.fences[1:]
		}
		if len(b.fences) > 0 {
			kept = append(kept, b)
			continue
		}
		sh.blocks[b.size] = append(sh.blocks[b.size], b.ptr)
	}
	clear(sh.pending[len(kept):])
	sh.pending = kept
}

// Put caches block p of size bytes for reuse on stream and reports whether
// it did: false if the block is larger than MaxBlock or the device's cache
// would exceed its limit; the caller then frees the block.
func (c *Cache) Put(device int, stream uintptr, size int, p uintptr) bool {
	return c.PutPending(device, stream, size, p, nil)
}

// PutPending is Put for a block that other streams used too: it is handed
// out again (on stream) only after every fence is done. It reports false,
// taking nothing (the caller keeps the fences), like Put.
func (c *Cache) PutPending(device int, stream uintptr, size int, p uintptr, fences []Fence) bool {
	if size > c.maxBlock {
		return false
	}
	n := c.counter(device)
	if n.Add(int64(size)) > int64(c.maxBytes) {
		n.Add(-int64(size))
		return false
	}
	sh := c.shard(device, stream, true)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if len(fences) == 0 {
		sh.blocks[size] = append(sh.blocks[size], p)
	} else {
		sh.pending = append(sh.pending, pending{size: size, ptr: p, fences: fences})
	}
	return true
}

// shardsOf returns the streams and shards of device.
func (c *Cache) shardsOf(device int) (streams []uintptr, shards []*shard) {
	c.shards.Range(func(k, v any) bool {
		if kk := k.(key); kk.device == device {
			streams = append(streams, kk.stream)
			shards = append(shards, v.(*shard))
		}
		return true
	})
	return streams, shards
}

// Drain removes and returns every cached block of device, and every
// pending one whose fences have completed; blocks still waiting stay.
func (c *Cache) Drain(device int) []Block {
	var out []Block
	streams, shards := c.shardsOf(device)
	for i, sh := range shards {
		sh.mu.Lock()
		sh.collectLocked()
		for size, l := range sh.blocks {
			for _, p := range l {
				out = append(out, Block{Ptr: p, Size: size, Stream: streams[i]})
				c.counter(device).Add(-int64(size))
			}
		}
		clear(sh.blocks)
		sh.mu.Unlock()
	}
	return out
}

// Move hands the blocks of stream from on device, cached and pending, to
// stream to (for a stream that is being destroyed after its work
// completed); pending blocks keep their fences.
func (c *Cache) Move(device int, from, to uintptr) {
	src := c.shard(device, from, false)
	if src == nil || from == to {
		return
	}
	src.mu.Lock()
	blocks, pend := src.blocks, src.pending
	src.blocks, src.pending = map[int][]uintptr{}, nil
	src.mu.Unlock()
	c.shards.Delete(key{device, from})
	dst := c.shard(device, to, true)
	dst.mu.Lock()
	defer dst.mu.Unlock()
	for size, l := range blocks {
		dst.blocks[size] = append(dst.blocks[size], l...)
	}
	dst.pending = append(dst.pending, pend...)
}

// Bytes returns the bytes cached for device, pending blocks included.
func (c *Cache) Bytes(device int) int {
	return int(c.counter(device).Load())
}

// Pending returns the number of blocks of device waiting for fences.
func (c *Cache) Pending(device int) int {
	n := 0
	_, shards := c.shardsOf(device)
	for _, sh := range shards {
		sh.mu.Lock()
		n += len(sh.pending)
		sh.mu.Unlock()
	}
	return n
}
