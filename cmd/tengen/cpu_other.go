//go:build !linux

package main

import "time"

// threadCPU is not measured outside Linux; bench then reports wall time.
func threadCPU() time.Duration { return 0 }
