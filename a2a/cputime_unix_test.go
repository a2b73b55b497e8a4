//go:build unix

package a2a

import (
	"syscall"
	"time"
)

// processCPU is the process's user+system CPU time, so benchmark figures can
// be read independently of how busy the shared machine was.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
