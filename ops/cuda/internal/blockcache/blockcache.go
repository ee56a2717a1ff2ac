// Package blockcache is the cache of freed device-memory blocks behind
// ops/cuda's allocator: blocks are kept by device and size class and handed
// out again to the next allocation of that class, so a loop of op calls
// makes no CUDA allocation call (like PyTorch's caching allocator). It only
// does the bookkeeping; allocating and freeing device memory is the
// caller's.
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

type key struct{ device, size int }

// Cache holds blocks (device addresses) by device and size. The zero value
// is not usable; call New. A Cache is safe for concurrent use.
type Cache struct {
	maxBlock, maxBytes int

	mu     sync.Mutex
	blocks map[key][]uintptr
	bytes  map[int]int // cached bytes per device
}

// New returns an empty cache that takes blocks of at most maxBlock bytes and
// holds at most maxBytes per device.
func New(maxBlock, maxBytes int) *Cache {
	return &Cache{maxBlock: maxBlock, maxBytes: maxBytes, blocks: map[key][]uintptr{}, bytes: map[int]int{}}
}

// MaxBlock returns the largest block size the cache takes.
func (c *Cache) MaxBlock() int { return c.maxBlock }

// Get removes and returns a cached block of size bytes on device (the most
// recently put one), or 0 if there is none.
func (c *Cache) Get(device, size int) uintptr {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := key{device, size}
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

// Put caches block p of size bytes on device and reports whether it did:
// false if the block is larger than MaxBlock or the device's cache would
// exceed its limit; the caller then frees the block.
func (c *Cache) Put(device, size int, p uintptr) bool {
	if size > c.maxBlock {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.bytes[device]+size > c.maxBytes {
		return false
	}
	k := key{device, size}
	c.blocks[k] = append(c.blocks[k], p)
	c.bytes[device] += size
	return true
}

// Drain removes and returns every cached block of device.
func (c *Cache) Drain(device int) []uintptr {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []uintptr
	for k, l := range c.blocks {
		if k.device == device {
			out = append(out, l...)
			delete(c.blocks, k)
		}
	}
	delete(c.bytes, device)
	return out
}

// Bytes returns the bytes cached for device.
func (c *Cache) Bytes(device int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes[device]
}
