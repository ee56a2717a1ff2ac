package nccl

// #include <stdlib.h>
// #include "ops/cuda/nccl/csrc/opsnccl.h"
import "C"

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"
	"unsafe"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
)

// Comm is one rank of an NCCL communicator: the rank's GPU, its index and
// the number of ranks. Its methods are safe for concurrent use, but NCCL
// requires every rank to issue the same collectives in the same order, so
// one goroutine normally drives one Comm.
//
// A Comm is fast and abortable at once. Creating it is a non-blocking NCCL
// operation (so a context can end the wait for ranks that never join); the
// communicator every later call uses is then split from it as a blocking one
// (ncclConfig_t.blocking = 1), whose calls NCCL launches on the calling
// thread, as torch.distributed's are. A call returns once its work is queued;
// when its context can end, a watchdog goroutine of the Comm follows that
// work, and if the context is done before the work has completed it aborts
// the communicator (ncclCommAbort), which stops its kernels on the GPU; the
// communicator is then unusable and every later call returns an error
// wrapping ErrAborted. NCCL's asynchronous errors (a peer that failed, a
// network error) abort it the same way and are returned by the next call.
type Comm struct {
	device, rank, size int

	mu sync.RWMutex // held for writing to free h (abort, Close), for reading by NCCL calls
	h  C.opsnccl_comm

	smu   sync.Mutex
	state error // why the communicator cannot be used (nil while it can); set before h is freed

	clique *clique // shared by the ranks of NewComms, nil for NewComm's
	seqMu  sync.Mutex
	seq    uint64 // collectives checked so far

	dog dog // follows the work of calls whose contexts can end
}

// Device returns the GPU of this rank.
func (c *Comm) Device() ops.Device { return ops.CUDA(c.device) }

// Rank returns this rank's index, in [0, Size()).
func (c *Comm) Rank() int { return c.rank }

// Size returns the number of ranks.
func (c *Comm) Size() int { return c.size }

func (c *Comm) String() string {
	return fmt.Sprintf("nccl rank %d of %d on cuda:%d", c.rank, c.size, c.device)
}

// NewComms creates a communicator of len(devices) ranks in this process:
// rank i runs on GPU devices[i] (each GPU at most once). Drive each rank
// from its own goroutine, or issue the ranks' calls together in a Group
// from one goroutine. If ctx is done before every rank is ready, the
// ranks are aborted and the error wraps ctx.Err(). Since all its ranks are
// in this process, their collectives are compared: a rank whose collective
// differs from another rank's at the same position of their sequences (the
// operation, dtype, count, reduction or root) gets an error wrapping
// ops.ErrShape instead of issuing it, and every rank is aborted (the
// others would wait for ever for a matching call).
func NewComms(ctx context.Context, devices []int) ([]*Comm, error) {
	if ctx == nil {
		return nil, fmt.Errorf("nccl: NewComms: context is nil (use context.Background()): %w", ops.ErrArg)
	}
	if len(devices) == 0 {
		return nil, fmt.Errorf("nccl: NewComms: no devices: %w", ops.ErrArg)
	}
	seen := map[int]bool{}
	for _, d := range devices {
		if err := checkDevice("NewComms", d); err != nil {
			return nil, err
		}
		if seen[d] {
			return nil, fmt.Errorf("nccl: NewComms: cuda:%d is listed twice in %v (NCCL takes one rank per GPU): %w", d, devices, ops.ErrArg)
		}
		seen[d] = true
	}
	id, err := NewUniqueID()
	if err != nil {
		return nil, err
	}
	ranks := make([]int, len(devices))
	for i := range ranks {
		ranks[i] = i
	}
	comms, err := initComms(ctx, "NewComms", devices, ranks, len(devices), id)
	if err != nil {
		return nil, err
	}
	q := &clique{comms: comms, calls: map[uint64]*record{}}
	for _, c := range comms {
		c.clique = q
	}
	return comms, nil
}

