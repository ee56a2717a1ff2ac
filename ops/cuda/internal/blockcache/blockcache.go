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
package blockcache

import (
	"math/bits"
	"sync"
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
	size   int
}

type pending struct {
	key    key
	ptr    uintptr
	fences []Fence
}

// Cache holds blocks by device, stream and size. The zero value is not
// usable; call New. A Cache is safe for concurrent use.
type Cache struct {
	maxBlock, maxBytes int

	mu      sync.Mutex
	blocks  map[key][]uintptr
	pending []pending
	bytes   map[int]int // cached and pending bytes per device
}

// New returns an empty cache that takes blocks of at most maxBlock bytes and
// holds at most maxBytes per device.
func New(maxBlock, maxBytes int) *Cache {
	return &Cache{maxBlock: maxBlock, maxBytes: maxBytes, blocks: map[key][]uintptr{}, bytes: map[int]int{}}
}

// MaxBlock returns the largest block size the cache takes.
func (c *Cache) MaxBlock() int { return c.maxBlock }

// Get removes and returns a cached block of size bytes for stream on
// device (the most recently put one), or 0 if there is none. On a miss it
// first moves the pending blocks whose fences have all completed into the
// cache.
func (c *Cache) Get(device int, stream uintptr, size int) uintptr {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := key{device, stream, size}
	if len(c.blocks[k]) == 0 && len(c.pending) > 0 {
		c.collectLocked()
	}
	l := c.blocks[k]
	if len(l) == 0 {
		return 0
	}
	p := l[len(l)-1]
	if len(l) == 1 {
		delete(c.blocks, k)
	} else {
		c.blocks[k] = l[:len(l)-1]
	}
	c.bytes[device] -= size
	return p
}

// collectLocked moves pending blocks whose fences are all done into the
// cache. Fences are queried in order and released as soon as they are done.
func (c *Cache) collectLocked() {
	kept := c.pending[:0]
	for _, b := range c.pending {
		for len(b.fences) > 0 && b.fences[0].Done() {
			b.fences[0].Release()
			b.fences = b.fences[1:]
		}
		if len(b.fences) > 0 {
			kept = append(kept, b)
			continue
		}
		c.blocks[b.key] = append(c.blocks[b.key], b.ptr)
	}
	clear(c.pending[len(kept):])
	c.pending = kept
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
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.bytes[device]+size > c.maxBytes {
		return false
	}
	k := key{device, stream, size}
	if len(fences) == 0 {
		c.blocks[k] = append(c.blocks[k], p)
	} else {
		c.pending = append(c.pending, pending{key: k, ptr: p, fences: fences})
	}
	c.bytes[device] += size
	return true
}

// Drain removes and returns every cached block of device, and every
// pending one whose fences have completed; blocks still waiting stay.
func (c *Cache) Drain(device int) []Block {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.collectLocked()
	var out []Block
	for k, l := range c.blocks {
		if k.device == device {
			for _, p := range l {
				out = append(out, Block{Ptr: p, Size: k.size, Stream: k.stream})
				c.bytes[device] -= k.size
			}
			delete(c.blocks, k)
		}
	}
	return out
}

// Move hands the blocks of stream from on device, cached and pending, to
// stream to (for a stream that is being destroyed after its work
// completed); pending blocks keep their fences.
func (c *Cache) Move(device int, from, to uintptr) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, l := range c.blocks {
		if k.device == device && k.stream == from {
			nk := key{device, to, k.size}
			c.blocks[nk] = append(c.blocks[nk], l...)
			delete(c.blocks, k)
		}
	}
	for i := range c.pending {
		if b := &c.pending[i]; b.key.device == device && b.key.stream == from {
			b.key.stream = to
		}
	}
}

// Bytes returns the bytes cached for device, pending blocks included.
func (c *Cache) Bytes(device int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes[device]
}

// Pending returns the number of blocks of device waiting for fences.
func (c *Cache) Pending(device int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, b := range c.pending {
		if b.key.device == device {
			n++
		}
	}
	return n
}
