// Package ranks runs a benchmark program once per GPU as the ranks of one
// NCCL communicator on this machine: the parent starts the children with
// their rank, the number of ranks and a loopback address for the TCP
// rendezvous in the environment, and each child reads them back.
package ranks

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
)

// Rank is what a child process was started as.
type Rank struct {
	Rank, Size int
	// Addr is the rendezvous address (host:port) rank 0 listens on.
	Addr string
}

// Child reports whether this process is a rank started by Spawn with the
// same prefix, and which.
func Child(prefix string) (Rank, bool, error) {
	r := os.Getenv(prefix + "_RANK")
	if r == "" {
		return Rank{}, false, nil
	}
	rank, err := strconv.Atoi(r)
	if err != nil {
		return Rank{}, true, fmt.Errorf("ranks: %s_RANK=%q is not a number", prefix, r)
	}
	size, err := strconv.Atoi(os.Getenv(prefix + "_SIZE"))
	if err != nil || size < 1 || rank < 0 || rank >= size {
		return Rank{}, true, fmt.Errorf("ranks: %s_SIZE=%q does not hold rank %d", prefix, os.Getenv(prefix+"_SIZE"), rank)
	}
	return Rank{Rank: rank, Size: size, Addr: os.Getenv(prefix + "_ADDR")}, true, nil
}

// Spawn runs this program (its own arguments) n times, as ranks 0..n-1 with
// PREFIX_RANK, PREFIX_SIZE and PREFIX_ADDR set, sharing this process's
// standard output and error, and waits for all of them. It returns the first
// error of a rank for which failed(rank) is true (nil failed: every rank).
func Spawn(n int, prefix string, failed func(rank int) bool) error {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("ranks: a loopback port for the rendezvous: %w", err)
	}
	addr := l.Addr().String()
	l.Close()
	cmds := make([]*exec.Cmd, n)
	for r := range cmds {
		cmd := exec.Command(os.Args[0], os.Args[1:]...)
		cmd.Env = append(os.Environ(), prefix+"_RANK="+strconv.Itoa(r), prefix+"_SIZE="+strconv.Itoa(n), prefix+"_ADDR="+addr)
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Start(); err != nil {
			return fmt.Errorf("ranks: starting rank %d: %w", r, err)
		}
		cmds[r] = cmd
	}
	var first error
	for r, cmd := range cmds {
		err := cmd.Wait()
		if err != nil && first == nil && (failed == nil || failed(r)) {
			first = fmt.Errorf("rank %d: %w", r, err)
		}
	}
	return first
}
