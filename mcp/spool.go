package mcp

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Spooled results (docs/remote-mcp.md "Large results"). A tools/call,
// tasks/result or tasks/get reply in a JSON body is read as a stream: a
// text block's text or a structuredContent longer than spoolAbove goes
// straight to a spool file (Options.Spool) as it arrives, and the message
// the client decodes holds a placeholder for it. So the memory a result
// costs does not grow with its size. What reaches the spool has passed the
// credential-bound transport's redaction (remotecall), which works across
// read boundaries; the spool itself is the artifact store's (encrypted,
// removed when its process is gone).

// SpoolFile is a temporary file a reply's large values wait in until the
// node stores them (workrun.SpoolFile is one). Close removes it.
type SpoolFile interface {
	io.ReaderAt
	io.WriterAt
	Close() error
}

// spoolAbove: a value longer than this (as it stands in the reply) is
// spooled; a shorter one stays in the message. It is the node's inline
// limit (workrun.InlineValueLimit), so a value that stays in memory is one
// the node keeps in place anyway.
const spoolAbove = 256 << 10

// DefaultMaxSpoolBytes caps a reply whose large values are spooled: the
// whole body, spooled values included (the part held in memory is still
// capped by MaxReplyBytes).
const DefaultMaxSpoolBytes = 256 << 20

// maxDepth is encoding/json's nesting limit, kept so a spooled reply is
// refused exactly when a decoded one would be.
const maxDepth = 10000

// spoolSet is one request's spool: its reply's large values by
// placeholder. The ToolResult that holds values keeps it open; Release (or
// the garbage collector, as a fallback) closes it.
type spoolSet struct {
	open   func() (SpoolFile, error)
	max    int64 // whole body cap
	above  int   // spoolAbove (tests lower it)
	prefix string

	mu      sync.Mutex
	f       SpoolFile
	size    int64
	vals    map[string]spoolValue
	used    bool
	cleanup runtime.Cleanup
}

// spoolValue is one spooled value: off/n in the spool; str: the raw
// (still escaped) contents of a JSON string, else a JSON value.
type spoolValue struct {
	set    *spoolSet
	off, n int64
	str    bool
}

func newSpoolSet(open func() (SpoolFile, error), max int64) *spoolSet {
	var nonce [12]byte
	rand.Read(nonce[:]) //nolint:errcheck // crypto/rand.Read never fails (Go 1.24+)
	// The placeholder starts with U+0000 and holds a random nonce: no
	// server can send a string that reads as one.
	return &spoolSet{open: open, max: max, above: spoolAbove, prefix: "\x00workrun-spool-" + hex.EncodeToString(nonce[:]) + "-", vals: map[string]spoolValue{}}
}

// write appends b to the spool and returns its offset.
func (s *spoolSet) write(b []byte) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f == nil {
		f, err := s.open()
		if err != nil {
			return 0, fmt.Errorf("spool a large result: %w", err)
		}
		s.f = f
		s.cleanup = runtime.AddCleanup(s, func(f SpoolFile) { f.Close() }, f)
	}
	off := s.size
	if _, err := s.f.WriteAt(b, off); err != nil {
		return 0, fmt.Errorf("spool a large result: %w", err)
	}
	s.size += int64(len(b))
	return off, nil
}

// release closes the spool unless a result holds a value of it.
func (s *spoolSet) release(force bool) error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f == nil || (s.used && !force) {
		return nil
	}
	s.cleanup.Stop()
	err := s.f.Close()
	s.f = nil
	return err
}

