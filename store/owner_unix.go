//go:build unix

package store

import (
	"errors"
	"os"
	"syscall"
)

// lockSupported: flock tells whether an owner still runs.
const lockSupported = true

// lockFile takes an exclusive flock on f, held until f is closed or the
// process ends.
func lockFile(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}

// lockHeld reports whether another open file holds the lock on f's file.
// flock locks belong to the open file, so this holds even for a lock taken
// by another Store of the same process. When it is not held, f now holds it
// until f is closed: the caller removes the stale file first, so that a
// store taking that file meanwhile (tryOwner) sees it removed.
func lockHeld(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	switch {
	case err == nil:
		return false, nil
	case errors.Is(err, syscall.EWOULDBLOCK):
		return true, nil
	default:
		return false, err
	}
}
