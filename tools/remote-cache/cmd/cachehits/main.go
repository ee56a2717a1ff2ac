// Command cachehits reads a Bazel execution log (--execution_log_json_file) and checks that every
// spawn of the required mnemonics was a remote cache hit.
//
//	cachehits [-require REGEXP] [-expect MNEMONIC,...] [-against COLD_LOG] LOG
//
// It prints, per mnemonic, how many spawns there were and how many of them came from the remote
// cache, then one line for each required spawn that did not (its mnemonic, target, runner and first
// output). With -against, the log of the build that filled the cache, it also says why each miss
// missed: the spawn with the same outputs in that log is compared field by field (arguments,
// environment, platform, input paths and digests), which is what the remote action key is made of.
//
// The exit status is 0 when every required spawn was a hit, 1 when some were not (or the log held
// none of the required mnemonics, or no spawn of a mnemonic named by -expect), 2 on a usage or
// read error.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
)

// defaultRequire matches the mnemonics whose spawns must all be remote cache hits: the nvcc
// actions, the Go compiles (packages and the standard library), and every link or archive step.
const defaultRequire = `^(Nvcc.*|GoCompilePkg.*|GoStdlib|.*Link.*|.*Archive.*)$`

// Digest is a content digest as the execution log writes it.
type Digest struct {
	Hash string `json:"hash"`
}

// File is an input or output of a spawn.
type File struct {
	Path   string `json:"path"`
	Digest Digest `json:"digest"`
	IsTool bool   `json:"isTool"`
}

// EnvVar is one environment variable of a spawn.
type EnvVar struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Platform holds the execution platform properties of a spawn.
type Platform struct {
	Properties []EnvVar `json:"properties"`
}

// Spawn is the part of a SpawnExec entry of the execution log that this tool uses.
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

