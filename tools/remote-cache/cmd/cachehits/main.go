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
// read error. Each -expect entry is a regular expression that must match a whole mnemonic of some
// spawn: NvccCompile|NvccHost accepts either an unsplit nvcc compile or a split one's host step.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"

	"github.com/rules-cuda-go/rules_cuda_go/tools/remote-cache/internal/execlog"
)

// defaultRequire matches the mnemonics whose spawns must all be remote cache hits: the nvcc
// actions, the Go compiles (packages and the standard library), and every link or archive step.
const defaultRequire = `^(Nvcc.*|GoCompilePkg.*|GoStdlib|.*Link.*|.*Archive.*)$`

// Count is the number of spawns of one mnemonic and how many were remote cache hits.
type Count struct {
	Mnemonic string
	Total    int
	Hits     int
	Required bool
}

// Summarize counts spawns per mnemonic (sorted by mnemonic) and returns the spawns of required
// mnemonics that were not remote cache hits, in log order.
func Summarize(spawns []execlog.Spawn, require *regexp.Regexp) (counts []Count, misses []*execlog.Spawn) {
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
func Explain(a, b *execlog.Spawn) []string {
	var diffs []string
	diffs = append(diffs, diffArgs(a.CommandArgs, b.CommandArgs)...)
	diffs = append(diffs, diffPairs("env", a.EnvironmentVariables, b.EnvironmentVariables)...)
	var pa, pb []execlog.EnvVar
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

func diffPairs(what string, a, b []execlog.EnvVar) []string {
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

func pairMap(vs []execlog.EnvVar) map[string]string {
	m := make(map[string]string, len(vs))
	for _, v := range vs {
		m[v.Name] = v.Value
	}
	return m
}

func diffInputs(a, b []execlog.File) []string {
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

// run is main without os.Exit: it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("cachehits", flag.ContinueOnError)
	fs.SetOutput(stderr)
	requireExpr := fs.String("require", defaultRequire, "regular expression of the mnemonics whose spawns must all be remote cache hits")
	against := fs.String("against", "", "execution log of the build that filled the cache, to explain each miss")
	expect := fs.String("expect", "", "comma-separated mnemonics that must occur in the log (so that the check cannot pass vacuously); each is a regular expression matched against whole mnemonics, e.g. NvccCompile|NvccHost")
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
	expects := map[string]*regexp.Regexp{}
	for _, m := range strings.Split(*expect, ",") {
		if m = strings.TrimSpace(m); m != "" {
			re, err := regexp.Compile("^(?:" + m + ")$")
			if err != nil {
				fmt.Fprintf(stderr, "cachehits: -expect %q: %v\n", m, err)
				return 2
			}
			expects[m] = re
		}
	}
	spawns, err := execlog.ReadFile(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "cachehits: %v\n", err)
		return 2
	}
	var cold map[string]*execlog.Spawn
	if *against != "" {
		coldSpawns, err := execlog.ReadFile(*against)
		if err != nil {
			fmt.Fprintf(stderr, "cachehits: %v\n", err)
			return 2
		}
		cold = make(map[string]*execlog.Spawn, len(coldSpawns))
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
	var absent []string
	for _, m := range strings.Split(*expect, ",") {
		if m = strings.TrimSpace(m); m != "" && !anyMatches(expects[m], counts) {
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

// anyMatches reports whether some mnemonic in counts matches re.
func anyMatches(re *regexp.Regexp, counts []Count) bool {
	for _, c := range counts {
		if re.MatchString(c.Mnemonic) {
			return true
		}
	}
	return false
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
