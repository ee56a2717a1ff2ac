package nccl

// #include "ops/cuda/nccl/csrc/opsnccl.h"
import "C"

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unsafe"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// UniqueID identifies a communicator while its ranks join it
// (ncclUniqueId): one rank makes it with NewUniqueID and hands it to the
// others, which pass it to NewComm. Its String form (hex) travels through
// environment variables, files and command lines; ParseUniqueID reads it.
type UniqueID [C.OPSNCCL_ID_BYTES]byte

// NewUniqueID returns a new ID (ncclGetUniqueId; it names this host's
// bootstrap address, chosen by NCCL_SOCKET_IFNAME and friends).
func NewUniqueID() (UniqueID, error) {
	var id UniqueID
	if code := C.opsnccl_unique_id((*C.char)(unsafe.Pointer(&id[0]))); code != 0 {
		return id, check("ncclGetUniqueId", code, 0)
	}
	return id, nil
}

// String returns the ID in hex (256 characters).
func (id UniqueID) String() string { return hex.EncodeToString(id[:]) }

// ParseUniqueID reads an ID written by String (surrounding space ignored).
func ParseUniqueID(s string) (UniqueID, error) {
	var id UniqueID
	b, err := hex.DecodeString(strings.TrimSpace(s))
	if err != nil || len(b) != len(id) {
		return id, fmt.Errorf("nccl: ParseUniqueID: want %d hex digits (UniqueID.String), got %d characters: %w", 2*len(id), len(strings.TrimSpace(s)), ops.ErrArg)
	}
	copy(id[:], b)
	return id, nil
}

// IDFromEnv reads an ID (UniqueID.String) from the environment variable
// name, as a launcher that made it sets it for every rank.
func IDFromEnv(name string) (UniqueID, error) {
	v, ok := os.LookupEnv(name)
	if !ok {
		return UniqueID{}, fmt.Errorf("nccl: IDFromEnv: $%s is not set (it should hold a UniqueID's String): %w", name, ops.ErrArg)
	}
	id, err := ParseUniqueID(v)
	if err != nil {
		return id, fmt.Errorf("nccl: IDFromEnv: $%s: %w", name, err)
	}
	return id, nil
}

// WriteIDFile writes id to path (through a temporary file renamed into
// place, so a reader never sees part of it), for ReadIDFile in the other
// ranks: a file system all ranks see (one host, or a shared one) is the
// rendezvous.
func WriteIDFile(path string, id UniqueID) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".nccl-id-*")
	if err != nil {
		return fmt.Errorf("nccl: WriteIDFile: %w", err)
	}
	_, err = tmp.WriteString(id.String() + "\n")
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("nccl: WriteIDFile: %w", err)
	}
	return nil
}

