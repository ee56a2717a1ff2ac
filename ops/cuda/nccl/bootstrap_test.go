package nccl

import (
	"context"
	"errors"
	"net"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

func testID() UniqueID {
	var id UniqueID
	for i := range id {
		id[i] = byte(i*7 + 3)
	}
	return id
}

func TestUniqueIDText(t *testing.T) {
	id := testID()
	got, err := ParseUniqueID(" " + id.String() + "\n")
	if err != nil || got != id {
		t.Fatalf("ParseUniqueID(String()) = %v, %v", got, err)
	}
	if _, err := ParseUniqueID("abc"); !errors.Is(err, ops.ErrArg) {
		t.Fatalf("ParseUniqueID(abc) = %v, want ErrArg", err)
	}
	t.Setenv("TEST_NCCL_ID", id.String())
	if got, err := IDFromEnv("TEST_NCCL_ID"); err != nil || got != id {
		t.Fatalf("IDFromEnv = %v, %v", got, err)
	}
	if _, err := IDFromEnv("TEST_NCCL_ID_UNSET"); !errors.Is(err, ops.ErrArg) {
		t.Fatalf("IDFromEnv(unset) = %v, want ErrArg", err)
	}
}

func TestIDFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "id")
	id := testID()
	go func() {
		time.Sleep(50 * time.Millisecond)
		if err := WriteIDFile(path, id); err != nil {
			t.Error(err)
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if got, err := ReadIDFile(ctx, path); err != nil || got != id {
		t.Fatalf("ReadIDFile = %v, %v", got, err)
	}
	short, cancel2 := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel2()
	if _, err := ReadIDFile(short, path+".missing"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("ReadIDFile(missing) = %v, want DeadlineExceeded", err)
	}
}

// freeAddr returns a loopback address with a free port.
func freeAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// TestRendezvousProtocol serves an ID to three ranks over loopback, the
// ranks starting before rank 0 listens.
func TestRendezvousProtocol(t *testing.T) {
	addr := freeAddr(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	const size = 4
	id := testID()
	got := make([]UniqueID, size)
	errs := make([]error, size)
	var wg sync.WaitGroup
	for r := 1; r < size; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[r], errs[r] = Rendezvous(ctx, addr, r, size)
		}()
	}
	time.Sleep(100 * time.Millisecond)
	if err := serveID(ctx, addr, size, id); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	for r := 1; r < size; r++ {
		if errs[r] != nil || got[r] != id {
			t.Fatalf("rank %d: %v, %v", r, got[r], errs[r])
		}
	}
}

// TestRendezvousMismatch: a rank with another size is refused, and both
// sides say why.
func TestRendezvousMismatch(t *testing.T) {
	addr := freeAddr(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var rankErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, rankErr = Rendezvous(ctx, addr, 1, 3)
	}()
	err := serveID(ctx, addr, 2, testID())
	<-done
	if !errors.Is(err, ops.ErrArg) || !errors.Is(rankErr, ops.ErrArg) {
		t.Fatalf("size mismatch: rank 0: %v; rank 1: %v; want ErrArg for both", err, rankErr)
	}
	t.Logf("rank 0: %v\nrank 1: %v", err, rankErr)
}

// TestRendezvousTimeout: a rank whose rank 0 never listens gives up when
// its context is done.
func TestRendezvousTimeout(t *testing.T) {
	addr := freeAddr(t)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := Rendezvous(ctx, addr, 1, 2); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Rendezvous without rank 0 = %v, want DeadlineExceeded", err)
	}
	if _, err := Rendezvous(ctx, addr, 2, 2); !errors.Is(err, ops.ErrArg) {
		t.Fatalf("Rendezvous(rank 2 of 2) = %v, want ErrArg", err)
	}
}
