package jit

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Environment variables that DefaultCache reads.
const (
	// CacheDirEnv overrides the cache directory.
	CacheDirEnv = "RULES_CUDA_GO_JIT_CACHE"
	// CacheMaxEnv overrides the size cap, in bytes (0: no cap).
	CacheMaxEnv = "RULES_CUDA_GO_JIT_CACHE_MAX_BYTES"
)

// DefaultMaxBytes is DefaultCache's size cap: 256 MiB.
const DefaultMaxBytes = 256 << 20

const (
	layout     = "v1"                  // directory of this entry format, below Dir
	entryMagic = "RCGJIT01"            // first bytes of an entry
	entryExt   = ".jit"                // entry files
	lockExt    = ".lock"               // lock files, next to their entries
	touchAfter = 10 * time.Minute      // a hit refreshes an entry's time at most this often
	keyPrefix  = "rules_cuda_go jit 1" // first field of every key
)

// Cache is a directory of compiled programs, the analogue of PyTorch's torch_extensions
// directory: Compile returns a cached image when the same program was compiled before for the
// same architecture and format by the same NVRTC version, in this or any other process, and
// compiles and stores it otherwise.
//
// The key is a SHA-256 over the source, the program name, the in-memory headers, the options,
// the name expressions, the architecture, the format and the NVRTC version. Headers that NVRTC
// reads from disk (the toolkit's, or through -I options) are not part of it: the toolkit's change
// with the NVRTC version; for headers of your own, use Program.Headers or change an option.
//
// Entries are written to a temporary file and renamed into place, so readers never see half an
// entry; each carries its length and a SHA-256 of its code, and an entry that does not check
// (truncated or corrupted on disk) is deleted and compiled again. Goroutines of one process that
// ask for the same key at once wait for one compile; other processes wait on a lock file for the
// one that compiles. After a compile, when the entries exceed MaxBytes, the least recently used
// ones are deleted. A Cache is safe for concurrent use.
type Cache struct {
	// Dir is the cache directory; entries live in Dir/v1.
	Dir string
	// MaxBytes caps the entries' total size; 0 means no cap.
	MaxBytes int64

	mu       sync.Mutex
	inflight map[string]*flight
	stats    struct{ hits, compiles, rebuilt atomic.Int64 }
}

type flight struct {
	done chan struct{}
	im   *Image
	err  error
}

// CacheStats counts what a Cache did in this process.
type CacheStats struct {
	Hits     int64 // images read from disk
	Compiles int64 // images compiled by this process
	Rebuilt  int64 // corrupt or truncated entries found, deleted and compiled again
}

// Stats returns the counters of this process's use of c.
func (c *Cache) Stats() CacheStats {
	return CacheStats{Hits: c.stats.hits.Load(), Compiles: c.stats.compiles.Load(), Rebuilt: c.stats.rebuilt.Load()}
}

// DefaultCacheDir returns $RULES_CUDA_GO_JIT_CACHE, else $XDG_CACHE_HOME/rules_cuda_go/jit,
// else $HOME/.cache/rules_cuda_go/jit.
func DefaultCacheDir() (string, error) {
	if d := os.Getenv(CacheDirEnv); d != "" {
		return d, nil
	}
	base, err := os.UserCacheDir() // $XDG_CACHE_HOME, else $HOME/.cache
	if err != nil {
		return "", fmt.Errorf("jit: no cache directory (set %s): %w", CacheDirEnv, err)
	}
	return filepath.Join(base, "rules_cuda_go", "jit"), nil
}

var defaultCache = sync.OnceValues(func() (*Cache, error) {
	dir, err := DefaultCacheDir()
	if err != nil {
		return nil, err
	}
	limit := int64(DefaultMaxBytes)
	if v := os.Getenv(CacheMaxEnv); v != "" {
		if limit, err = strconv.ParseInt(v, 10, 64); err != nil || limit < 0 {
			return nil, fmt.Errorf("jit: %s=%q is not a byte count", CacheMaxEnv, v)
		}
	}
	return &Cache{Dir: dir, MaxBytes: limit}, nil
})

// DefaultCache returns the process's cache in DefaultCacheDir with a cap of DefaultMaxBytes
// ($RULES_CUDA_GO_JIT_CACHE_MAX_BYTES overrides it), made on first use.
func DefaultCache() (*Cache, error) { return defaultCache() }

