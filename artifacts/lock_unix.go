//go:build unix

package artifacts

import (
	"os"
	"syscall"
)

// holdFile takes an exclusive flock on f for as long as f is open: the
// kernel drops it when the process ends, even by SIGKILL, which is how a
// later start tells an abandoned temporary file from one in use.
func holdFile(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}

// abandoned reports whether no open file holds the flock on path: its
// process has ended. A file that cannot be opened is not judged.
func abandoned(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	return err == nil
}

// held reports whether a live process holds the flock on path.
func held(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil
}