// Hit reports whether the spawn's result came from the remote cache.
func (s *Spawn) Hit() bool {
	return s.RemoteCacheHit || s.CacheHit || s.Runner == "remote cache hit"
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

// ReadLog decodes the stream of SpawnExec JSON objects that --execution_log_json_file writes
// (objects one after another, pretty-printed or one per line).
func ReadLog(r io.Reader) ([]Spawn, error) {
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

// Count is the number of spawns of one mnemonic and how many were remote cache hits.
type Count struct {
	Mnemonic string
	Total    int
	Hits     int
	Required bool
}

// Summarize counts spawns per mnemonic (sorted by mnemonic) and returns the spawns of required
// mnemonics that were not remote cache hits, in log order.
func Summarize(spawns []Spawn, require *regexp.Regexp) (counts []Count, misses []*Spawn) {
	byMnemonic := map[string]*Count{}
	for i := range spawns {
		s := &spawns[i]
		c := byMnemonic[s.Mnemonic]
		if c == nil {
			c = &Count{Mnemonic: s.Mnemonic, Required: require.MatchString(s.Mnemonic)}
			byMnemonic[s.Mnemonic] = c
		}
		c.Total++
		if s.Hit() {
			c.Hits++
		} else if c.Required {
			misses = append(misses, s)
		}
	}
	for _, c := range byMnemonic {
		counts = append(counts, *c)
	}
	sort.Slice(counts, func(i, j int) bool { return counts[i].Mnemonic < counts[j].Mnemonic })
	return counts, misses
}

// Explain lists what differs between a spawn of the cold build (a) and the same spawn of the
// warm build (b): the fields that make up the remote action key. An empty result means the keys
// should have matched (e.g. the cold build did not upload the result).
func Explain(a, b *Spawn) []string {
	var diffs []string
	diffs = append(diffs, diffArgs(a.CommandArgs, b.CommandArgs)...)
	diffs = append(diffs, diffPairs("env", a.EnvironmentVariables, b.EnvironmentVariables)...)
	var pa, pb []EnvVar
	if a.Platform != nil {
		pa = a.Platform.Properties
	}
	if b.Platform != nil {
		pb = b.Platform.Properties
	}
	diffs = append(diffs, diffPairs("platform", pa, pb)...)
	diffs = append(diffs, diffInputs(a.Inputs, b.Inputs)...)
	if !flagTrue(a.Remotable) || !flagTrue(a.RemoteCacheable) || !flagTrue(a.Cacheable) {
		diffs = append(diffs, fmt.Sprintf("cold build: remotable=%s cacheable=%s remoteCacheable=%s (not uploaded)",
			flagString(a.Remotable), flagString(a.Cacheable), flagString(a.RemoteCacheable)))
	}
	return diffs
}

func flagTrue(b *bool) bool { return b == nil || *b }

func flagString(b *bool) string {
	if b == nil {
		return "unset"
	}
	return fmt.Sprint(*b)
}

func diffArgs(a, b []string) []string {
	var diffs []string
	if len(a) != len(b) {
		diffs = append(diffs, fmt.Sprintf("args: %d in cold build, %d in warm build", len(a), len(b)))
	}
	for i := 0; i < len(a) || i < len(b); i++ {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			diffs = append(diffs, fmt.Sprintf("arg[%d]: %q -> %q", i, x, y))
		}
	}
	return diffs
}

func diffPairs(what string, a, b []EnvVar) []string {
	ma, mb := pairMap(a), pairMap(b)
	var diffs []string
	for _, k := range unionKeys(ma, mb) {
		x, inA := ma[k]
		y, inB := mb[k]
		switch {
		case !inA:
			diffs = append(diffs, fmt.Sprintf("%s %s: only in warm build: %q", what, k, y))
		case !inB:
			diffs = append(diffs, fmt.Sprintf("%s %s: only in cold build: %q", what, k, x))
		case x != y:
			diffs = append(diffs, fmt.Sprintf("%s %s: %q -> %q", what, k, x, y))
		}
	}
	return diffs
}

func pairMap(vs []EnvVar) map[string]string {
	m := make(map[string]string, len(vs))
	for _, v := range vs {
		m[v.Name] = v.Value
	}
	return m
}

func diffInputs(a, b []File) []string {
	ma := make(map[string]string, len(a))
	for _, f := range a {
		ma[f.Path] = f.Digest.Hash
	}
	mb := make(map[string]string, len(b))
	for _, f := range b {
		mb[f.Path] = f.Digest.Hash
	}
	var diffs []string
	for _, k := range unionKeys(ma, mb) {
		x, inA := ma[k]
		y, inB := mb[k]
		switch {
		case !inA:
			diffs = append(diffs, "input only in warm build: "+k)
		case !inB:
			diffs = append(diffs, "input only in cold build: "+k)
		case x != y:
			diffs = append(diffs, fmt.Sprintf("input %s: digest %s -> %s", k, short(x), short(y)))
		}
	}
	return diffs
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

func unionKeys(a, b map[string]string) []string {
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

func readLogFile(path string) ([]Spawn, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	spawns, err := ReadLog(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return spawns, nil
}

// run is main without os.Exit: it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("cachehits", flag.ContinueOnError)
	fs.SetOutput(stderr)
	requireExpr := fs.String("require", defaultRequire, "regular expression of the mnemonics whose spawns must all be remote cache hits")
	against := fs.String("against", "", "execution log of the build that filled the cache, to explain each miss")
	expect := fs.String("expect", "", "comma-separated mnemonics that must occur in the log (so that the check cannot pass vacuously)")
	maxDiffs := fs.Int("max_diffs", 40, "differences to print per miss (0: all)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: cachehits [-require REGEXP] [-expect MNEMONIC,...] [-against COLD_LOG] LOG")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	require, err := regexp.Compile(*requireExpr)
	if err != nil {
		fmt.Fprintf(stderr, "cachehits: -require: %v\n", err)
		return 2
	}
	spawns, err := readLogFile(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "cachehits: %v\n", err)
		return 2
	}
	var cold map[string]*Spawn
	if *against != "" {
		coldSpawns, err := readLogFile(*against)
		if err != nil {
			fmt.Fprintf(stderr, "cachehits: %v\n", err)
			return 2
		}
		cold = make(map[string]*Spawn, len(coldSpawns))
		for i := range coldSpawns {
			cold[coldSpawns[i].Key()] = &coldSpawns[i]
		}
	}

	counts, misses := Summarize(spawns, require)
	fmt.Fprintf(stdout, "%-24s %8s %8s %8s  %s\n", "mnemonic", "spawns", "hits", "hit rate", "required")
	reqTotal, reqHits := 0, 0
	for _, c := range counts {
		req := ""
		if c.Required {
			req = "yes"
			reqTotal += c.Total
			reqHits += c.Hits
		}
		fmt.Fprintf(stdout, "%-24s %8d %8d %7.1f%%  %s\n", c.Mnemonic, c.Total, c.Hits, percent(c.Hits, c.Total), req)
	}
	fmt.Fprintf(stdout, "required mnemonics (%s): %d of %d spawns were remote cache hits (%.1f%%)\n",
		require, reqHits, reqTotal, percent(reqHits, reqTotal))
	for _, s := range misses {
		fmt.Fprintf(stdout, "MISS %s %s runner=%q output=%s\n", s.Mnemonic, s.TargetLabel, s.Runner, s.FirstOutput())
		if cold == nil {
			continue
		}
		a := cold[s.Key()]
		if a == nil {
			fmt.Fprintln(stdout, "    no spawn with the same outputs in the cold build's log")
			continue
		}
		diffs := Explain(a, s)
		if len(diffs) == 0 {
			fmt.Fprintln(stdout, "    same arguments, environment, platform and inputs as in the cold build (was its result uploaded?)")
		}
		for i, d := range diffs {
			if *maxDiffs > 0 && i == *maxDiffs {
				fmt.Fprintf(stdout, "    ... %d more\n", len(diffs)-i)
				break
			}
			fmt.Fprintln(stdout, "    "+d)
		}
	}
	seen := map[string]bool{}
	for _, c := range counts {
		seen[c.Mnemonic] = true
	}
	var absent []string
	for _, m := range strings.Split(*expect, ",") {
		if m = strings.TrimSpace(m); m != "" && !seen[m] {
			absent = append(absent, m)
		}
	}
	switch {
	case reqTotal == 0:
		fmt.Fprintln(stdout, "FAIL: the log has no spawns of the required mnemonics")
		return 1
	case len(absent) > 0:
		fmt.Fprintf(stdout, "FAIL: the log has no spawns of %s (expected from these targets)\n", strings.Join(absent, ", "))
		return 1
	case len(misses) > 0:
		fmt.Fprintf(stdout, "FAIL: %d required spawns were not remote cache hits\n", len(misses))
		return 1
	}
	fmt.Fprintln(stdout, "OK: every required spawn was a remote cache hit")
	return 0
}

func percent(n, total int) float64 {
	if total == 0 {
		return 0
	}
	return 100 * float64(n) / float64(total)
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