// ReadIDFile waits until path exists (WriteIDFile of another rank) and
// reads the ID in it, or returns an error wrapping ctx.Err() when ctx is
// done first.
func ReadIDFile(ctx context.Context, path string) (UniqueID, error) {
	for {
		b, err := os.ReadFile(path)
		if err == nil {
			id, err := ParseUniqueID(string(b))
			if err != nil {
				return id, fmt.Errorf("nccl: ReadIDFile %s: %w", path, err)
			}
			return id, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return UniqueID{}, fmt.Errorf("nccl: ReadIDFile: %w", err)
		}
		select {
		case <-ctx.Done():
			return UniqueID{}, fmt.Errorf("nccl: ReadIDFile: %s did not appear: %w", path, ctx.Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// rendezvousMagic starts every message of Rendezvous's protocol.
const rendezvousMagic = "rules_cuda_go nccl 1"

// Rendezvous hands a new UniqueID from rank 0 to the other ranks over TCP,
// with no MPI and no shared file system: rank 0 makes the ID, listens on
// addr (host:port, e.g. "127.0.0.1:29500" for processes on one host; the
// analogue of torch.distributed's MASTER_ADDR:MASTER_PORT) and serves it to
// size-1 connections; every other rank connects to addr, retrying until
// rank 0 listens, and reads it. Every rank gets the same ID, for NewComm.
// A rank whose size differs from rank 0's gets an error, and so does rank
// 0. When ctx is done first, the error wraps ctx.Err().
func Rendezvous(ctx context.Context, addr string, rank, size int) (UniqueID, error) {
	if ctx == nil {
		return UniqueID{}, fmt.Errorf("nccl: Rendezvous: context is nil (use context.Background()): %w", ops.ErrArg)
	}
	if size < 1 || rank < 0 || rank >= size {
		return UniqueID{}, fmt.Errorf("nccl: Rendezvous: rank %d of %d: want 0 <= rank < size: %w", rank, size, ops.ErrArg)
	}
	if rank == 0 {
		id, err := NewUniqueID()
		if err != nil {
			return id, err
		}
		return id, serveID(ctx, addr, size, id)
	}
	return fetchID(ctx, addr, rank, size)
}

func serveID(ctx context.Context, addr string, size int, id UniqueID) error {
	if size == 1 {
		return nil
	}
	var lc net.ListenConfig
	l, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("nccl: Rendezvous: rank 0 listening on %s: %w", addr, err)
	}
	defer l.Close()
	stop := context.AfterFunc(ctx, func() { l.Close() })
	defer stop()
	seen := map[uint32]bool{}
	for len(seen) < size-1 {
		conn, err := l.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("nccl: Rendezvous: rank 0 on %s heard from %d of %d ranks: %w", addr, len(seen)+1, size, ctx.Err())
			}
			return fmt.Errorf("nccl: Rendezvous: rank 0 on %s: %w", addr, err)
		}
		rank, err := answer(ctx, conn, size, id)
		conn.Close()
		if err != nil {
			return err
		}
		if rank > 0 {
			seen[rank] = true
		}
	}
	return nil
}

// answer reads a rank's hello (magic, rank, size) and replies with the ID
// (or a refusal for a mismatched size); a connection that is not a rank's
// (rank 0 returned) is ignored.
func answer(ctx context.Context, conn net.Conn, size int, id UniqueID) (uint32, error) {
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	if d, ok := ctx.Deadline(); ok {
		conn.SetDeadline(d)
	}
	hello := make([]byte, len(rendezvousMagic)+8)
	if _, err := io.ReadFull(conn, hello); err != nil || string(hello[:len(rendezvousMagic)]) != rendezvousMagic {
		return 0, nil
	}
	rank := binary.BigEndian.Uint32(hello[len(rendezvousMagic):])
	theirs := binary.BigEndian.Uint32(hello[len(rendezvousMagic)+4:])
	if int(theirs) != size || rank == 0 || int(rank) >= size {
		conn.Write([]byte{0})
		return 0, fmt.Errorf("nccl: Rendezvous: rank 0 (size %d) was joined by rank %d of size %d: every rank must pass the same size: %w", size, rank, theirs, ops.ErrArg)
	}
	if _, err := conn.Write(append([]byte{1}, id[:]...)); err != nil {
		return 0, fmt.Errorf("nccl: Rendezvous: sending the ID to rank %d: %w", rank, err)
	}
	return rank, nil
}

func fetchID(ctx context.Context, addr string, rank, size int) (UniqueID, error) {
	var id UniqueID
	var d net.Dialer
	for {
		conn, err := d.DialContext(ctx, "tcp", addr)
		if err == nil {
			id, err = hello(ctx, conn, rank, size)
			conn.Close()
			if err == nil || errors.Is(err, ops.ErrArg) {
				return id, err
			}
		}
		select {
		case <-ctx.Done():
			return id, fmt.Errorf("nccl: Rendezvous: rank %d could not get the ID from rank 0 at %s (last: %v): %w", rank, addr, err, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func hello(ctx context.Context, conn net.Conn, rank, size int) (UniqueID, error) {
	var id UniqueID
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	if d, ok := ctx.Deadline(); ok {
		conn.SetDeadline(d)
	}
	msg := []byte(rendezvousMagic)
	msg = binary.BigEndian.AppendUint32(msg, uint32(rank))
	msg = binary.BigEndian.AppendUint32(msg, uint32(size))
	if _, err := conn.Write(msg); err != nil {
		return id, err
	}
	reply := make([]byte, 1+len(id))
	if _, err := io.ReadFull(conn, reply[:1]); err != nil {
		return id, err
	}
	if reply[0] != 1 {
		return id, fmt.Errorf("nccl: Rendezvous: rank 0 at %s refused rank %d of size %d (its size differs): %w", conn.RemoteAddr(), rank, size, ops.ErrArg)
	}
	if _, err := io.ReadFull(conn, reply[1:]); err != nil {
		return id, err
	}
	copy(id[:], reply[1:])
	return id, nil
}
