package cuda

// #include "ops/cuda/csrc/opscuda.h"
import "C"

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/internal/blockcache"
)

// Graph is a sequence of ops captured on a stream (a CUDA graph) that
// Replay runs again with one launch, like torch.cuda.CUDAGraph. Its inputs
// and outputs are fixed tensors: a replay reads the tensors the captured
// ops read, as they are at the time of the replay, and writes the tensors
// the capture returned, in place. Memory allocated during the capture
// comes from the graph's private pool and is reused by nothing else, so
// replays never write memory that other tensors own; Close gives it back.
// A Graph is safe for concurrent use; its replays run one after another on
// its stream.
type Graph struct {
	s      *Stream
	device int

	mu       sync.Mutex
	exec     C.opscuda_graph // 0 until the capture succeeded
	err      error           // first error during the capture
	ended    bool            // the capture is over
	closed   bool
	idle     map[int][]uintptr // private blocks not in use, by size
	blocks   int               // private blocks handed out and not yet freed
	kept     []*storage        // storages the replays use that the pool does not own
	keptSet  map[*storage]bool // the same, as a set
	waitFor  []*Stream         // the streams of kept storages, waited for by Replay
	waited   []uint64          // each waitFor stream's seq at Replay's last wait for it
	deferred []*storage        // releases deferred until the capture ends
}

// Capture runs fn with a context that makes ops on s's device run on s
// (WithStream), and records the ops into a graph instead of running them;
// the tensors fn creates hold no values until the first Replay. s must not
// be a default stream (CUDA cannot capture the legacy stream). Work that
// cannot be captured, such as copying a tensor of the capture to the host
// or synchronizing, fails (wrapping ErrNotCapturable) and makes Capture
// return that error; so does an error returned by fn. Other goroutines may
// go on using other streams during the capture.
func Capture(ctx context.Context, s *Stream, fn func(ctx context.Context) error) (*Graph, error) {
	if s == nil || s.h == 0 {
		return nil, fmt.Errorf("cuda: Capture: the default stream cannot be captured; use a stream from NewStream: %w", ErrNotCapturable)
	}
	if s.closed.Load() {
		return nil, fmt.Errorf("cuda: Capture on %v: %w", s, ErrClosed)
	}
	g := &Graph{s: s, device: s.device, idle: map[int][]uintptr{}, keptSet: map[*storage]bool{}}
	if !s.graph.CompareAndSwap(nil, g) {
		return nil, fmt.Errorf("cuda: Capture on %v: a capture is already running on it", s)
	}
	if err := check(fmt.Sprintf("beginning a capture on %v", s), C.opscuda_graph_begin(C.int(s.device), s.h)); err != nil {
		s.graph.Store(nil)
		g.discard()
		return nil, err
	}
	ferr := fn(WithStream(ctx, s))
	var exec C.opscuda_graph
	eerr := check(fmt.Sprintf("ending the capture on %v", s), C.opscuda_graph_end(C.int(s.device), s.h, &exec))
	s.graph.Store(nil)
	g.mu.Lock()
	g.ended = true
	cerr, deferred := g.err, g.deferred
	g.deferred = nil
	g.mu.Unlock()
	for _, st := range deferred {
		if err := st.release(); err != nil && eerr == nil {
			eerr = err
		}
	}
	if err := errors.Join(cerr, ferr); err != nil || eerr != nil {
		if exec != 0 {
			_ = C.opscuda_graph_destroy(C.int(s.device), exec)
		}
		g.discard()
		_ = g.releaseKept()
		if err == nil {
			err = eerr
		}
		return nil, fmt.Errorf("cuda: Capture on %v failed: %w", s, err)
	}
	g.mu.Lock()
	g.exec = exec
	g.mu.Unlock()
	return g, nil
}

// Stream returns the stream the graph was captured on and replays on.
func (g *Graph) Stream() *Stream { return g.s }

// Replay runs the captured ops again on the graph's stream, after the work
// queued so far on the streams of its inputs. It returns once the replay
// is queued; read the outputs as usual (ops and copies wait for it) or
// Synchronize the stream. An input stream on which nothing was queued
// since the last Replay (by this package, or by kernels launched on its
// Handle or NewLaunch) is not waited for again: the earlier
// wait orders this replay already.
func (g *Graph) Replay() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed || g.exec == 0 {
		return fmt.Errorf("cuda: Graph.Replay: %w", ErrClosed)
	}
	if g.s.closed.Load() {
		return fmt.Errorf("cuda: Graph.Replay: its stream %v: %w", g.s, ErrClosed)
	}
	for i, w := range g.waitFor {
		seq := w.seq.Load()
		if g.waited[i] == seq && seq != 0 {
			continue
		}
		if err := g.s.WaitStream(w); err != nil {
			return err
		}
		g.waited[i] = seq
	}
	return check(fmt.Sprintf("launching a graph on %v", g.s), C.opscuda_graph_launch(C.int(g.device), g.exec, g.s.touch()))
}

