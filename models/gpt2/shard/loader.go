package shard

import (
	"fmt"
)

// Position is where a Loader is: the index of the current shard in its list,
// the offset (in tokens) of rank 0's next batch in that shard, and how many
// times the loader has gone round the whole list. It is the same for every
// rank of a run, so one saved Position resumes all of them.
type Position struct {
	Shard  int   `json:"shard"`
	Offset int64 `json:"offset"`
	Epoch  int   `json:"epoch"`
}

// Loader yields batches of B sequences of T tokens (inputs and the targets
// shifted by one) from a list of shards, for rank Rank of World ranks: each
// step the ranks together read B*T*World consecutive tokens, rank r the r-th
// block of B*T (plus one token for the last target), like llm.c's
// DataLoader. A shard's tail too short for a whole step is skipped; after
// the last shard it starts again from the first.
type Loader struct {
	paths       []string
	b, t        int
	rank, world int
	pos         Position
	toks        []int32 // the current shard, nil until loaded
	loaded      int     // index of the shard in toks
	in, tgt     []int32
}

// NewLoader checks every shard's header and size up front (so a missing or
// truncated shard is an error now, not hours into a run) and returns a
// loader at the start of the first shard.
func NewLoader(paths []string, b, t, rank, world int) (*Loader, error) {
	if len(paths) == 0 {
		return nil, fmt.Errorf("shard.NewLoader: no shards given")
	}
	if b <= 0 || t <= 0 {
		return nil, fmt.Errorf("shard.NewLoader: batch %d x %d tokens: both must be positive", b, t)
	}
	if world <= 0 || rank < 0 || rank >= world {
		return nil, fmt.Errorf("shard.NewLoader: rank %d of %d: need 0 <= rank < world", rank, world)
	}
	need := int64(b)*int64(t)*int64(world) + 1
	for _, p := range paths {
		n, err := Count(p)
		if err != nil {
			return nil, err
		}
		if int64(n) < need {
			return nil, fmt.Errorf("shard %s: %d tokens, fewer than one step needs (batch %d x %d tokens x %d ranks + 1 = %d)",
				p, n, b, t, world, need)
		}
	}
	return &Loader{paths: paths, b: b, t: t, rank: rank, world: world, loaded: -1,
		in: make([]int32, b*t), tgt: make([]int32, b*t)}, nil
}

// Position returns where the next batch starts.
func (l *Loader) Position() Position { return l.pos }

// Seek moves the loader to p (a Position this run's loader returned).
func (l *Loader) Seek(p Position) error {
	if p.Shard < 0 || p.Shard >= len(l.paths) || p.Offset < 0 || p.Epoch < 0 {
		return fmt.Errorf("shard.Loader.Seek: position %+v is outside the %d shards given", p, len(l.paths))
	}
	if err := l.load(p.Shard); err != nil {
		return err
	}
	if p.Offset+int64(l.b*l.t*l.world)+1 > int64(len(l.toks)) {
		return fmt.Errorf("shard.Loader.Seek: offset %d of %s leaves less than one step (%d tokens in the shard)",
			p.Offset, l.paths[p.Shard], len(l.toks))
	}
	l.pos = p
	return nil
}

// Reset moves the loader back to the start of the first shard.
func (l *Loader) Reset() { l.pos = Position{} }

// Next returns the next batch's inputs and targets, each B*T tokens in row
// order ([B, T]). The slices are reused by the next call.
func (l *Loader) Next() (inputs, targets []int32, err error) {
	if err := l.load(l.pos.Shard); err != nil {
		return nil, nil, err
	}
	bt := int64(l.b * l.t)
	start := l.pos.Offset + bt*int64(l.rank)
	copy(l.in, l.toks[start:start+bt])
	copy(l.tgt, l.toks[start+1:start+bt+1])
	l.pos.Offset += bt * int64(l.world)
	if l.pos.Offset+bt*int64(l.world)+1 > int64(len(l.toks)) {
		l.pos.Offset = 0
		l.pos.Shard++
		if l.pos.Shard == len(l.paths) {
			l.pos.Shard = 0
			l.pos.Epoch++
		}
	}
	return l.in, l.tgt, nil
}

// StepsPerEpoch returns how many batches one pass over all shards gives.
func (l *Loader) StepsPerEpoch() (int, error) {
	steps := 0
	for _, p := range l.paths {
		n, err := Count(p)
		if err != nil {
			return 0, err
		}
		steps += (n - 1) / (l.b * l.t * l.world)
	}
	return steps, nil
}

func (l *Loader) load(i int) error {
	if l.loaded == i {
		return nil
	}
	toks, err := Read(l.paths[i])
	if err != nil {
		return err
	}
	l.toks, l.loaded = toks, i
	return nil
}