// Compile returns the image of p for arch and format from the cache, compiling it with Compile
// (and storing it) when it is not there. Compile errors are not cached.
func (c *Cache) Compile(p Program, arch Arch, format Format) (*Image, error) {
	if c.Dir == "" {
		return nil, errors.New("jit: Cache.Dir is empty")
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	if format != CUBIN && format != PTX {
		return nil, fmt.Errorf("jit: invalid format %v", format)
	}
	if _, err := arch.number(); err != nil {
		return nil, err
	}
	v, err := Version()
	if err != nil {
		return nil, err
	}
	key := cacheKey(p, arch, format, v)
	c.mu.Lock()
	if f, ok := c.inflight[key]; ok {
		c.mu.Unlock()
		<-f.done
		return f.im, f.err
	}
	f := &flight{done: make(chan struct{})}
	if c.inflight == nil {
		c.inflight = map[string]*flight{}
	}
	c.inflight[key] = f
	c.mu.Unlock()

	f.im, f.err = c.lookupOrCompile(key, p, arch, format)
	c.mu.Lock()
	delete(c.inflight, key)
	c.mu.Unlock()
	close(f.done)
	return f.im, f.err
}

func (c *Cache) lookupOrCompile(key string, p Program, arch Arch, format Format) (*Image, error) {
	dir := filepath.Join(c.Dir, layout, key[:2])
	path := filepath.Join(dir, key+entryExt)
	if im := c.read(path, key); im != nil {
		return im, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("jit: cache: %w", err)
	}
	unlock, err := lockFile(filepath.Join(dir, key+lockExt))
	if err != nil {
		return nil, err
	}
	defer unlock()
	if im := c.read(path, key); im != nil { // another process compiled it while we waited
		return im, nil
	}
	im, err := Compile(p, arch, format)
	if err != nil {
		return nil, err
	}
	c.stats.compiles.Add(1)
	if err := writeEntry(dir, path, key, im); err != nil {
		return nil, err
	}
	if err := c.evict(path); err != nil {
		return nil, err
	}
	return im, nil
}

// entryMeta is the JSON header of an entry.
type entryMeta struct {
	Key        string            `json:"key"`
	Format     Format            `json:"format"`
	Arch       Arch              `json:"arch"`
	NVRTC      string            `json:"nvrtc"`
	Lowered    map[string]string `json:"lowered"`
	Log        string            `json:"log"`
	CodeLen    int               `json:"code_len"`
	CodeSHA256 string            `json:"code_sha256"`
}

// read returns the entry at path, or nil when there is none; a damaged entry is deleted.
func (c *Cache) read(path, key string) *Image {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	im, ok := decodeEntry(data, key)
	if !ok {
		c.stats.rebuilt.Add(1)
		_ = os.Remove(path)
		return nil
	}
	c.stats.hits.Add(1)
	if st, err := os.Stat(path); err == nil && time.Since(st.ModTime()) > touchAfter {
		now := time.Now()
		_ = os.Chtimes(path, now, now) // least recently used = oldest modification time
	}
	return im
}

func decodeEntry(data []byte, key string) (*Image, bool) {
	if len(data) < len(entryMagic)+4 || string(data[:len(entryMagic)]) != entryMagic {
		return nil, false
	}
	data = data[len(entryMagic):]
	n := binary.LittleEndian.Uint32(data)
	data = data[4:]
	if uint64(n) > uint64(len(data)) {
		return nil, false
	}
	var m entryMeta
	if json.Unmarshal(data[:n], &m) != nil || m.Key != key {
		return nil, false
	}
	code := data[n:]
	sum := sha256.Sum256(code)
	if len(code) != m.CodeLen || hex.EncodeToString(sum[:]) != m.CodeSHA256 {
		return nil, false
	}
	return &Image{Format: m.Format, Arch: m.Arch, Code: code, Lowered: m.Lowered, Log: m.Log, NVRTC: m.NVRTC}, true
}

// writeEntry stores im at path atomically: a temporary file in the same directory, synced, then
// renamed over path.
func writeEntry(dir, path, key string, im *Image) error {
	sum := sha256.Sum256(im.Code)
	meta, err := json.Marshal(entryMeta{Key: key, Format: im.Format, Arch: im.Arch, NVRTC: im.NVRTC,
		Lowered: im.Lowered, Log: im.Log, CodeLen: len(im.Code), CodeSHA256: hex.EncodeToString(sum[:])})
	if err != nil {
		return fmt.Errorf("jit: cache entry: %w", err)
	}
	var buf bytes.Buffer
	buf.WriteString(entryMagic)
	_ = binary.Write(&buf, binary.LittleEndian, uint32(len(meta)))
	buf.Write(meta)
	buf.Write(im.Code)
	tmp, err := os.CreateTemp(dir, key+".tmp*")
	if err != nil {
		return fmt.Errorf("jit: cache: %w", err)
	}
	_, err = tmp.Write(buf.Bytes())
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("jit: cache: writing %s: %w", path, err)
	}
	return nil
}

// evict deletes the least recently used entries (never keep) until they fit in MaxBytes.
func (c *Cache) evict(keep string) error {
	if c.MaxBytes <= 0 {
		return nil
	}
	type entry struct {
		path string
		size int64
		mod  time.Time
	}
	var entries []entry
	var total int64
	root := filepath.Join(c.Dir, layout)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // deleted by another process meanwhile
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		if strings.Contains(d.Name(), ".tmp") && time.Since(info.ModTime()) > time.Hour {
			_ = os.Remove(path) // left by a process that died while writing
			return nil
		}
		if !strings.HasSuffix(path, entryExt) {
			return nil
		}
		entries = append(entries, entry{path, info.Size(), info.ModTime()})
		total += info.Size()
		return nil
	})
	if err != nil {
		return fmt.Errorf("jit: cache eviction: %w", err)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].mod.Before(entries[j].mod) })
	for _, e := range entries {
		if total <= c.MaxBytes {
			break
		}
		if e.path == keep {
			continue
		}
		if err := os.Remove(e.path); err == nil || errors.Is(err, fs.ErrNotExist) {
			total -= e.size
			removeLockFile(strings.TrimSuffix(e.path, entryExt) + lockExt)
		}
	}
	return nil
}

// cacheKey hashes everything that decides an image, each field length-prefixed.
func cacheKey(p Program, arch Arch, format Format, nvrtc string) string {
	h := sha256.New()
	field := func(s string) {
		_ = binary.Write(h, binary.LittleEndian, uint64(len(s)))
		h.Write([]byte(s))
	}
	field(keyPrefix)
	field(nvrtc)
	field(string(arch))
	field(format.String())
	field(p.name())
	field(p.Source)
	names, srcs := p.headerLists()
	field(strconv.Itoa(len(names)))
	for i := range names {
		field(names[i])
		field(srcs[i])
	}
	field(strconv.Itoa(len(p.Options)))
	for _, o := range p.Options {
		field(o)
	}
	field(strconv.Itoa(len(p.NameExpressions)))
	for _, e := range p.NameExpressions {
		field(e)
	}
	return hex.EncodeToString(h.Sum(nil))
}
