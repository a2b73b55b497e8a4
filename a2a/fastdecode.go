package a2a

import (
	"bytes"
	"encoding/json"
	"time"
	"unicode/utf8"
)

// Fast path for the event a long stream is made of: a JSON-RPC 2.0 result
// whose StreamResponse is a statusUpdate with an optional text-only status
// message (docs/remote-agent.md R7; docs/BENCHMARKS.md, "a2a client"). It decodes the envelope straight into
// the typed event in one pass, without reflection and without re-parsing
// nested values.
//
// It only accepts what it reads exactly as encoding/json would: on anything
// else (an error envelope, another event kind, null members, escaped strings
// it would have to decode, duplicate keys, keys that match a field only
// case-insensitively, non-text parts, trailing data, …) it reports ok=false
// and the caller decodes with encoding/json, which then defines the result
// or the error. FuzzEventFastPath checks the two agree.

// fastDecoder keeps per-stream state: the last task id, context id and
// message id strings, so that the repeated values of a stream are not
// allocated for every event.
type fastDecoder struct {
	taskID, contextID string
}

// statusBlock holds one fast-decoded statusUpdate and everything it points
// to, so an event costs one allocation instead of one per member.
type statusBlock struct {
	ev   StreamEvent
	su   TaskStatusUpdateEvent
	msg  Message
	part [1]Part
	ts   time.Time
}

// maxFastDepth bounds the nesting of skipped values (metadata); deeper input
// goes to encoding/json.
const maxFastDepth = 256

type fastLexer struct {
	b []byte
	i int
}

// decode reads data as response[StreamEvent]; ok=false means "use
// encoding/json". The ID aliases data; everything in Result is owned.
func (d *fastDecoder) decode(data []byte) (r response[StreamEvent], ok bool) {
	l := fastLexer{b: data}
	var seen uint8
	ok = l.object(func(key []byte) bool {
		switch string(key) {
		case "jsonrpc":
			if !mark(&seen, 1) {
				return false
			}
			s, ok := l.str()
			if !ok {
				return false
			}
			if string(s) == "2.0" {
				r.JSONRPC = "2.0"
			} else {
				r.JSONRPC = string(s)
			}
			return true
		case "id":
			if !mark(&seen, 2) {
				return false
			}
			start := l.i
			if !l.skip(0) {
				return false
			}
			r.ID = data[start:l.i]
			return true
		case "result":
			if !mark(&seen, 4) {
				return false
			}
			blk := new(statusBlock)
			r.Result = &blk.ev
			return d.streamResponse(&l, blk)
		}
		return l.unknown(key, "jsonrpc", "id", "result", "error")
	})
	if !ok || !l.end() {
		return response[StreamEvent]{}, false
	}
	return r, true
}

func (d *fastDecoder) streamResponse(l *fastLexer, blk *statusBlock) bool {
	var seen uint8
	return l.object(func(key []byte) bool {
		if string(key) == "statusUpdate" {
			if !mark(&seen, 1) {
				return false
			}
			blk.ev.StatusUpdate = &blk.su
			return d.statusUpdate(l, blk)
		}
		return l.unknown(key, "task", "message", "statusUpdate", "artifactUpdate")
	})
}

func (d *fastDecoder) statusUpdate(l *fastLexer, blk *statusBlock) bool {
	su := &blk.su
	var seen uint8
	return l.object(func(key []byte) bool {
		switch string(key) {
		case "taskId":
			return mark(&seen, 1) && l.internTo(&d.taskID, &su.TaskID)
		case "contextId":
			return mark(&seen, 2) && l.internTo(&d.contextID, &su.ContextID)
		case "status":
			return mark(&seen, 4) && d.status(l, blk)
		case "metadata":
			return mark(&seen, 8) && l.rawTo(&su.Metadata)
		}
		return l.unknown(key, "taskId", "contextId", "status", "metadata")
	})
}

func (d *fastDecoder) status(l *fastLexer, blk *statusBlock) bool {
	st := &blk.su.Status
	var seen uint8
	return l.object(func(key []byte) bool {
		switch string(key) {
		case "state":
			if !mark(&seen, 1) {
				return false
			}
			s, ok := l.str()
			st.State = taskState(s)
			return ok
		case "message":
			if !mark(&seen, 2) {
				return false
			}
			st.Message = &blk.msg
			return d.message(l, blk)
		case "timestamp":
			if !mark(&seen, 4) {
				return false
			}
			start := l.i
			if l.peek() != '"' || !l.skip(0) {
				return false
			}
			// encoding/json hands the quoted token to time.Time's
			// UnmarshalJSON too; an error there is left to encoding/json.
			if blk.ts.UnmarshalJSON(l.b[start:l.i]) != nil {
				return false
			}
			st.Timestamp = &blk.ts
			return true
		}
		return l.unknown(key, "state", "message", "timestamp")
	})
}

