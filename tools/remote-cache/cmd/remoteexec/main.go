// Command remoteexec checks the execution log of a build with remote execution
// (--remote_executor, e.g. --config=buildbarn): every spawn of the checked mnemonics must have been
// executed by the remote executor in that build, and, given the log of a local build of the same
// targets, its outputs must equal the local build's, digest for digest.
//
//	remoteexec [-remote REGEXP] [-compare REGEXP] [-local LOCAL_LOG] REMOTE_LOG
//
// It prints, per mnemonic, how many spawns ran where (runner: "remote", "remote cache hit",
// "linux-sandbox", ...), then one line for each checked spawn that the remote executor did not run
// (its mnemonic, target, runner and first output). A remote cache hit does not count as executed:
// the check is meant for a build against an empty cache.
//
// With -local, the spawns of REMOTE_LOG whose mnemonic matches -compare are looked up in LOCAL_LOG
// by their declared outputs; each must be there, must have run locally in that build (not a cache
// hit, not remotely: otherwise the comparison would prove nothing), and every output must have the
// same digest in both logs. Differences are printed with both digests.
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

// defaultMnemonics matches the nvcc actions: NvccCompile (one action per source), the split
// compile's NvccDevice, NvccFatbin and NvccHost, and NvccDeviceLink.
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

// Compare looks up each spawn of remote whose mnemonic matches re in local (by declared outputs)
// and compares their outputs by digest. It returns the number of outputs found equal and what
// differs: a spawn absent from the local log or not run locally there, an output missing on one
// side, or another digest.
func Compare(remote, local []execlog.Spawn, re *regexp.Regexp) (equal int, diffs []Difference) {
	byKey := make(map[string]*execlog.Spawn, len(local))
	for i := range local {
		byKey[local[i].Key()] = &local[i]
	}
	for i := range remote {
		r := &remote[i]
		if !re.MatchString(r.Mnemonic) {
			continue
		}
		l := byKey[r.Key()]
		switch {
		case l == nil:
			diffs = append(diffs, Difference{r, r.FirstOutput(), "no spawn with the same outputs in the local build's log"})
			continue
		case l.Hit() || l.Runner == execlog.RunnerRemote:
			diffs = append(diffs, Difference{r, r.FirstOutput(), fmt.Sprintf("the local build did not run it locally (runner %q)", l.Runner)})
			continue
		}
		localOut := make(map[string]execlog.Digest, len(l.ActualOutputs))
		for _, f := range l.ActualOutputs {
			localOut[f.Path] = f.Digest
		}
		remoteOut := make(map[string]bool, len(r.ActualOutputs))
		for _, f := range r.ActualOutputs {
			remoteOut[f.Path] = true
			ld, ok := localOut[f.Path]
			switch {
			case !ok:
				diffs = append(diffs, Difference{r, f.Path, "not among the local build's outputs"})
			case ld.Hash == "" || f.Digest.Hash == "":
				diffs = append(diffs, Difference{r, f.Path, "no digest in one of the logs"})
			case ld != f.Digest:
				diffs = append(diffs, Difference{r, f.Path, fmt.Sprintf("remote %s (%s bytes), local %s (%s bytes)",
					short(f.Digest.Hash), f.Digest.SizeBytes, short(ld.Hash), ld.SizeBytes)})
			default:
				equal++
			}
		}
		for _, f := range l.ActualOutputs {
			if !remoteOut[f.Path] {
				diffs = append(diffs, Difference{r, f.Path, "not among the remote build's outputs"})
			}
		}
	}
	return equal, diffs
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
	localLog := fs.String("local", "", "execution log of a local build of the same targets, to compare outputs with")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: remoteexec [-remote REGEXP] [-compare REGEXP] [-local LOCAL_LOG] REMOTE_LOG")
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
		equal, diffs := Compare(remote, local, compareRe)
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
			fmt.Fprintf(stdout, "OK: all %d outputs of spawns matching %s equal the local build's, digest for digest\n", equal, compareRe)
		}
	}
	return status
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