// NewComm creates this process's rank of a communicator of size ranks
// spread over processes (or goroutines): every rank passes the same
// UniqueID (made by one of them with NewUniqueID and handed to the others:
// see Rendezvous, ReadIDFile and ParseUniqueID) and its own rank, and
// device is its GPU. The call returns when all size ranks have joined; if
// ctx is done first, the rank is aborted and the error wraps ctx.Err().
func NewComm(ctx context.Context, device int, id UniqueID, rank, size int) (*Comm, error) {
	if ctx == nil {
		return nil, fmt.Errorf("nccl: NewComm: context is nil (use context.Background()): %w", ops.ErrArg)
	}
	if size < 1 || rank < 0 || rank >= size {
		return nil, fmt.Errorf("nccl: NewComm: rank %d of %d: want 0 <= rank < size: %w", rank, size, ops.ErrArg)
	}
	if err := checkDevice("NewComm", device); err != nil {
		return nil, err
	}
	cs, err := initComms(ctx, "NewComm", []int{device}, []int{rank}, size, id)
	if err != nil {
		return nil, err
	}
	return cs[0], nil
}

func checkDevice(op string, d int) error {
	n, err := cuda.DeviceCount()
	if err != nil {
		return fmt.Errorf("nccl: %s: %w", op, err)
	}
	if d < 0 || d >= n {
		return fmt.Errorf("nccl: %s: cuda:%d does not exist (%d device(s)): %w", op, d, n, cuda.ErrNoDevice)
	}
	return nil
}

func initComms(ctx context.Context, op string, devices, ranks []int, size int, id UniqueID) ([]*Comm, error) {
	n := len(devices)
	cdev := (*C.int)(C.malloc(C.size_t(n) * C.size_t(unsafe.Sizeof(C.int(0)))))
	defer C.free(unsafe.Pointer(cdev))
	crank := (*C.int)(C.malloc(C.size_t(n) * C.size_t(unsafe.Sizeof(C.int(0)))))
	defer C.free(unsafe.Pointer(crank))
	chs := (*C.opsnccl_comm)(C.malloc(C.size_t(n) * C.size_t(unsafe.Sizeof(C.opsnccl_comm(0)))))
	defer C.free(unsafe.Pointer(chs))
	cid := C.CBytes(id[:])
	defer C.free(cid)
	devs, rs, hs := unsafe.Slice(cdev, n), unsafe.Slice(crank, n), unsafe.Slice(chs, n)
	for i := range devices {
		devs[i], rs[i] = C.int(devices[i]), C.int(ranks[i])
	}
	code := C.opsnccl_init(C.int(n), cdev, crank, C.int(size), (*C.char)(cid), chs)
	if code != resSuccess && code != resInProgress {
		return nil, check(fmt.Sprintf("%s: creating ranks %v of %d on cuda:%v", op, ranks, size, devices), code, 0)
	}
	comms := make([]*Comm, n)
	for i := range comms {
		comms[i] = &Comm{device: devices[i], rank: ranks[i], size: size, h: hs[i]}
	}
	fail := func(err error) ([]*Comm, error) {
		for _, o := range comms {
			o.abort(err)
		}
		return nil, err
	}
	for _, c := range comms {
		if err := c.ready(ctx, op); err != nil {
			return fail(err)
		}
	}
	// Every rank has joined: split each into the blocking communicator the
	// calls use (a non-blocking operation of the parent, so still abortable).
	code = C.opsnccl_split(C.int(n), chs)
	if code != resSuccess && code != resInProgress {
		return fail(check(fmt.Sprintf("%s: splitting ranks %v of %d into blocking communicators", op, ranks, size), code, 0))
	}
	for _, c := range comms {
		if err := c.ready(ctx, op); err != nil {
			return fail(err)
		}
	}
	return comms, nil
}

// usable returns the handle, or the error that says why there is none.
// The caller holds c.mu for reading.
func (c *Comm) usable(op string) (C.opsnccl_comm, error) {
	if c == nil {
		return 0, fmt.Errorf("nccl: %s: communicator is nil: %w", op, ops.ErrNil)
	}
	if err := c.err(); err != nil {
		return 0, fmt.Errorf("nccl: %s on %v: %w", op, c, err)
	}
	return c.h, nil
}

// err returns why the communicator cannot be used, nil while it can.
func (c *Comm) err() error {
	c.smu.Lock()
	defer c.smu.Unlock()
	return c.state
}

