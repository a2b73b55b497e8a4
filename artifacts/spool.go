package artifacts

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"workrun/workrun"
)

// Spool files (workrun.Spooler). A remote result arrives in chunks before
// it becomes an artifact, and may carry a secret the server echoed (the
// redaction happens when it leaves the spool, where a secret split across
// two chunks is whole again). So what reaches the disk is encrypted
// (AES-256-CTR) with a key made at random for this process and kept only
// in its memory: after a crash the file is unreadable noise. The file is
// held with flock while open, so a later start (New) and GC remove it as
// soon as its process has ended, whatever its age.

const (
	spoolPrefix = "spool-"
	newPrefix   = "new-" // a temporary file not yet held (see holdTemp)
)

// spoolKey is this process's spool key, made on first use.
var spoolKey = sync.OnceValues(func() (cipher.Block, error) {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	return aes.NewCipher(key)
})

var _ workrun.Spooler = (*Store)(nil)

// Spool creates a spool file under <data dir>/artifacts/tmp.
func (s *Store) Spool() (workrun.SpoolFile, error) {
	block, err := spoolKey()
	if err != nil {
		return nil, fmt.Errorf("create spool file: %w", err)
	}
	f, name, err := s.holdTemp(spoolPrefix)
	if err != nil {
		return nil, fmt.Errorf("create spool file: %w", err)
	}
	sf := &spoolFile{f: f, name: name, block: block}
	if _, err := rand.Read(sf.iv[:]); err != nil {
		sf.Close()
		return nil, fmt.Errorf("create spool file: %w", err)
	}
	return sf, nil
}

// holdTemp creates a temporary file named prefix-… and holds its flock. It
// is created under a new-… name and renamed once held, so a start-up
// cleanup in another process never takes a file in the instant between
// its creation and its lock for an abandoned one.
// The file's name now is returned beside it (f.Name() keeps the first).
func (s *Store) holdTemp(prefix string) (*os.File, string, error) {
	dir := filepath.Join(s.dir, "tmp")
	f, err := os.CreateTemp(dir, newPrefix+prefix+"*")
	if err != nil {
		return nil, "", err
	}
	if err := holdFile(f); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, "", err
	}
	held := filepath.Join(dir, strings.TrimPrefix(filepath.Base(f.Name()), newPrefix))
	if err := os.Rename(f.Name(), held); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, "", err
	}
	return f, held, nil
}

// spoolFile encrypts what it writes and decrypts what it reads; offsets
// select the key stream, so chunks may be written and read in any order.
type spoolFile struct {
	f     *os.File
	name  string
	block cipher.Block
	iv    [aes.BlockSize]byte
}

// spoolBuf bounds the copy a read or write makes: one buffer per call, not
// one the size of the chunk.
const spoolBuf = 64 << 10

var spoolBufs = sync.Pool{New: func() any { b := make([]byte, spoolBuf); return &b }}

// xor applies the key stream at off to src, into dst.
func (sf *spoolFile) xor(dst, src []byte, off int64) {
	iv := sf.iv
	// The counter is the IV plus the block index, as a 128-bit number.
	lo := binary.BigEndian.Uint64(iv[8:])
	idx := uint64(off) / aes.BlockSize
	sum := lo + idx
	binary.BigEndian.PutUint64(iv[8:], sum)
	if sum < lo {
		binary.BigEndian.PutUint64(iv[:8], binary.BigEndian.Uint64(iv[:8])+1)
	}
	ctr := cipher.NewCTR(sf.block, iv[:])
	if skip := int(uint64(off) % aes.BlockSize); skip > 0 {
		var pad [aes.BlockSize]byte
		ctr.XORKeyStream(pad[:skip], pad[:skip])
	}
	ctr.XORKeyStream(dst, src)
}

func (sf *spoolFile) WriteAt(p []byte, off int64) (int, error) {
	bp := spoolBufs.Get().(*[]byte)
	defer spoolBufs.Put(bp)
	n := 0
	for n < len(p) {
		c := min(len(p)-n, spoolBuf)
		buf := (*bp)[:c]
		sf.xor(buf, p[n:n+c], off+int64(n))
		m, err := sf.f.WriteAt(buf, off+int64(n))
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

func (sf *spoolFile) ReadAt(p []byte, off int64) (int, error) {
	n, err := sf.f.ReadAt(p, off)
	sf.xor(p[:n], p[:n], off)
	return n, err
}

func (sf *spoolFile) Truncate(size int64) error { return sf.f.Truncate(size) }

// Close closes and removes the file.
func (sf *spoolFile) Close() error {
	err := sf.f.Close()
	if rerr := os.Remove(sf.name); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
		err = errors.Join(err, rerr)
	}
	return err
}
