package a2a

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
)

// streamThreshold is the total raw-part size above which a request body is
// streamed through a pipe instead of built in memory.
const streamThreshold = 1 << 20

// sendParams is SendMessageRequest plus the interface's tenant.
type sendParams struct {
	Tenant string
	*SendMessageRequest
}

// messageHead is Message without its parts; the parts are written one by one.
type messageHead struct {
	MessageID        string          `json:"messageId"`
	ContextID        string          `json:"contextId,omitempty"`
	TaskID           string          `json:"taskId,omitempty"`
	Role             Role            `json:"role"`
	Metadata         json.RawMessage `json:"metadata,omitempty"`
	Extensions       []string        `json:"extensions,omitempty"`
	ReferenceTaskIDs []string        `json:"referenceTaskIds,omitempty"`
}

// requestWriter writes a SendMessage request. With sizing set it only counts:
// raw parts add their base64 length without being read, so the size of a
// 20 MiB request is known before any of it exists (docs/remote-agent.md R14).
type requestWriter struct {
	w      io.Writer // nil when sizing
	sizing bool
	n      int64
	err    error
}

func (rw *requestWriter) raw(b []byte) {
	if rw.err != nil {
		return
	}
	rw.n += int64(len(b))
	if !rw.sizing {
		_, rw.err = rw.w.Write(b)
	}
}

func (rw *requestWriter) str(s string) {
	if rw.err != nil {
		return
	}
	rw.n += int64(len(s))
	if !rw.sizing {
		_, rw.err = io.WriteString(rw.w, s)
	}
}

func (rw *requestWriter) json(v any) {
	if b, ok := rw.marshal(v); ok {
		rw.raw(b)
	}
}

// members writes a marshalled object's members (without braces), preceded
// by a comma if it has any.
func (rw *requestWriter) members(v any) {
	if b, ok := rw.marshal(v); ok && len(b) > 2 {
		rw.str(",")
		rw.raw(b[1 : len(b)-1])
	}
}

// marshal encodes v, or keeps the error; ok says whether to write on.
func (rw *requestWriter) marshal(v any) (b []byte, ok bool) {
	if rw.err != nil {
		return nil, false
	}
	b, rw.err = json.Marshal(v)
	return b, rw.err == nil
}

func (rw *requestWriter) write(id int64, method string, p sendParams) {
	rw.str(`{"jsonrpc":"2.0","id":`)
	rw.str(strconv.FormatInt(id, 10))
	rw.str(`,"method":`)
	rw.json(method)
	rw.str(`,"params":{`)
	if p.Tenant != "" {
		rw.str(`"tenant":`)
		rw.json(p.Tenant)
		rw.str(",")
	}
	rw.str(`"message":`)
	rw.message(&p.Message)
	if p.Configuration != nil {
		rw.str(`,"configuration":`)
		rw.json(p.Configuration)
	}
	if len(p.Metadata) > 0 {
		rw.str(`,"metadata":`)
		rw.json(p.Metadata)
	}
	rw.str("}}")
}

func (rw *requestWriter) message(m *Message) {
	head, err := json.Marshal(messageHead{m.MessageID, m.ContextID, m.TaskID, m.Role, m.Metadata, m.Extensions, m.ReferenceTaskIDs})
	if err != nil {
		rw.err = err
		return
	}
	rw.raw(head[:len(head)-1])
	rw.str(`,"parts":[`)
	for i := range m.Parts {
		if i > 0 {
			rw.str(",")
		}
		p := &m.Parts[i]
		if !p.IsRaw() {
			rw.json(p)
			continue
		}
		rw.str(`{"raw":"`)
		rw.rawBytes(p)
		rw.str(`"`)
		rw.members(partMeta{p.Filename, p.MediaType, p.Metadata})
		rw.str("}")
	}
	rw.str("]}")
}

// rawBytes base64-encodes a raw part straight into the output.
func (rw *requestWriter) rawBytes(p *Part) {
	if rw.err != nil {
		return
	}
	size := int64(len(p.Raw))
	if p.Source != nil {
		size = p.Source.Size
	}
	if size < 0 {
		rw.err = errors.New("file source has a negative size")
		return
	}
	enc := int64(base64.StdEncoding.EncodedLen(int(size)))
	rw.n += enc
	if rw.sizing {
		return
	}
	e := base64.NewEncoder(base64.StdEncoding, rw.w)
	if p.Source == nil {
		if _, rw.err = e.Write(p.Raw); rw.err == nil {
			rw.err = e.Close()
		}
		return
	}
	rc, err := p.Source.Open()
	if err != nil {
		rw.err = fmt.Errorf("open file %q: %w", p.Filename, err)
		return
	}
	defer rc.Close()
	// One byte more than declared reveals a file that grew since it was sized.
	got, err := io.Copy(e, io.LimitReader(rc, size+1))
	if err == nil {
		err = e.Close()
	}
	switch {
	case err != nil:
		rw.err = fmt.Errorf("read file %q: %w", p.Filename, err)
	case got != size:
		rw.err = fmt.Errorf("file %q changed size while sending: declared %d bytes, read %d", p.Filename, size, got)
	}
}

// encodedSize is the exact byte length of the request writer's output.
func encodedSize(id int64, method string, p sendParams) (int64, error) {
	rw := requestWriter{sizing: true}
	rw.write(id, method, p)
	return rw.n, rw.err
}

func rawTotal(m *Message) int64 {
	var n int64
	for i := range m.Parts {
		if p := &m.Parts[i]; p.Source != nil {
			n += p.Source.Size
		} else {
			n += int64(len(p.Raw))
		}
	}
	return n
}

// sendBody prepares a SendMessage request body. Small requests are built in
// memory; large ones are produced on demand by a goroutine writing through a
// pipe, so only a small buffer of the encoded body exists at any time.
func sendBody(id int64, method string, p sendParams) (requestBody, error) {
	size, err := encodedSize(id, method, p)
	if err != nil {
		return requestBody{}, err
	}
	if rawTotal(&p.Message) <= streamThreshold {
		buf := make([]byte, 0, size)
		w := &sliceWriter{buf}
		rw := requestWriter{w: w}
		rw.write(id, method, p)
		if rw.err != nil {
			return requestBody{}, rw.err
		}
		return bytesBody(w.b), nil
	}
	var mu sync.Mutex
	var encErr error
	getBody := func() (io.ReadCloser, error) {
		pr, pw := io.Pipe()
		go func() {
			bw := bufio.NewWriterSize(pw, 64<<10)
			rw := requestWriter{w: bw}
			rw.write(id, method, p)
			err := rw.err
			if err == nil {
				err = bw.Flush()
			}
			if err == nil && rw.n != size {
				err = fmt.Errorf("a2a: request body is %d bytes, %d were announced", rw.n, size)
			}
			if err != nil && !errors.Is(err, io.ErrClosedPipe) {
				mu.Lock()
				encErr = err
				mu.Unlock()
			}
			pw.CloseWithError(err)
		}()
		return pr, nil
	}
	return requestBody{
		size:    size,
		getBody: getBody,
		encErr: func() error {
			mu.Lock()
			defer mu.Unlock()
			return encErr
		},
	}, nil
}

type sliceWriter struct{ b []byte }

func (w *sliceWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}