// lookup returns the value a decoded string stands for.
func (s *spoolSet) lookup(text string) (spoolValue, bool) {
	if s == nil || !strings.HasPrefix(text, s.prefix) {
		return spoolValue{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.vals[text]
	if ok {
		s.used = true
	}
	return v, ok
}

// attach moves the spooled values of r into it: a text block whose text is
// a placeholder, a structuredContent that is one.
func (s *spoolSet) attach(r *ToolResult) {
	if s == nil || r == nil {
		return
	}
	for i := range r.Content {
		if v, ok := s.lookup(r.Content[i].Text); ok {
			r.Content[i].Text, r.Content[i].spooled = "", &v
			r.spool = s
		}
	}
	if sc := bytes.TrimSpace(r.StructuredContent); len(sc) > 0 && sc[0] == '"' {
		var text string
		if json.Unmarshal(sc, &text) == nil {
			if v, ok := s.lookup(text); ok {
				r.StructuredContent, r.structured = nil, &v
				r.spool = s
			}
		}
	}
}

// reader streams the value: a string's text (unescaped as encoding/json
// would), or the JSON value's bytes.
func (v *spoolValue) reader() io.Reader {
	raw := io.NewSectionReader(readerAt{v.set}, v.off, v.n)
	if !v.str {
		return raw
	}
	return &unescaper{src: bufio.NewReaderSize(raw, 64<<10)}
}

// readerAt reads the set's spool under its lock (nil after release).
type readerAt struct{ s *spoolSet }

func (r readerAt) ReadAt(p []byte, off int64) (int, error) {
	r.s.mu.Lock()
	f := r.s.f
	r.s.mu.Unlock()
	if f == nil {
		return 0, errors.New("mcp: spooled result already released")
	}
	return f.ReadAt(p, off)
}

// unescaper turns the raw contents of a JSON string into its text, in
// chunks cut where no escape or UTF-8 sequence is split, each decoded by
// encoding/json (so invalid UTF-8 becomes U+FFFD exactly as there).
type unescaper struct {
	src  *bufio.Reader
	raw  []byte
	out  []byte
	done bool
}

func (u *unescaper) Read(p []byte) (int, error) {
	for len(u.out) == 0 {
		if u.done {
			return 0, io.EOF
		}
		if err := u.fill(); err != nil {
			return 0, err
		}
	}
	n := copy(p, u.out)
	u.out = u.out[n:]
	return n, nil
}

func (u *unescaper) fill() error {
	var buf [32 << 10]byte
	n, err := io.ReadFull(u.src, buf[:])
	u.raw = append(u.raw, buf[:n]...)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		u.done = true
	} else if err != nil {
		return err
	}
	cut := len(u.raw)
	if !u.done {
		cut = safeCut(u.raw)
	}
	quoted := make([]byte, 0, cut+2)
	quoted = append(append(append(quoted, '"'), u.raw[:cut]...), '"')
	var s string
	if err := json.Unmarshal(quoted, &s); err != nil {
		return fmt.Errorf("%w: spooled text: %v", ErrProtocol, err)
	}
	u.out = append(u.out[:0], s...)
	u.raw = append(u.raw[:0], u.raw[cut:]...)
	return nil
}

// safeCut is the longest prefix of raw string contents that splits no
// escape, surrogate pair or UTF-8 sequence.
func safeCut(raw []byte) int {
	last := 0
	for i := 0; i < len(raw); {
		last = i
		switch c := raw[i]; {
		case c == '\\':
			if i+1 >= len(raw) {
				return last
			}
			if raw[i+1] != 'u' {
				i += 2
				continue
			}
			if i+6 > len(raw) {
				return last
			}
			if r, err := strconv.ParseUint(string(raw[i+2:i+6]), 16, 16); err == nil && r >= 0xD800 && r < 0xDC00 {
				// A high surrogate: keep it with the escape after it.
				if i+12 > len(raw) {
					return last
				}
			}
			i += 6
		case c >= utf8.RuneSelf:
			if !utf8.FullRune(raw[i:]) {
				return last
			}
			_, size := utf8.DecodeRune(raw[i:])
			i += size
		default:
			i++
		}
	}
	return len(raw)
}

// Roles of a value in a reply, by where it stands: only a tool result's
// text blocks and structuredContent are spooled.
type role uint8

const (
	roleNone    role = iota
	roleRoot         // the JSON-RPC message
	roleResult       // its result: a ToolResult, a task answer, or a Task
	roleTask         // result.task
	roleTool         // a Task's result (a ToolResult)
	roleContent      // a ToolResult's content array
	roleBlock        // one content block
	roleText         // a block's text: spooled when long
	roleJSON         // structuredContent: spooled when long
)

func childRole(parent role, key string) role {
	is := func(name string) bool { return strings.EqualFold(key, name) } // encoding/json matches keys so
	switch parent {
	case roleRoot:
		if is("result") {
			return roleResult
		}
	case roleResult, roleTool:
		switch {
		case is("structuredContent"):
			return roleJSON
		case is("content"):
			return roleContent
		case parent == roleResult && is("result"):
			return roleTool
		case parent == roleResult && is("task"):
			return roleTask
		}
	case roleTask:
		if is("result") {
			return roleTool
		}
	case roleBlock:
		if is("text") {
			return roleText
		}
	}
	return roleNone
}

// spoolScanner copies one JSON message from r into out, validating it as
// encoding/json would, with each long text or structuredContent written to
// the spool and a placeholder left in out.
type spoolScanner struct {
	r    *bufio.Reader
	read int64 // bytes taken from r
	set  *spoolSet
	// out is the message without the spooled values, gathered in blocks
	// joined once at the end (as readBody): a message refused at maxOut
	// costs about maxOut, not a doubling buffer.
	out      []byte
	blocks   [][]byte
	outLen   int64
	maxOut   int64
	tooLarge error
	key      []byte // tee of an object key being read (nil: none)
	longKey  bool
	// capture: the value being gathered for the spool (nil: out).
	capture *spoolCapture
}

type spoolCapture struct {
	buf      []byte
	spooling bool
	off, n   int64
}

// readSpooled reads one message (a body, an SSE event's data) of at most
// maxOut bytes in memory (else tooLarge) and set.max in all into a message
// whose long values are in set. An empty body is no message (nil, nil).
// A read error wraps ErrStreamBroken and the reader's error.
func readSpooled(body io.Reader, set *spoolSet, maxOut int64, tooLarge error) ([]byte, error) {
	s := &spoolScanner{r: bufio.NewReaderSize(body, 64<<10), set: set, maxOut: maxOut, tooLarge: tooLarge}
	if _, err := s.skipSpace(); err == io.EOF {
		return nil, nil
	} else if err != nil {
		return nil, s.ioErr(err)
	}
	s.r.UnreadByte() //nolint:errcheck // the byte just read
	s.read--
	if err := s.value(roleRoot, 0); err != nil {
		return nil, err
	}
	if c, err := s.skipSpace(); err == nil {
		return nil, s.syntax(fmt.Sprintf("invalid character %q after top-level value", c))
	} else if err != io.EOF {
		return nil, s.ioErr(err)
	}
	if len(s.blocks) == 0 {
		return s.out, nil
	}
	msg := make([]byte, 0, s.outLen)
	for i, b := range s.blocks {
		msg = append(msg, b...)
		s.blocks[i] = nil
	}
	return append(msg, s.out...), nil
}

// outBlock is the block size of the gathered message.
const outBlock = 1 << 20

func (s *spoolScanner) syntax(msg string) error {
	return fmt.Errorf("%w: reply is not JSON-RPC: %s (offset %d)", ErrProtocol, msg, s.read)
}

func (s *spoolScanner) ioErr(err error) error {
	var sized *sizeError
	if errors.As(err, &sized) {
		return sized.err
	}
	if err == io.EOF {
		// The body ended inside the message: garbage, as a whole body
		// that does not decode.
		return s.syntax("unexpected end of JSON input")
	}
	return &readError{err}
}

// readError: reading the message failed (not its content): it is
// ErrStreamBroken, and unwraps to the reader's error.
type readError struct{ err error }

func (e *readError) Error() string        { return fmt.Sprintf("%v: %v", ErrStreamBroken, e.err) }
func (e *readError) Unwrap() error        { return e.err }
func (e *readError) Is(target error) bool { return target == ErrStreamBroken }

// sizeError carries a cap's refusal through the byte reader.
type sizeError struct{ err error }

func (e *sizeError) Error() string { return e.err.Error() }

func (s *spoolScanner) readByte() (byte, error) {
	c, err := s.r.ReadByte()
	if err != nil {
		return 0, err
	}
	s.read++
	if s.read > s.set.max {
		return 0, &sizeError{fmt.Errorf("%w: over the %d-byte limit", ErrReplyTooLarge, s.set.max)}
	}
	return c, nil
}

func (s *spoolScanner) skipSpace() (byte, error) {
	for {
		c, err := s.readByte()
		if err != nil {
			return 0, err
		}
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return c, nil
		}
	}
}

