package mcp

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"time"
	"unsafe"
)

// prctl options.
const (
	prSetName           = 15
	prSetChildSubreaper = 36
)

// guardExecutable is Workrun's own executable, by the kernel's link (it
// works even when the file was replaced or removed since Workrun started).
func guardExecutable() (string, error) { return "/proc/self/exe", nil }

// becomeSubreaper makes the guard the parent of every orphaned descendant
// of the program, so none can slip out of its reach by double forking or
// a new session.
// It also names itself, so ps and top show what it is (else "exe").
func becomeSubreaper() {
	syscall.Syscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0) //nolint:errcheck // without it the group kill still applies
	name := []byte("workrun-guard\x00")
	syscall.Syscall(syscall.SYS_PRCTL, prSetName, uintptr(unsafe.Pointer(&name[0])), 0) //nolint:errcheck // only a name
}

// programAttr: the program leads a process group of its own and dies with
// the guard (a parent-death signal) should the guard itself be killed.
func programAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killTree kills the program's process group and every descendant of the
// guard, reaping them, until none is left (bounded: a tree that forks
// faster than it is killed is given up on after about two seconds). The
// program itself (pid wait) is left to the guard's cmd.Wait to reap, so its
// status is not lost; 0 once it was reaped.
func killTree(pgid, wait int) {
	self := os.Getpid()
	for range 200 {
		syscall.Kill(-pgid, syscall.SIGKILL) //nolint:errcheck // ESRCH: the group is gone
		live, dead := descendants(self)
		for _, pid := range live {
			syscall.Kill(pid, syscall.SIGKILL) //nolint:errcheck // ESRCH: already gone
		}
		for _, pid := range dead {
			if pid != wait {
				var ws syscall.WaitStatus
				syscall.Wait4(pid, &ws, syscall.WNOHANG, nil) //nolint:errcheck // not our child: its parent reaps it
			}
		}
		if len(live) == 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// descendants lists the processes below root, from every /proc/PID/stat's
// parent pid: those still running and those that are zombies.
func descendants(root int) (live, dead []int) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, nil
	}
	parent := map[int]int{}
	zombie := map[int]bool{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// "pid (comm) S ppid …": comm may hold spaces and parentheses.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 || i+4 > len(b) {
			continue
		}
		f := bytes.Fields(b[i+2:])
		if len(f) < 2 {
			continue
		}
		if ppid, err := strconv.Atoi(string(f[1])); err == nil {
			parent[pid] = ppid
			zombie[pid] = f[0][0] == 'Z' || f[0][0] == 'X'
		}
	}
	for pid := range parent {
		for p, n := parent[pid], 0; n < 64 && p > 1; p, n = parent[p], n+1 {
			if p == root {
				if zombie[pid] {
					dead = append(dead, pid)
				} else {
					live = append(live, pid)
				}
				break
			}
		}
	}
	return live, dead
}