// Close waits for the graph's replays, destroys it and returns its private
// pool's free memory; the blocks of outputs still alive are returned when
// those tensors are freed. Inputs the graph kept alive are released.
// Closing twice is a no-op.
func (g *Graph) Close() error {
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return nil
	}
	g.closed = true
	exec := g.exec
	g.exec = 0
	g.mu.Unlock()
	err := g.s.Synchronize(context.Background())
	if exec != 0 {
		err = errors.Join(err, check("destroying a graph", C.opscuda_graph_destroy(C.int(g.device), exec)))
	}
	return errors.Join(err, g.discard(), g.releaseKept())
}

// releaseKept lets go of the storages the graph kept alive, releasing
// those freed meanwhile.
func (g *Graph) releaseKept() error {
	g.mu.Lock()
	kept := g.kept
	g.kept, g.keptSet, g.waitFor, g.waited = nil, nil, nil, nil
	g.mu.Unlock()
	var err error
	for _, st := range kept {
		st.mu.Lock()
		st.graphRefs--
		release := st.graphRefs == 0 && st.released
		st.mu.Unlock()
		if release {
			err = errors.Join(err, st.release())
		}
	}
	return err
}

// discard frees the private blocks not in use and marks the graph closed.
func (g *Graph) discard() error {
	g.mu.Lock()
	g.closed = true
	idle := g.idle
	g.idle = map[int][]uintptr{}
	g.mu.Unlock()
	var err error
	for _, l := range idle {
		for _, p := range l {
			err = errors.Join(err, check("freeing a graph pool block", C.opscuda_free_private(C.int(g.device), C.opscuda_dptr(p))))
		}
	}
	return err
}

// alloc returns a private block of at least n bytes (a freed one of the
// same size if there is one: the capture orders its uses).
func (g *Graph) alloc(n int) (uintptr, int, error) {
	size := n
	if n <= cache.MaxBlock() {
		size = blockcache.SizeClass(n)
	}
	g.mu.Lock()
	if l := g.idle[size]; len(l) > 0 {
		p := l[len(l)-1]
		g.idle[size] = l[:len(l)-1]
		g.blocks++
		g.mu.Unlock()
		return p, size, nil
	}
	g.mu.Unlock()
	var p C.opscuda_dptr
	if err := check(fmt.Sprintf("allocating %d bytes for the graph pool on %v", size, g.s), C.opscuda_malloc_private(C.int(g.device), C.ulonglong(size), &p)); err != nil {
		g.fail(err)
		return 0, 0, err
	}
	g.mu.Lock()
	g.blocks++
	g.mu.Unlock()
	return uintptr(p), size, nil
}

// free takes back a private block: for reuse within the capture, or for
// Close; after Close it goes back to CUDA at once.
func (g *Graph) free(size int, p uintptr) error {
	g.mu.Lock()
	g.blocks--
	if !g.closed {
		g.idle[size] = append(g.idle[size], p)
		g.mu.Unlock()
		return nil
	}
	g.mu.Unlock()
	return check("freeing a graph pool block", C.opscuda_free_private(C.int(g.device), C.opscuda_dptr(p)))
}

// keep makes st, read or written by a captured op, live as long as the
// graph, and makes Replay wait for its stream.
func (g *Graph) keep(st *storage) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed || g.keptSet[st] {
		return
	}
	g.keptSet[st] = true
	g.kept = append(g.kept, st)
	st.mu.Lock()
	st.graphRefs++
	st.mu.Unlock()
	if w := st.stream; w != g.s {
		for _, x := range g.waitFor {
			if x == w {
				return
			}
		}
		g.waitFor = append(g.waitFor, w)
		g.waited = append(g.waited, 0)
	}
}

// fail records the first error of the capture.
func (g *Graph) fail(err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.err == nil && !g.ended {
		g.err = err
	}
}

// deferRelease releases st when the capture ends (at once if it has).
func (g *Graph) deferRelease(st *storage) {
	g.mu.Lock()
	if !g.ended {
		g.deferred = append(g.deferred, st)
		g.mu.Unlock()
		return
	}
	g.mu.Unlock()
	_ = st.release()
}
