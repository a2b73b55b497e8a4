//go:build !unix

package a2a

import "time"

func processCPU() time.Duration { return 0 }