// emit writes b to the value being captured, or to out.
func (s *spoolScanner) emit(b ...byte) error {
	if c := s.capture; c != nil {
		c.buf = append(c.buf, b...)
		if !c.spooling && len(c.buf) > s.set.above {
			c.spooling = true
			off, err := s.set.write(c.buf)
			if err != nil {
				return err
			}
			c.off, c.n, c.buf = off, int64(len(c.buf)), c.buf[:0]
		} else if c.spooling && len(c.buf) >= 64<<10 {
			if _, err := s.set.write(c.buf); err != nil {
				return err
			}
			c.n += int64(len(c.buf))
			c.buf = c.buf[:0]
		}
		return nil
	}
	if s.key != nil && !s.longKey {
		if len(s.key)+len(b) > 4<<10 {
			s.longKey = true // no role's key is this long
		} else {
			s.key = append(s.key, b...)
		}
	}
	s.outLen += int64(len(b))
	if s.outLen > s.maxOut {
		return fmt.Errorf("%w: over the %d-byte limit", s.tooLarge, s.maxOut)
	}
	for len(b) > 0 {
		if len(s.out) == cap(s.out) {
			if len(s.out) > 0 {
				s.blocks = append(s.blocks, s.out)
			}
			s.out = make([]byte, 0, min(outBlock, max(4<<10, int(s.outLen))))
		}
		n := copy(s.out[len(s.out):cap(s.out)], b)
		s.out, b = s.out[:len(s.out)+n], b[n:]
	}
	return nil
}

