// Package storetest gives tests a real data directory — the SQLite store
// and the artifact store in t.TempDir(), closed when the test ends — and
// the parts every test of an engine on it repeats: running a workflow to
// its end, reading a node's remote call record, and the
// crash-test child process (the test binary run again as a runner that the
// test SIGKILLs). Like workruntest it is imported only by _test files.
package storetest
