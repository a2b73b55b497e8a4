package sse

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
)

var (
	// ErrEventTooLarge: one event's data, or one line, is over the cap.
	ErrEventTooLarge = errors.New("sse: event too large")
	// ErrTruncated: the body ended inside an event (no blank line after it).
	ErrTruncated = errors.New("sse: stream ended inside an event")
)

// Event is one dispatched event. Data is only valid until the next call to
// Next (or Release).
type Event struct {
	Event string
	ID    string
	Data  []byte
}

// Reader reads events from one body. It is not safe for concurrent use.
type Reader struct {
	br   *bufio.Reader
	max  int64 // cap on one event's data
	line []byte
	long bool // the last line is in line (it did not fit the bufio buffer)
	data []byte
	ev   Event
	// lastID and retry outlive events: the SSE rules keep the last event id
	// and the reconnection time even from events that carry no data.
	lastID string
	retry  int64 // milliseconds; -1 until a retry field arrives
}

// bufSize is the pooled line buffer; lines up to this size are not copied.
const bufSize = 32 << 10

// lineBlock is the block a longer line is gathered in (readLine).
const lineBlock = 1 << 20

// readerPool keeps the line buffers between bodies.
var readerPool sync.Pool

// NewReader reads events from r, refusing any event whose data is over
// maxEvent bytes. Call Release when done.
func NewReader(r io.Reader, maxEvent int64) *Reader {
	br, _ := readerPool.Get().(*bufio.Reader)
	if br == nil {
		br = bufio.NewReaderSize(r, bufSize)
	} else {
		br.Reset(r)
	}
	return &Reader{br: br, max: maxEvent, retry: -1}
}

// LastEventID is the last id field read so far ("" if none); a client
// resuming the stream sends it as Last-Event-ID.
func (r *Reader) LastEventID() string { return r.lastID }

// Retry is the last reconnection time the stream asked for (retry field),
// in milliseconds; ok is false when it sent none.
func (r *Reader) Retry() (millis int64, ok bool) { return r.retry, r.retry >= 0 }

// Release returns the line buffer to the pool; the Reader is unusable after.
// Event data already returned stays valid (it never points into the pooled
// buffer).
func (r *Reader) Release() {
	if r.br != nil {
		r.br.Reset(nil)
		readerPool.Put(r.br)
		r.br = nil
	}
}

// Next returns the next event that has data; io.EOF at a clean end.
func (r *Reader) Next() (Event, error) {
	r.data = r.data[:0]
	r.ev = Event{}
	pending := false // saw a field of the current event
	for {
		line, err := r.readLine()
		if err != nil {
			if errors.Is(err, io.EOF) && pending {
				return Event{}, ErrTruncated
			}
			return Event{}, err
		}
		if len(line) == 0 {
			if len(r.data) == 0 {
				pending = false
				r.ev = Event{}
				continue // an event without data is not dispatched
			}
			r.ev.Data = r.data[:len(r.data)-1] // drop the last "\n"
			return r.ev, nil
		}
		if line[0] == ':' {
			continue // comment / keep-alive
		}
		pending = true
		field, value := splitField(line)
		switch string(field) {
		case "data":
			if int64(len(r.data)+len(value)) > r.max {
				return Event{}, fmt.Errorf("%w: over the %d-byte limit", ErrEventTooLarge, r.max)
			}
			if r.long && len(r.data) == 0 {
				// A big single-line event (an inline file): reuse the line
				// buffer as the data buffer instead of copying it.
				n := copy(r.line, value)
				r.line, r.data = r.data[:0], r.line[:n]
			} else {
				r.data = append(r.data, value...)
			}
			r.data = append(r.data, '\n')
		case "event":
			r.ev.Event = string(value)
		default:
			if r.idOrRetry(string(field), value) {
				r.ev.ID = r.lastID
			}
		}
	}
}

// splitField splits a field line into its name and value (one leading
// space of the value dropped).
func splitField(line []byte) (field, value []byte) {
	field = line
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		field, value = line[:i], line[i+1:]
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
	}
	return field, value
}

// idOrRetry applies an id or retry field; it reports whether an id was
// taken (one holding U+0000 is not).
func (r *Reader) idOrRetry(field string, value []byte) bool {
	switch field {
	case "id":
		if bytes.IndexByte(value, 0) < 0 {
			r.lastID = string(value)
			return true
		}
	case "retry":
		if n, err := strconv.ParseInt(string(value), 10, 64); err == nil && n >= 0 && len(value) > 0 && value[0] != '+' {
			r.retry = n
		}
	}
	return false
}

// readLine returns one line without its LF or CRLF. Lines longer than the
// event cap are refused before they are buffered whole.
func (r *Reader) readLine() ([]byte, error) {
	r.long = false
	s, err := r.br.ReadSlice('\n')
	if err == nil {
		return trimEOL(s), nil
	}
	if !errors.Is(err, bufio.ErrBufferFull) {
		if len(s) > 0 && s[0] != ':' && errors.Is(err, io.EOF) {
			// Last line without a newline: the event cannot be complete.
			return nil, ErrTruncated
		}
		return nil, err
	}
	// A long line is gathered in blocks and joined once it is whole, not
	// in a buffer that doubles: a line refused at the cap then costs about
	// the cap, never twice it (issue 27).
	var blocks [][]byte
	cur := append(make([]byte, 0, max(lineBlock, len(s))), s...)
	total := len(s)
	for {
		s, err = r.br.ReadSlice('\n')
		total += len(s)
		// 16: room for the field name and the line end around the data.
		if int64(total) > r.max+16 {
			return nil, fmt.Errorf("%w: over the %d-byte limit", ErrEventTooLarge, r.max)
		}
		for rest := s; len(rest) > 0; {
			if len(cur) == cap(cur) {
				blocks, cur = append(blocks, cur), make([]byte, 0, lineBlock)
			}
			n := copy(cur[len(cur):cap(cur)], rest)
			cur, rest = cur[:len(cur)+n], rest[n:]
		}
		switch {
		case err == nil:
			if cap(r.line) < total {
				r.line = make([]byte, 0, total)
			}
			r.line = r.line[:0]
			for i, b := range blocks {
				r.line = append(r.line, b...)
				blocks[i] = nil
			}
			r.line = append(r.line, cur...)
			r.long = true
			return trimEOL(r.line), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			return nil, ErrTruncated
		default:
			return nil, err
		}
	}
}

