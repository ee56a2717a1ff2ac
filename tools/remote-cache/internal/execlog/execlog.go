// Package execlog reads the execution log that Bazel writes with --execution_log_json_file: one
// SpawnExec object per spawn, one after another. It decodes the fields that the checkers of this
// module (cmd/cachehits, cmd/remoteexec) use.
package execlog

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// Digest is a content digest as the execution log writes it.
type Digest struct {
	Hash      string `json:"hash"`
	SizeBytes string `json:"sizeBytes"`
}

// File is an input or output of a spawn.
type File struct {
	Path   string `json:"path"`
	Digest Digest `json:"digest"`
	IsTool bool   `json:"isTool"`
}

// EnvVar is one environment variable of a spawn (or one platform property).
type EnvVar struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Platform holds the execution platform properties of a spawn.
type Platform struct {
	Properties []EnvVar `json:"properties"`
}

// Spawn is the part of a SpawnExec entry of the execution log that the checkers use.
type Spawn struct {
	CommandArgs          []string  `json:"commandArgs"`
	EnvironmentVariables []EnvVar  `json:"environmentVariables"`
	Platform             *Platform `json:"platform"`
	Inputs               []File    `json:"inputs"`
	ListedOutputs        []string  `json:"listedOutputs"`
	ActualOutputs        []File    `json:"actualOutputs"`
	Mnemonic             string    `json:"mnemonic"`
	TargetLabel          string    `json:"targetLabel"`
	Runner               string    `json:"runner"`
	RemoteCacheHit       bool      `json:"remoteCacheHit"`
	CacheHit             bool      `json:"cacheHit"`
	Remotable            *bool     `json:"remotable"`
	Cacheable            *bool     `json:"cacheable"`
	RemoteCacheable      *bool     `json:"remoteCacheable"`
}

// Runner names that Bazel writes into the log.
const (
	// RunnerRemote is a spawn executed by the remote executor (--remote_executor).
	RunnerRemote = "remote"
	// RunnerRemoteCacheHit is a spawn whose result came from the remote cache.
	RunnerRemoteCacheHit = "remote cache hit"
)

// Hit reports whether the spawn's result came from a cache rather than from running it
// (Bazel 7.7 sets cacheHit, older versions remoteCacheHit).
func (s *Spawn) Hit() bool {
	return s.RemoteCacheHit || s.CacheHit || s.Runner == RunnerRemoteCacheHit
}

// ExecutedRemotely reports whether the remote executor ran the spawn in this build (not a cache
// hit, not a local run).
func (s *Spawn) ExecutedRemotely() bool {
	return s.Runner == RunnerRemote && !s.Hit()
}

// Key identifies a spawn across builds: its declared outputs (the same in every clone, being
// relative to the execution root).
func (s *Spawn) Key() string {
	return strings.Join(s.ListedOutputs, "\n")
}

// FirstOutput is the spawn's first declared output, or "-" when it has none.
func (s *Spawn) FirstOutput() string {
	if len(s.ListedOutputs) == 0 {
		return "-"
	}
	return s.ListedOutputs[0]
}

// Read decodes the stream of SpawnExec JSON objects that --execution_log_json_file writes
// (objects one after another, pretty-printed or one per line).
func Read(r io.Reader) ([]Spawn, error) {
	dec := json.NewDecoder(r)
	var spawns []Spawn
	for {
		var s Spawn
		err := dec.Decode(&s)
		if errors.Is(err, io.EOF) {
			return spawns, nil
		}
		if err != nil {
			return nil, fmt.Errorf("entry %d: %w", len(spawns)+1, err)
		}
		spawns = append(spawns, s)
	}
}

// ReadFile reads the execution log at path.
func ReadFile(path string) ([]Spawn, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	spawns, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return spawns, nil
}
