package ops

import "fmt"

// gradOwner is what one Backward call knows about the gradients it holds:
// which buffers it owns (those created while it runs: the backward functions'
// results and the sums of gradients) and how many pending gradients refer to
// each. It frees an owned gradient as soon as its last consumer has run, and
// lets a leaf adopt an owned gradient that nothing else refers to instead of
// copying it. Buffers that existed before the call (the caller's grad, the
// forward's tensors) are never freed or adopted.
//
// The rule this relies on, stated on OpDef.Backward: a backward function
// returns its incoming gradient, a view of it, or tensors it has just
// computed, and keeps none of them.
type gradOwner struct {
	start uint64          // bufferSeq when Backward began
	refs  map[*buffer]int // pending references per owned buffer
}

func newGradOwner() *gradOwner {
	return &gradOwner{start: bufferSeq.Load(), refs: map[*buffer]int{}}
}

func (o *gradOwner) owns(t *Tensor) bool { return t.buf.seq > o.start }

// hold records one more pending reference to t's buffer.
func (o *gradOwner) hold(t *Tensor) {
	if o.owns(t) {
		o.refs[t.buf]++
	}
}

// drop removes one pending reference to t's buffer and frees the buffer when
// Backward owns it and that was the last reference.
func (o *gradOwner) drop(t *Tensor) error {
	if !o.owns(t) {
		return nil
	}
	if o.refs[t.buf]--; o.refs[t.buf] > 0 {
		return nil
	}
	delete(o.refs, t.buf)
	if err := t.Free(); err != nil {
		return fmt.Errorf("freeing a consumed gradient: %w", err)
	}
	return nil
}

// adopt reports whether t can become a leaf's gradient as it is, and if so
// forgets it (without freeing): Backward owns its buffer, this is the only
// pending reference to it, and t is the whole buffer, contiguous.
func (o *gradOwner) adopt(t *Tensor) bool {
	if !o.owns(t) || o.refs[t.buf] != 1 || t.offset != 0 || !t.IsContiguous() {
		return false
	}
	if st := t.Storage(); st == nil || st.Len() != t.Numel() {
		return false
	}
	delete(o.refs, t.buf)
	return true
}
