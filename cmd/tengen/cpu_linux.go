package main

import (
	"syscall"
	"time"
)

// rusageThread is Linux's RUSAGE_THREAD: the calling thread only.
const rusageThread = 1

// threadCPU returns the user and system CPU time of the calling OS thread,
// or 0 where it cannot be read. The caller locks its goroutine to the
// thread.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