// fail records why the communicator cannot be used (the first reason
// stays): from then on every call returns it.
func (c *Comm) fail(why error) {
	c.smu.Lock()
	defer c.smu.Unlock()
	if c.state != nil {
		return
	}
	if errors.Is(why, ErrAborted) || errors.Is(why, ErrClosed) {
		c.state = why
	} else {
		c.state = fmt.Errorf("%w: %w", why, ErrAborted)
	}
}

// status returns NCCL's asynchronous state of the communicator: nil when
// ready, errInProgress while an operation is in progress, the error that
// made it unusable otherwise (after aborting it).
func (c *Comm) status(op string) error {
	c.mu.RLock()
	h, err := c.usable(op)
	if err != nil {
		c.mu.RUnlock()
		return err
	}
	var state C.int
	code := C.opsnccl_status(h, &state)
	if code == resSuccess && state == resInProgress {
		c.mu.RUnlock()
		return errInProgress
	}
	if code == resSuccess {
		code = state
	}
	err = check(fmt.Sprintf("%s on %v", op, c), code, h)
	c.mu.RUnlock()
	if err != nil {
		c.abortSoon(err)
		return fmt.Errorf("%w: %w", err, ErrAborted)
	}
	return nil
}

var errInProgress = errors.New("nccl: in progress")

// ready polls until the communicator's pending operation has completed.
// When ctx is done first it aborts the communicator and returns an error
// wrapping ctx.Err() and ErrAborted.
func (c *Comm) ready(ctx context.Context, op string) error {
	var start time.Time
	for i := 0; ; i++ {
		err := c.status(op)
		if err != errInProgress {
			return err
		}
		if err := ctx.Err(); err != nil {
			return c.cancel(op, err)
		}
		if i == 0 {
			start = time.Now()
		}
		backoff(time.Since(start))
	}
}

// cancel aborts the communicator because ctx ended with cause, without
// waiting for NCCL's abort to finish (see abortSoon).
func (c *Comm) cancel(op string, cause error) error {
	err := fmt.Errorf("nccl: %s on %v: the context ended before NCCL finished (%w), so the communicator was aborted: %w", op, c, cause, ErrAborted)
	c.abortSoon(err)
	return err
}

// backoff waits a little between two polls, longer the longer the caller
// has been waiting: the first milliseconds only yield the processor (short
// collectives and NCCL's initialization steps take microseconds to
// milliseconds); then it sleeps, up to a millisecond at a time.
func backoff(waited time.Duration) {
	switch {
	case waited < 2*time.Millisecond:
		runtime.Gosched()
	case waited < 20*time.Millisecond:
		time.Sleep(50 * time.Microsecond)
	default:
		time.Sleep(time.Millisecond)
	}
}

// abort records why the communicator cannot be used and aborts it
// (ncclCommAbort, once), after the calls in flight on it have returned.
func (c *Comm) abort(why error) {
	c.fail(why)
	c.release()
}

// abortSoon records why at once, so that every later call fails, and
// aborts the communicator from a goroutine: the caller (a context that
// ended, an asynchronous error, a mismatch between ranks) returns its
// error at once, while ncclCommAbort, which can take a second when a peer
// has died, and a call still inside NCCL (one connecting to a peer that
// never answers) are waited for in the background.
func (c *Comm) abortSoon(why error) {
	c.fail(why)
	c.dog.poke()
	go c.release()
}

// release aborts NCCL's communicator (once) after the calls in flight.
func (c *Comm) release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.h == 0 {
		return
	}
	C.opsnccl_abort(c.h)
	c.h = 0
	c.dog.poke()
}

// Abort aborts the communicator (ncclCommAbort): every later call returns
// an error wrapping ErrAborted at once; Abort returns when NCCL has
// aborted it (after the calls in flight on it have returned), so its
// kernels on the GPU have stopped. The other ranks' calls that wait for
// this one fail or hang until their own contexts end. Aborting an aborted
// or closed communicator does nothing.
func (c *Comm) Abort() {
	c.abort(fmt.Errorf("nccl: %v aborted by Abort: %w", c, ErrAborted))
}

