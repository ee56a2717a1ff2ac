// Command remoteexec checks the execution log of a build with remote execution
// (--remote_executor, e.g. --config=buildbarn): every spawn of the checked mnemonics must have been
// executed by the remote executor in that build, and, given the log of a local build of the same
// targets, its outputs must equal the local build's, digest for digest.
//
//	remoteexec [-remote REGEXP] [-compare REGEXP] [-required REGEXP] [-local LOCAL_LOG] REMOTE_LOG
//
// It prints, per mnemonic, how many spawns ran where (runner: "remote", "remote cache hit",
// "linux-sandbox", ...), then one line for each checked spawn that the remote executor did not run
// (its mnemonic, target, runner and first output). A remote cache hit does not count as executed:
// the check is meant for a build against an empty cache.
//
// With -local, every output of the spawns of REMOTE_LOG whose mnemonic matches -compare is looked up
// among the outputs of LOCAL_LOG's spawns by its path without the configuration directory
// (bazel-out/k8-opt/ and bazel-out/k8-opt-ST-.../ are the same), so the local build may compile
// differently: one nvcc action per source (--cuda_split=false) where the remote build split each
// source per arch. Outputs whose path matches -required (objects and archives) must be there; the
// others (the split's PTX, cubins, fatbins) may be missing. Each one found must have been made
// locally in that build (not a cache hit, not remotely: otherwise the comparison would prove
// nothing) with the same digest. Differences are printed with both digests.
//
// The exit status is 0 when all of that holds, 1 when it does not (also when REMOTE_LOG holds no
// spawn of the checked mnemonics, or nothing was compared: a check that cannot fail proves
// nothing), 2 on a usage or read error.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"

	"github.com/rules-cuda-go/rules_cuda_go/tools/remote-cache/internal/execlog"
)

// defaultRequired matches the outputs that a local build of the same targets must have made too,
// however it compiled them: objects and archives.
const defaultRequired = `\.(o|a)$`

// defaultMnemonics matches the nvcc actions: NvccCompile (one action per source), the split
// compile's NvccPtx, NvccSass, NvccHostAsm and NvccHost, and NvccDeviceLink.
const defaultMnemonics = `^Nvcc`

// Placement counts the spawns of one mnemonic per runner.
type Placement struct {
	Mnemonic string
	Runner   string
	Count    int
	Checked  bool
}

// CheckRemote returns how the spawns were placed (sorted by mnemonic and runner), how many spawns
// match re, and those of them that the remote executor did not run, in log order.
func CheckRemote(spawns []execlog.Spawn, re *regexp.Regexp) (placements []Placement, checked int, notRemote []*execlog.Spawn) {
	type key struct{ mnemonic, runner string }
	counts := map[key]int{}
	for i := range spawns {
		s := &spawns[i]
		runner := s.Runner
		if s.Hit() {
			runner = execlog.RunnerRemoteCacheHit
		}
		counts[key{s.Mnemonic, runner}]++
		if re.MatchString(s.Mnemonic) {
			checked++
			if !s.ExecutedRemotely() {
				notRemote = append(notRemote, s)
			}
		}
	}
	for k, n := range counts {
		placements = append(placements, Placement{Mnemonic: k.mnemonic, Runner: k.runner, Count: n, Checked: re.MatchString(k.mnemonic)})
	}
	sort.Slice(placements, func(i, j int) bool {
		if placements[i].Mnemonic != placements[j].Mnemonic {
			return placements[i].Mnemonic < placements[j].Mnemonic
		}
		return placements[i].Runner < placements[j].Runner
	})
	return placements, checked, notRemote
}

// Difference is one way in which a remote spawn's outputs differ from the local build's.
type Difference struct {
	Spawn  *execlog.Spawn
	Output string
	What   string
}

// configDir matches the configuration directory of an output path (bazel-out/k8-opt/,
// bazel-out/k8-opt-ST-0123abcd/): builds with other build settings, such as --cuda_split=false,
// write the same files under another one.
var configDir = regexp.MustCompile(`^bazel-out/[^/]+/`)

// OutputKey is an output's path without its configuration directory.
func OutputKey(path string) string {
	return configDir.ReplaceAllString(path, "bazel-out/CONFIG/")
}

// localOutput is an output of the local build and the spawn that wrote it.
type localOutput struct {
	digest execlog.Digest
	spawn  *execlog.Spawn
}