func (d *fastDecoder) message(l *fastLexer, blk *statusBlock) bool {
	m := &blk.msg
	var seen uint8
	return l.object(func(key []byte) bool {
		switch string(key) {
		case "messageId":
			return mark(&seen, 1) && l.strTo(&m.MessageID)
		case "contextId":
			return mark(&seen, 2) && l.internTo(&d.contextID, &m.ContextID)
		case "taskId":
			return mark(&seen, 4) && l.internTo(&d.taskID, &m.TaskID)
		case "role":
			if !mark(&seen, 8) {
				return false
			}
			s, ok := l.str()
			m.Role = role(s)
			return ok
		case "parts":
			return mark(&seen, 16) && d.parts(l, blk)
		case "metadata":
			return mark(&seen, 32) && l.rawTo(&m.Metadata)
		}
		return l.unknown(key, "messageId", "contextId", "taskId", "role", "parts", "metadata", "extensions", "referenceTaskIds")
	})
}

// parts reads an array of text parts; the first lives in the block.
func (d *fastDecoder) parts(l *fastLexer, blk *statusBlock) bool {
	l.ws()
	if l.peek() != '[' {
		return false
	}
	l.i++
	ps := blk.part[:0]
	l.ws()
	if l.peek() == ']' {
		l.i++
		blk.msg.Parts = ps
		return true
	}
	for {
		ps = append(ps, Part{})
		if !textPart(l, &ps[len(ps)-1]) {
			return false
		}
		l.ws()
		switch l.peek() {
		case ',':
			l.i++
		case ']':
			l.i++
			blk.msg.Parts = ps
			return true
		default:
			return false
		}
	}
}

func textPart(l *fastLexer, p *Part) bool {
	var seen uint8
	ok := l.object(func(key []byte) bool {
		switch string(key) {
		case "text":
			return mark(&seen, 1) && l.strTo(&p.Text)
		case "filename":
			return mark(&seen, 2) && l.strTo(&p.Filename)
		case "mediaType":
			return mark(&seen, 4) && l.strTo(&p.MediaType)
		case "metadata":
			return mark(&seen, 8) && l.rawTo(&p.Metadata)
		}
		return l.unknown(key, "text", "raw", "url", "data", "filename", "mediaType", "metadata")
	})
	// Only text parts: without "text" Part.UnmarshalJSON may pick another kind.
	return ok && seen&1 != 0
}

// mark records a key; a second occurrence sends the event to encoding/json
// (which merges duplicates).
func mark(seen *uint8, bit uint8) bool {
	if *seen&bit != 0 {
		return false
	}
	*seen |= bit
	return true
}

// strTo reads a string into *dst.
func (l *fastLexer) strTo(dst *string) bool {
	s, ok := l.str()
	*dst = string(s)
	return ok
}

// internTo reads a string into *dst, reusing *last when equal (intern).
func (l *fastLexer) internTo(last, dst *string) bool {
	s, ok := l.str()
	*dst = intern(last, s)
	return ok
}

// rawTo reads a raw JSON value into *dst.
func (l *fastLexer) rawTo(dst *json.RawMessage) bool {
	raw, ok := l.raw()
	*dst = raw
	return ok
}

// intern returns s as a string, reusing *last when equal.
func intern(last *string, s []byte) string {
	if string(s) != *last {
		*last = string(s)
	}
	return *last
}

func taskState(s []byte) TaskState {
	switch string(s) {
	case string(TaskStateWorking):
		return TaskStateWorking
	case string(TaskStateCompleted):
		return TaskStateCompleted
	case string(TaskStateSubmitted):
		return TaskStateSubmitted
	case string(TaskStateFailed):
		return TaskStateFailed
	case string(TaskStateCanceled):
		return TaskStateCanceled
	case string(TaskStateInputRequired):
		return TaskStateInputRequired
	case string(TaskStateRejected):
		return TaskStateRejected
	case string(TaskStateAuthRequired):
		return TaskStateAuthRequired
	case string(TaskStateUnspecified):
		return TaskStateUnspecified
	}
	return TaskState(s)
}

func role(s []byte) Role {
	switch string(s) {
	case string(RoleAgent):
		return RoleAgent
	case string(RoleUser):
		return RoleUser
	case string(RoleUnspecified):
		return RoleUnspecified
	}
	return Role(s)
}

func (l *fastLexer) ws() {
	for l.i < len(l.b) {
		switch l.b[l.i] {
		case ' ', '\t', '\n', '\r':
			l.i++
		default:
			return
		}
	}
}

func (l *fastLexer) peek() byte {
	if l.i < len(l.b) {
		return l.b[l.i]
	}
	return 0
}