func trimEOL(s []byte) []byte {
	s = s[:len(s)-1]
	if n := len(s); n > 0 && s[n-1] == '\r' {
		s = s[:n-1]
	}
	return s
}

// NextStream is Next for an event whose data may be longer than memory
// should hold: it returns a reader of the next event's data (its data
// lines joined by "\n", exactly Event.Data), read from the body as the
// caller reads it, with no cap of its own (the caller bounds what it
// reads). The reader must be read to io.EOF before the Reader is used
// again. Fields before, between and after the data lines are applied as
// Next applies them, except that a field line other than data longer
// than the line buffer is skipped.
func (r *Reader) NextStream() (io.Reader, error) {
	pending := false
	for {
		s, err := r.br.ReadSlice('\n')
		long := errors.Is(err, bufio.ErrBufferFull)
		switch {
		case err == nil || long:
		case errors.Is(err, io.EOF) && (pending || (len(s) > 0 && s[0] != ':')):
			return nil, ErrTruncated
		default:
			return nil, err
		}
		if !long && len(trimEOL(s)) == 0 {
			pending = false // an event without data is not dispatched
			continue
		}
		if !isData(s, long) {
			pending = pending || s[0] != ':' // a comment is no field
			if err := r.fieldLine(s, long); err != nil {
				return nil, err
			}
			continue
		}
		d := &dataReader{r: r}
		d.startLine(s, long)
		return d, nil
	}
}

// isData reports whether a line (or the start of a long one) is a data
// field: "data:…", or "data" alone.
func isData(s []byte, long bool) bool {
	return bytes.HasPrefix(s, []byte("data:")) || (!long && string(trimEOL(s)) == "data")
}

// fieldLine applies a line that is not data (a comment is skipped); a
// long one is read to its end and skipped.
func (r *Reader) fieldLine(s []byte, long bool) error {
	if long {
		for {
			_, err := r.br.ReadSlice('\n')
			if err == nil {
				return nil
			}
			if !errors.Is(err, bufio.ErrBufferFull) {
				if errors.Is(err, io.EOF) {
					return ErrTruncated
				}
				return err
			}
		}
	}
	line := trimEOL(s)
	if line[0] == ':' {
		return nil
	}
	field, value := splitField(line)
	r.idOrRetry(string(field), value)
	return nil
}

// dataReader streams one event's data (NextStream).
type dataReader struct {
	r      *Reader
	cur    []byte // unread bytes of the current piece (valid until the next read of the body)
	inLine bool   // the current data line goes on past cur
	lines  int    // data lines begun
	cr     bool   // cur's line ended in a '\r' held back (CRLF split across reads)
	err    error
}

// startLine begins a data line read as s (long: it goes on).
func (d *dataReader) startLine(s []byte, long bool) {
	v := s[4:]
	if len(v) > 0 && v[0] == ':' {
		v = v[1:]
		if len(v) > 0 && v[0] == ' ' {
			v = v[1:]
		}
	}
	if d.lines > 0 {
		d.cur = append(d.cur[:0:0], '\n')
		d.cur = append(d.cur, d.piece(v, long)...)
	} else {
		d.cur = d.piece(v, long)
	}
	d.lines++
	d.inLine = long
}

// piece is the data of one read of a line: without its line end when the
// line ends here; a trailing '\r' of a long piece is held back until the
// next read shows whether '\n' follows.
func (d *dataReader) piece(v []byte, long bool) []byte {
	held := d.cr
	d.cr = false
	if !long {
		v = v[:len(v)-1] // '\n'
		if held && len(v) == 0 {
			return nil // the held '\r' was the line end
		}
		if n := len(v); n > 0 && v[n-1] == '\r' {
			v = v[:n-1]
		}
	} else if n := len(v); n > 0 && v[n-1] == '\r' {
		v, d.cr = v[:n-1], true
	}
	if held {
		return append([]byte{'\r'}, v...)
	}
	return v
}

func (d *dataReader) Read(p []byte) (int, error) {
	for {
		if len(d.cur) > 0 {
			n := copy(p, d.cur)
			d.cur = d.cur[n:]
			return n, nil
		}
		if d.err != nil {
			return 0, d.err
		}
		s, err := d.r.br.ReadSlice('\n')
		long := errors.Is(err, bufio.ErrBufferFull)
		if err != nil && !long {
			if errors.Is(err, io.EOF) {
				err = ErrTruncated
			}
			d.err = err
			continue
		}
		if d.inLine {
			d.cur = d.piece(s, long)
			d.inLine = long
			continue
		}
		switch {
		case !long && len(trimEOL(s)) == 0:
			d.err = io.EOF // the blank line: the event is whole
		case isData(s, long):
			d.startLine(s, long)
		default:
			if err := d.r.fieldLine(s, long); err != nil {
				d.err = err
			}
		}
	}
}
