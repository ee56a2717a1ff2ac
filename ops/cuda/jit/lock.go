package jit

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockFile takes an exclusive lock on path (created if missing) that excludes other processes and
// other lockFile calls; unlock releases it. Lock files may be deleted by eviction (removeLockFile),
// so after the lock is taken the path must still name the locked file, else it starts again.
func lockFile(path string) (unlock func(), err error) {
	for {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
		if err != nil {
			return nil, fmt.Errorf("jit: cache lock: %w", err)
		}
		if err := flock(f, syscall.LOCK_EX); err != nil {
			f.Close()
			return nil, fmt.Errorf("jit: cache lock %s: %w", path, err)
		}
		if sameFile(f, path) {
			return func() {
				_ = flock(f, syscall.LOCK_UN)
				f.Close()
			}, nil
		}
		f.Close() // evicted between open and flock: lock the new file
	}
}

// removeLockFile deletes a lock file if no one holds it; it reports whether it did.
func removeLockFile(path string) bool {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return errors.Is(err, os.ErrNotExist)
	}
	defer f.Close()
	if flock(f, syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return false
	}
	defer func() { _ = flock(f, syscall.LOCK_UN) }()
	if !sameFile(f, path) {
		return false
	}
	return os.Remove(path) == nil
}

func flock(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// sameFile reports whether path still names the open file f.
func sameFile(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(path)
	return err == nil && os.SameFile(a, b)
}