// end reports whether only whitespace is left.
func (l *fastLexer) end() bool {
	l.ws()
	return l.i == len(l.b)
}

// object reads {"key": value, …}, calling member with l positioned at each
// value (after the colon); member must consume the value.
func (l *fastLexer) object(member func(key []byte) bool) bool {
	l.ws()
	if l.peek() != '{' {
		return false // null or another type: encoding/json decides
	}
	l.i++
	l.ws()
	if l.peek() == '}' {
		l.i++
		return true
	}
	for {
		l.ws()
		key, ok := l.str()
		if !ok {
			return false
		}
		l.ws()
		if l.peek() != ':' {
			return false
		}
		l.i++
		l.ws()
		if !member(key) {
			return false
		}
		l.ws()
		switch l.peek() {
		case ',':
			l.i++
		case '}':
			l.i++
			return true
		default:
			return false
		}
	}
}

// unknown skips the value of a key that is none of known. A key equal to a
// known one only when case is folded is one encoding/json would decode, so
// it is left to encoding/json.
func (l *fastLexer) unknown(key []byte, known ...string) bool {
	for _, k := range known {
		if bytes.EqualFold(key, []byte(k)) {
			return false
		}
	}
	return l.skip(0)
}

// str reads a string without escapes and returns its contents (aliasing the
// input). Escapes and invalid UTF-8 (which encoding/json replaces) are left
// to encoding/json.
func (l *fastLexer) str() ([]byte, bool) {
	l.ws()
	if l.peek() != '"' {
		return nil, false
	}
	start := l.i + 1
	ascii := true
	for i := start; i < len(l.b); i++ {
		c := l.b[i]
		switch {
		case c == '"':
			l.i = i + 1
			s := l.b[start:i]
			if !ascii && !utf8.Valid(s) {
				return nil, false
			}
			return s, true
		case c == '\\' || c < 0x20:
			return nil, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return nil, false
}

// raw reads a non-null value as an owned copy, as json.RawMessage does.
func (l *fastLexer) raw() ([]byte, bool) {
	l.ws()
	if l.peek() == 'n' {
		return nil, false // null: RawMessage("null"); left to encoding/json
	}
	start := l.i
	if !l.skip(0) {
		return nil, false
	}
	return bytes.Clone(l.b[start:l.i]), true
}

// skip validates and steps over one JSON value (RFC 8259 grammar, as
// encoding/json's scanner accepts it).
func (l *fastLexer) skip(depth int) bool {
	if depth > maxFastDepth {
		return false
	}
	l.ws()
	if l.i >= len(l.b) {
		return false
	}
	switch c := l.b[l.i]; {
	case c == '{':
		l.i++
		l.ws()
		if l.peek() == '}' {
			l.i++
			return true
		}
		for {
			l.ws()
			if l.peek() != '"' || !l.skipString() {
				return false
			}
			l.ws()
			if l.peek() != ':' {
				return false
			}
			l.i++
			if !l.skip(depth + 1) {
				return false
			}
			l.ws()
			switch l.peek() {
			case ',':
				l.i++
			case '}':
				l.i++
				return true
			default:
				return false
			}
		}
	case c == '[':
		l.i++
		l.ws()
		if l.peek() == ']' {
			l.i++
			return true
		}
		for {
			if !l.skip(depth + 1) {
				return false
			}
			l.ws()
			switch l.peek() {
			case ',':
				l.i++
			case ']':
				l.i++
				return true
			default:
				return false
			}
		}
	case c == '"':
		return l.skipString()
	case c == 't':
		return l.literal("true")
	case c == 'f':
		return l.literal("false")
	case c == 'n':
		return l.literal("null")
	case c == '-' || (c >= '0' && c <= '9'):
		return l.skipNumber()
	}
	return false
}

func (l *fastLexer) literal(s string) bool {
	if !bytes.HasPrefix(l.b[l.i:], []byte(s)) {
		return false
	}
	l.i += len(s)
	return true
}

// skipString steps over a string token, escapes included; like
// encoding/json's scanner it does not reject invalid UTF-8.
func (l *fastLexer) skipString() bool {
	for i := l.i + 1; i < len(l.b); i++ {
		switch c := l.b[i]; {
		case c == '"':
			l.i = i + 1
			return true
		case c < 0x20:
			return false
		case c == '\\':
			i++
			if i >= len(l.b) {
				return false
			}
			switch l.b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(l.b) {
					return false
				}
				for _, h := range l.b[i+1 : i+5] {
					if !isHex(h) {
						return false
					}
				}
				i += 4
			default:
				return false
			}
		}
	}
	return false
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// skipNumber steps over -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func (l *fastLexer) skipNumber() bool {
	b, i := l.b, l.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		n := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == n {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		n := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == n {
			return false
		}
	}
	l.i = i
	return true
}
