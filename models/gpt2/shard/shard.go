// Package shard reads and writes llm.c's token shards and loads batches from
// them for one rank of a data-parallel run.
//
// A shard (.bin) is a 1024-byte header of 256 little-endian int32 values,
// header[0] = Magic (20240520), header[1] = Version (1), header[2] = the
// number of tokens, the rest zero, followed by that many little-endian uint16
// tokens. This is the format of llm.c's dev/data scripts, so shards written
// by either are read by both.
package shard

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

const (
	// Magic is header[0] of every shard.
	Magic = 20240520
	// Version is the only header[1] this package reads and writes.
	Version = 1
	// HeaderInts is the number of int32 values in the header.
	HeaderInts = 256
	// HeaderBytes is the header's size in bytes.
	HeaderBytes = HeaderInts * 4
	// MaxToken is the largest token a shard can hold (uint16).
	MaxToken = 1<<16 - 1
)

// ErrFormat is wrapped by every error about a shard's contents (magic,
// version, size); errors.Is(err, os.ErrNotExist) tells a missing shard.
var ErrFormat = errors.New("not a valid token shard")

// Write writes tokens as a shard to path (created or truncated). Every token
// must be in [0, MaxToken].
func Write(path string, tokens []int32) error {
	buf := make([]byte, HeaderBytes+2*len(tokens))
	binary.LittleEndian.PutUint32(buf[0:], Magic)
	binary.LittleEndian.PutUint32(buf[4:], Version)
	binary.LittleEndian.PutUint32(buf[8:], uint32(len(tokens)))
	for i, t := range tokens {
		if t < 0 || t > MaxToken {
			return fmt.Errorf("shard %s: token %d at index %d is outside [0, %d] (uint16)", path, t, i, MaxToken)
		}
		binary.LittleEndian.PutUint16(buf[HeaderBytes+2*i:], uint16(t))
	}
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		return fmt.Errorf("shard: %w", err)
	}
	return nil
}

// Read reads the shard at path and returns its tokens. A missing file, a
// header with another magic number or version, and a file shorter or longer
// than its header says are errors naming the file and what was found.
func Read(path string) ([]int32, error) {
	f, n, err := open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	raw := make([]byte, 2*n)
	if _, err := io.ReadFull(f, raw); err != nil {
		return nil, fmt.Errorf("shard %s: reading %d tokens: %w", path, n, err)
	}
	toks := make([]int32, n)
	for i := range toks {
		toks[i] = int32(binary.LittleEndian.Uint16(raw[2*i:]))
	}
	return toks, nil
}

// Count returns the number of tokens the shard at path holds, reading only
// its header (and checking the file's size against it).
func Count(path string) (int, error) {
	f, n, err := open(path)
	if err != nil {
		return 0, err
	}
	f.Close()
	return n, nil
}

// open opens a shard, checks its header and size, and returns the file
// positioned at the first token and the number of tokens.
func open(path string) (*os.File, int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, fmt.Errorf("shard: %w", err)
	}
	n, err := readHeader(path, f)
	if err == nil {
		var st os.FileInfo
		if st, err = f.Stat(); err != nil {
			err = fmt.Errorf("shard %s: %w", path, err)
		} else if want := int64(HeaderBytes) + 2*int64(n); st.Size() != want {
			err = fmt.Errorf("shard %s: %w: header says %d tokens (%d bytes in all), the file has %d bytes (truncated or not a shard)",
				path, ErrFormat, n, want, st.Size())
		}
	}
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, n, nil
}

func readHeader(path string, r io.Reader) (int, error) {
	var h [HeaderBytes]byte
	if n, err := io.ReadFull(r, h[:]); err != nil {
		return 0, fmt.Errorf("shard %s: %w: %d bytes, shorter than the %d-byte header", path, ErrFormat, n, HeaderBytes)
	}
	magic := int32(binary.LittleEndian.Uint32(h[0:]))
	version := int32(binary.LittleEndian.Uint32(h[4:]))
	n := int32(binary.LittleEndian.Uint32(h[8:]))
	if magic != Magic {
		return 0, fmt.Errorf("shard %s: %w: magic number %d, expected %d (llm.c's token shard)", path, ErrFormat, magic, Magic)
	}
	if version != Version {
		return 0, fmt.Errorf("shard %s: %w: version %d, expected %d (uint16 tokens)", path, ErrFormat, version, Version)
	}
	if n < 0 {
		return 0, fmt.Errorf("shard %s: %w: negative token count %d", path, ErrFormat, n)
	}
	return int(n), nil
}