// value copies one value whose role is r.
func (s *spoolScanner) value(r role, depth int) error {
	c, err := s.skipSpace()
	if err != nil {
		return s.ioErr(err)
	}
	if (r == roleText && c == '"') || r == roleJSON {
		return s.spooled(r, c, depth)
	}
	return s.valueFrom(r, c, depth)
}

// spooled gathers one text or structuredContent value: in out when short,
// else in the spool with a placeholder in out.
func (s *spoolScanner) spooled(r role, c byte, depth int) error {
	cap := &spoolCapture{}
	s.capture = cap
	var err error
	if r == roleText {
		err = s.stringBody() // the contents without the quotes
	} else {
		err = s.valueFrom(roleNone, c, depth)
	}
	s.capture = nil
	if err != nil {
		return err
	}
	if !cap.spooling {
		if r == roleText {
			if err := s.emit('"'); err != nil {
				return err
			}
			if err := s.emit(cap.buf...); err != nil {
				return err
			}
			return s.emit('"')
		}
		return s.emit(cap.buf...)
	}
	if len(cap.buf) > 0 {
		if _, err := s.set.write(cap.buf); err != nil {
			return err
		}
		cap.n += int64(len(cap.buf))
	}
	s.set.mu.Lock()
	key := s.set.prefix + strconv.Itoa(len(s.set.vals))
	s.set.vals[key] = spoolValue{set: s.set, off: cap.off, n: cap.n, str: r == roleText}
	s.set.mu.Unlock()
	quoted, _ := json.Marshal(key)
	return s.emit(quoted...)
}

func (s *spoolScanner) valueFrom(r role, c byte, depth int) error {
	switch {
	case c == '{':
		return s.object(r, depth+1)
	case c == '[':
		return s.array(r, depth+1)
	case c == '"':
		if err := s.emit('"'); err != nil {
			return err
		}
		if err := s.stringBody(); err != nil {
			return err
		}
		return s.emit('"')
	case c == '-' || (c >= '0' && c <= '9'):
		return s.number(c)
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	}
	return s.syntax(fmt.Sprintf("invalid character %q looking for beginning of value", c))
}

func (s *spoolScanner) object(r role, depth int) error {
	if depth > maxDepth {
		return s.syntax("exceeded max depth")
	}
	if err := s.emit('{'); err != nil {
		return err
	}
	c, err := s.skipSpace()
	if err != nil {
		return s.ioErr(err)
	}
	if c == '}' {
		return s.emit('}')
	}
	for {
		if c != '"' {
			return s.syntax(fmt.Sprintf("invalid character %q looking for beginning of object key string", c))
		}
		tee := r != roleNone && s.capture == nil
		if tee {
			s.key, s.longKey = []byte{}, false
		}
		err := s.emit('"')
		if err == nil {
			err = s.stringBody()
		}
		if err == nil {
			err = s.emit('"')
		}
		key, long := s.key, s.longKey
		s.key = nil
		if err != nil {
			return err
		}
		child := roleNone
		if tee && !long {
			var name string
			if json.Unmarshal(key, &name) != nil {
				return s.syntax("invalid object key")
			}
			child = childRole(r, name)
		}
		if c, err = s.skipSpace(); err != nil {
			return s.ioErr(err)
		}
		if c != ':' {
			return s.syntax(fmt.Sprintf("invalid character %q after object key", c))
		}
		if err := s.emit(':'); err != nil {
			return err
		}
		if err := s.value(child, depth); err != nil {
			return err
		}
		if more, err := s.next('}', "object key:value pair"); err != nil || !more {
			return err
		}
		if c, err = s.skipSpace(); err != nil {
			return s.ioErr(err)
		}
	}
}

