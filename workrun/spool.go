package workrun

import "io"

// Spooler is implemented by artifact stores that hand out spool files: a
// node's temporary store for bytes it receives before they become
// artifacts or values (a remote agent's result chunks). Package artifacts
// implements it: a spool file holds no readable secret (it is encrypted
// with a key that lives only in this process's memory), and a later start
// or `workrun gc` removes it once its process has ended.
type Spooler interface {
	Spool() (SpoolFile, error)
}

// SpoolFile is an open spool file. Close removes it.
type SpoolFile interface {
	io.ReaderAt
	io.WriterAt
	Truncate(size int64) error
	Close() error
}
