//go:build !unix

package workrun_test

// cpuTime is not measured here; BenchmarkFanIn then omits cpu-ns/op.
func cpuTime() int64 { return 0 }