func (s *spoolScanner) array(r role, depth int) error {
	if depth > maxDepth {
		return s.syntax("exceeded max depth")
	}
	if err := s.emit('['); err != nil {
		return err
	}
	elem := roleNone
	if r == roleContent {
		elem = roleBlock
	}
	c, err := s.skipSpace()
	if err != nil {
		return s.ioErr(err)
	}
	if c == ']' {
		return s.emit(']')
	}
	if err := s.r.UnreadByte(); err != nil {
		return s.ioErr(err)
	}
	s.read--
	for {
		if err := s.value(elem, depth); err != nil {
			return err
		}
		if more, err := s.next(']', "array element"); err != nil || !more {
			return err
		}
	}
}

// next copies what follows an object's member or an array's element: a
// comma (more is true: another one follows) or the closing byte (more is
// false); anything else is a syntax error naming what it came after.
func (s *spoolScanner) next(closing byte, after string) (more bool, err error) {
	c, err := s.skipSpace()
	if err != nil {
		return false, s.ioErr(err)
	}
	switch c {
	case ',':
		return true, s.emit(',')
	case closing:
		return false, s.emit(closing)
	default:
		return false, s.syntax(fmt.Sprintf("invalid character %q after %s", c, after))
	}
}

// stringBody copies a string's contents after its opening quote, up to
// and not including the closing one, checking escapes and control
// characters (UTF-8 is left to the decoder, as encoding/json does).
func (s *spoolScanner) stringBody() error {
	for {
		// Fast path: the plain bytes already buffered, in one piece.
		if buf, _ := s.r.Peek(s.r.Buffered()); len(buf) > 0 {
			i := 0
			for i < len(buf) && buf[i] != '"' && buf[i] != '\\' && buf[i] >= 0x20 {
				i++
			}
			if i > 0 {
				if s.read+int64(i) > s.set.max {
					return fmt.Errorf("%w: over the %d-byte limit", ErrReplyTooLarge, s.set.max)
				}
				if err := s.emit(buf[:i]...); err != nil {
					return err
				}
				s.r.Discard(i) //nolint:errcheck // buffered bytes
				s.read += int64(i)
			}
		}
		c, err := s.readByte()
		if err != nil {
			return s.ioErr(err)
		}
		switch {
		case c == '"':
			return nil
		case c < 0x20:
			return s.syntax(fmt.Sprintf("invalid character %q in string literal", c))
		case c == '\\':
			e, err := s.readByte()
			if err != nil {
				return s.ioErr(err)
			}
			switch e {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				if err := s.emit(c, e); err != nil {
					return err
				}
			case 'u':
				var hex [6]byte
				hex[0], hex[1] = c, e
				for i := 2; i < 6; i++ {
					if hex[i], err = s.readByte(); err != nil {
						return s.ioErr(err)
					}
					if !isHex(hex[i]) {
						return s.syntax(fmt.Sprintf("invalid character %q in \\u hexadecimal character escape", hex[i]))
					}
				}
				if err := s.emit(hex[:]...); err != nil {
					return err
				}
			default:
				return s.syntax(fmt.Sprintf("invalid character %q in string escape code", e))
			}
		default:
			if err := s.emit(c); err != nil {
				return err
			}
		}
	}
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// number copies a number, checked by encoding/json's grammar.
func (s *spoolScanner) number(first byte) error {
	num := []byte{first}
	for {
		c, err := s.r.ReadByte()
		if err == io.EOF {
			break
		}
		if err != nil {
			return s.ioErr(err)
		}
		if !(c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' || (c >= '0' && c <= '9')) {
			s.r.UnreadByte() //nolint:errcheck // the byte just read
			break
		}
		s.read++
		num = append(num, c)
		if len(num) > 1<<10 {
			return s.syntax("number too long")
		}
	}
	if !json.Valid(num) {
		return s.syntax(fmt.Sprintf("invalid number %q", num))
	}
	return s.emit(num...)
}

func (s *spoolScanner) literal(word string) error {
	for i := 1; i < len(word); i++ {
		c, err := s.readByte()
		if err != nil {
			return s.ioErr(err)
		}
		if c != word[i] {
			return s.syntax(fmt.Sprintf("invalid character %q in literal %s", c, word))
		}
	}
	return s.emit([]byte(word)...)
}