// Err returns nil while the communicator can be used, else why not (an
// error wrapping ErrAborted or ErrClosed). It also checks NCCL's
// asynchronous error state, and aborts the communicator on an error.
func (c *Comm) Err() error {
	err := c.status("Err")
	if err == errInProgress {
		return nil
	}
	return err
}

// Close waits for the communicator's outstanding work on every stream it
// was used on, then frees it (ncclCommFinalize, ncclCommDestroy). When ctx
// is done first (another rank does not finish its part), it aborts the
// communicator instead and returns an error wrapping ctx.Err(). Closing an
// aborted communicator frees nothing more and returns nil.
func (c *Comm) Close(ctx context.Context) error {
	if ctx == nil {
		return fmt.Errorf("nccl: Close: context is nil (use context.Background()): %w", ops.ErrArg)
	}
	if c == nil {
		return fmt.Errorf("nccl: Close: communicator is nil: %w", ops.ErrNil)
	}
	if err := c.err(); err != nil {
		if errors.Is(err, ErrClosed) || errors.Is(err, ErrAborted) {
			return nil
		}
		return err
	}
	// NCCL's finalize of a blocking communicator waits for its kernels
	// without a bound: wait for them here first, with ctx's.
	for _, s := range c.dog.streams() {
		if err := c.drain(ctx, s); err != nil {
			return err
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.h == 0 || c.err() != nil { // aborted meanwhile
		return nil
	}
	code := C.opsnccl_finalize(c.h)
	if code != resSuccess {
		err := check(fmt.Sprintf("finalizing %v", c), code, c.h)
		c.fail(err)
		C.opsnccl_abort(c.h)
		c.h = 0
		c.dog.poke()
		return err
	}
	code = C.opsnccl_destroy(c.h)
	c.h = 0
	c.fail(fmt.Errorf("nccl: %v: %w", c, ErrClosed))
	c.dog.poke()
	return check(fmt.Sprintf("destroying %v", c), code, 0)
}

// drain waits for the work queued so far on s (a closed stream has none
// left to wait for), aborting the communicator if ctx ends first.
func (c *Comm) drain(ctx context.Context, s *cuda.Stream) error {
	e, err := cuda.NewEvent(c.device, false)
	if err != nil {
		return fmt.Errorf("nccl: Close on %v: %w", c, err)
	}
	defer e.Close()
	if err := e.Record(s); err != nil {
		if errors.Is(err, cuda.ErrClosed) {
			return nil
		}
		return fmt.Errorf("nccl: Close on %v: %w", c, err)
	}
	return c.await(ctx, "Close", e)
}

// Synchronize waits until the work queued so far on the stream ctx
// chooses for the communicator's GPU (cuda.StreamFrom) has completed,
// checking NCCL's asynchronous errors meanwhile. When ctx is done first
// (a rank that does not take part in a collective makes the others wait
// forever), it aborts the communicator, so that its kernels stop, and
// returns an error wrapping ctx.Err() and ErrAborted.
func (c *Comm) Synchronize(ctx context.Context) error {
	if ctx == nil {
		return fmt.Errorf("nccl: Synchronize: context is nil (use context.Background()): %w", ops.ErrArg)
	}
	s := cuda.StreamFrom(ctx, c.device)
	if s.Capturing() {
		return fmt.Errorf("nccl: Synchronize on %v while %v is being captured: %w", c, s, cuda.ErrNotCapturable)
	}
	e, err := cuda.NewEvent(c.device, false)
	if err != nil {
		return fmt.Errorf("nccl: Synchronize on %v: %w", c, err)
	}
	defer e.Close()
	if err := e.Record(s); err != nil {
		return fmt.Errorf("nccl: Synchronize on %v: %w", c, err)
	}
	return c.await(ctx, "Synchronize", e)
}

// await polls until e has completed, the communicator reports an error, or
// ctx is done (then it aborts the communicator).
func (c *Comm) await(ctx context.Context, op string, e *cuda.Event) error {
	start := time.Now()
	for {
		done, err := e.Done()
		if err != nil {
			return fmt.Errorf("nccl: %s on %v: %w", op, c, err)
		}
		if err := c.status(op); err != nil && err != errInProgress {
			return err
		}
		if done {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return c.cancel(op, err)
		}
		backoff(time.Since(start))
	}
}