// Compare looks up every output of each spawn of remote whose mnemonic matches re among the
// outputs of local's spawns, by path without the configuration directory (so the local build may
// have other actions: one nvcc action per source where the remote build split it, say), and
// compares their digests (a path the local build made in several configurations matches if one of
// them has the same digest). An output whose path matches required (objects and archives) must be in
// the local build; others (the split's PTX, cubins and fatbins) may be absent and are counted in
// onlyRemote. The local spawn that wrote an output must have run locally (not a cache hit, not
// remotely): otherwise the comparison would prove nothing. It returns the number of outputs found
// equal and what differs.
func Compare(remote, local []execlog.Spawn, re, required *regexp.Regexp) (equal, onlyRemote int, diffs []Difference) {
	// One path may be built in several configurations (a target under a transition and without):
	// an output matches if one of the local build's files at its path has its digest.
	byPath := map[string][]localOutput{}
	for i := range local {
		for _, f := range local[i].ActualOutputs {
			k := OutputKey(f.Path)
			byPath[k] = append(byPath[k], localOutput{f.Digest, &local[i]})
		}
	}
	for i := range remote {
		r := &remote[i]
		if !re.MatchString(r.Mnemonic) {
			continue
		}
		if len(r.ActualOutputs) == 0 {
			diffs = append(diffs, Difference{r, r.FirstOutput(), "no outputs in the remote build's log"})
		}
		for _, f := range r.ActualOutputs {
			candidates := byPath[OutputKey(f.Path)]
			ok := len(candidates) > 0
			var l localOutput
			for _, c := range candidates {
				if l.spawn == nil || c.digest == f.Digest {
					l = c
				}
			}
			switch {
			case !ok && required.MatchString(f.Path):
				diffs = append(diffs, Difference{r, f.Path, "not among the local build's outputs"})
			case !ok:
				onlyRemote++
			case l.spawn.Hit() || l.spawn.Runner == execlog.RunnerRemote:
				diffs = append(diffs, Difference{r, f.Path, fmt.Sprintf("the local build did not make it locally (%s, runner %q)", l.spawn.Mnemonic, l.spawn.Runner)})
			case l.digest.Hash == "" || f.Digest.Hash == "":
				diffs = append(diffs, Difference{r, f.Path, "no digest in one of the logs"})
			case l.digest != f.Digest:
				diffs = append(diffs, Difference{r, f.Path, fmt.Sprintf("remote %s (%s bytes), local %s (%s bytes, %s)",
					short(f.Digest.Hash), f.Digest.SizeBytes, short(l.digest.Hash), l.digest.SizeBytes, l.spawn.Mnemonic)})
			default:
				equal++
			}
		}
	}
	return equal, onlyRemote, diffs
}

func short(h string) string {
	if len(h) > 16 {
		return h[:16]
	}
	return h
}

// run is main without os.Exit: it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("remoteexec", flag.ContinueOnError)
	fs.SetOutput(stderr)
	remoteExpr := fs.String("remote", defaultMnemonics, "regular expression of the mnemonics whose spawns must all have been executed remotely")
	compareExpr := fs.String("compare", defaultMnemonics, "regular expression of the mnemonics whose outputs must equal the local build's (with -local)")
	requiredExpr := fs.String("required", defaultRequired, "regular expression of the output paths (with -local) that the local build must have made too; other outputs of the remote build may be absent there")
	localLog := fs.String("local", "", "execution log of a local build of the same targets, to compare outputs with")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: remoteexec [-remote REGEXP] [-compare REGEXP] [-required REGEXP] [-local LOCAL_LOG] REMOTE_LOG")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	remoteRe, err := regexp.Compile(*remoteExpr)
	if err != nil {
		fmt.Fprintf(stderr, "remoteexec: -remote: %v\n", err)
		return 2
	}
	compareRe, err := regexp.Compile(*compareExpr)
	if err != nil {
		fmt.Fprintf(stderr, "remoteexec: -compare: %v\n", err)
		return 2
	}
	requiredRe, err := regexp.Compile(*requiredExpr)
	if err != nil {
		fmt.Fprintf(stderr, "remoteexec: -required: %v\n", err)
		return 2
	}
	remote, err := execlog.ReadFile(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "remoteexec: %v\n", err)
		return 2
	}
	var local []execlog.Spawn
	if *localLog != "" {
		if local, err = execlog.ReadFile(*localLog); err != nil {
			fmt.Fprintf(stderr, "remoteexec: %v\n", err)
			return 2
		}
	}

	status := 0
	placements, checked, notRemote := CheckRemote(remote, remoteRe)
	fmt.Fprintf(stdout, "%-24s %-24s %8s  %s\n", "mnemonic", "runner", "spawns", "must run remotely")
	for _, p := range placements {
		must := ""
		if p.Checked {
			must = "yes"
		}
		fmt.Fprintf(stdout, "%-24s %-24s %8d  %s\n", p.Mnemonic, p.Runner, p.Count, must)
	}
	for _, s := range notRemote {
		fmt.Fprintf(stdout, "NOT REMOTE %s %s runner=%q cacheHit=%v output=%s\n", s.Mnemonic, s.TargetLabel, s.Runner, s.Hit(), s.FirstOutput())
	}
	switch {
	case checked == 0:
		fmt.Fprintf(stdout, "FAIL: the remote build's log has no spawn whose mnemonic matches %s\n", remoteRe)
		status = 1
	case len(notRemote) > 0:
		fmt.Fprintf(stdout, "FAIL: %d of %d spawns matching %s were not executed remotely\n", len(notRemote), checked, remoteRe)
		status = 1
	default:
		fmt.Fprintf(stdout, "OK: all %d spawns matching %s were executed remotely\n", checked, remoteRe)
	}

	if *localLog != "" {
		equal, onlyRemote, diffs := Compare(remote, local, compareRe, requiredRe)
		for _, d := range diffs {
			fmt.Fprintf(stdout, "DIFFERS %s %s %s: %s\n", d.Spawn.Mnemonic, d.Spawn.TargetLabel, d.Output, d.What)
		}
		switch {
		case len(diffs) > 0:
			fmt.Fprintf(stdout, "FAIL: %d outputs of spawns matching %s differ from the local build's (%d equal)\n", len(diffs), compareRe, equal)
			status = 1
		case equal == 0:
			fmt.Fprintf(stdout, "FAIL: no outputs of spawns matching %s were compared\n", compareRe)
			status = 1
		default:
			fmt.Fprintf(stdout, "OK: %d outputs of spawns matching %s equal the local build's, digest for digest (%d more, not matching %s, only in the remote build)\n", equal, compareRe, onlyRemote, requiredRe)
		}
	}
	return status
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
