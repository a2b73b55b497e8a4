package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"workrun/jsonrpc"
	"workrun/sse"
)

// HTTPTransport is the Streamable HTTP transport: one endpoint, one POST per
// message, a JSON or SSE reply. Safe for concurrent use. It sends no
// credential itself: the *http.Client it is given (Options.HTTPClient —
// the remote layer's credential-bound transport, remotecall.Transport) puts
// the credential on, keeps every request and redirect on its origin, caps
// the bytes and redacts the secrets from what comes back.
type HTTPTransport struct {
	endpoint string
	hc       *http.Client
	maxReply int64
	maxEvent int64
}

var _ Transport = (*HTTPTransport)(nil)

// Resume bounds (legacy SSE replies, docs/remote-mcp.md M6): a broken reply
// stream is re-opened with GET and Last-Event-ID after the server's retry
// time (default 1 s, at most 60 s), at most maxResumes times in a row
// without a new event.
const (
	defaultRetry = time.Second
	maxRetry     = time.Minute
	maxResumes   = 5
)

// NewHTTPTransport returns the Streamable HTTP transport for endpoint (the
// server's MCP URL), with opts' HTTP client and limits.
func NewHTTPTransport(endpoint string, opts Options) (*HTTPTransport, error) {
	u, err := url.Parse(strings.TrimSpace(endpoint))
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("mcp: endpoint %q is not an http(s) URL", endpoint)
	}
	if u.User != nil {
		return nil, fmt.Errorf("mcp: endpoint must not carry a user name or password")
	}
	opts = opts.withDefaults()
	hc := &http.Client{}
	if opts.HTTPClient != nil {
		*hc = *opts.HTTPClient
	}
	hc.Timeout = 0 // a timeout would cut SSE replies; contexts bound each wait
	return &HTTPTransport{endpoint: u.String(), hc: hc, maxReply: opts.MaxReplyBytes, maxEvent: opts.MaxEventBytes}, nil
}

// Endpoint returns the URL requests go to.
func (t *HTTPTransport) Endpoint() string { return t.endpoint }

func (t *HTTPTransport) newRequest(ctx context.Context, method string, body []byte, m *Message) (*http.Request, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, t.endpoint, rd)
	if err != nil {
		return nil, err
	}
	for k, vs := range m.Header {
		req.Header[k] = append([]string(nil), vs...)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	if m.Session != "" {
		req.Header.Set("Mcp-Session-Id", m.Session)
	}
	return req, nil
}

// Send implements Transport: one POST; a JSON body or an SSE stream back.
func (t *HTTPTransport) Send(ctx context.Context, m *Message) (*Reply, error) {
	req, err := t.newRequest(ctx, http.MethodPost, m.Body, m)
	if err != nil {
		return nil, err
	}
	resp, err := t.hc.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		defer resp.Body.Close()
		return nil, httpErrorFrom(resp, m.Session != "")
	}
	rep := &Reply{Session: resp.Header.Get("Mcp-Session-Id")}
	if m.ID == 0 {
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) //nolint:errcheck // drained for reuse only
		resp.Body.Close()
		return rep, nil
	}
	switch mediaType(resp.Header.Get("Content-Type")) {
	case "text/event-stream":
		rep.Messages = t.stream(ctx, resp, m)
	case "application/json":
		rep.Messages = t.single(resp, m)
	default:
		resp.Body.Close()
		return nil, fmt.Errorf("%w: HTTP %d reply of type %q (is this the server's MCP endpoint?)", ErrProtocol, resp.StatusCode, clipString(resp.Header.Get("Content-Type"), 60))
	}
	return rep, nil
}

// single yields a JSON body as one message. With a spool (a tool result
// may come back) the body is read as a stream, its long values going to
// the spool (readSpooled).
func (t *HTTPTransport) single(resp *http.Response, m *Message) iter.Seq2[json.RawMessage, error] {
	return func(yield func(json.RawMessage, error) bool) {
		defer resp.Body.Close()
		if m.spool != nil {
			if resp.ContentLength > m.spool.max {
				yield(nil, fmt.Errorf("%w: over the %d-byte limit", ErrReplyTooLarge, m.spool.max))
				return
			}
			body, err := readSpooled(resp.Body, m.spool, t.maxReply, ErrReplyTooLarge)
			if err != nil {
				yield(nil, err)
				return
			}
			yield(body, nil)
			return
		}
		if resp.ContentLength > t.maxReply {
			yield(nil, fmt.Errorf("%w: over the %d-byte limit", ErrReplyTooLarge, t.maxReply))
			return
		}
		body, err := readBody(resp.Body, resp.ContentLength, t.maxReply)
		if err != nil {
			yield(nil, err)
			return
		}
		yield(body, nil)
	}
}

// readBody reads a reply body of at most max bytes. Without a length it is
// read in chunks joined once at the end, not into a buffer that doubles:
// a reply refused at the cap then costs about the cap, never twice it
// (issue 27).
func readBody(r io.Reader, length, max int64) ([]byte, error) {
	if length > 0 {
		buf := bytes.NewBuffer(make([]byte, 0, length+1))
		if _, err := buf.ReadFrom(io.LimitReader(r, max+1)); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrStreamBroken, err)
		}
		if int64(buf.Len()) > max {
			return nil, fmt.Errorf("%w: over the %d-byte limit", ErrReplyTooLarge, max)
		}
		return buf.Bytes(), nil
	}
	const chunk = 1 << 20
	var chunks [][]byte
	var total int64
	for {
		c := make([]byte, chunk)
		n, err := io.ReadFull(r, c)
		if n > 0 {
			chunks = append(chunks, c[:n])
			total += int64(n)
		}
		if total > max {
			return nil, fmt.Errorf("%w: over the %d-byte limit", ErrReplyTooLarge, max)
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrStreamBroken, err)
		}
	}
	if len(chunks) == 1 {
		return chunks[0], nil
	}
	out := make([]byte, 0, total)
	for i, c := range chunks {
		out = append(out, c...)
		chunks[i] = nil // collectable as soon as it is copied
	}
	return out, nil
}

// stream yields the data of each SSE event. When the stream ends before the
// caller stopped (it stops at the response) and the request is resumable
// and an event id was seen, it waits the server's retry time and re-opens
// the stream with GET and Last-Event-ID.
func (t *HTTPTransport) stream(ctx context.Context, resp *http.Response, m *Message) iter.Seq2[json.RawMessage, error] {
	return func(yield func(json.RawMessage, error) bool) {
		lastID, retry := "", defaultRetry
		fruitless := 0
		for {
			r := sse.NewReader(resp.Body, t.maxEvent)
			gotEvent := false
			var readErr error
			for {
				data, err := t.next(r, m.spool)
				if id := r.LastEventID(); id != "" {
					lastID = id
				}
				if ms, ok := r.Retry(); ok {
					retry = min(time.Duration(ms)*time.Millisecond, maxRetry)
				}
				var fatal *fatalEvent
				if errors.As(err, &fatal) {
					r.Release()
					resp.Body.Close()
					yield(nil, fatal.err)
					return
				}
				if err != nil {
					readErr = err
					break
				}
				gotEvent = true
				data = bytes.TrimSpace(data)
				if len(data) == 0 {
					continue // a priming event
				}
				if !yield(data, nil) {
					r.Release()
					resp.Body.Close()
					return
				}
			}
			r.Release()
			resp.Body.Close()
			if errors.Is(readErr, sse.ErrEventTooLarge) {
				yield(nil, fmt.Errorf("%w: over the %d-byte limit", ErrEventTooLarge, t.maxEvent))
				return
			}
			if gotEvent {
				fruitless = 0
			} else {
				fruitless++
			}
			if ctx.Err() != nil {
				yield(nil, ctx.Err())
				return
			}
			if !m.Resumable || lastID == "" || fruitless > maxResumes {
				yield(nil, fmt.Errorf("%w: %v", ErrStreamBroken, readErr))
				return
			}
			select {
			case <-ctx.Done():
				yield(nil, ctx.Err())
				return
			case <-time.After(retry):
			}
			next, err := t.resume(ctx, m, lastID)
			if err != nil {
				yield(nil, fmt.Errorf("%w: resuming after event %s: %w", ErrStreamBroken, clipString(lastID, 64), err))
				return
			}
			resp = next
		}
	}
}

// next reads one event's data. With a spool the data is streamed through
// readSpooled, so a tool result's long values go to the spool as they
// arrive and the event costs no more memory than its other parts (capped
// at the event limit). A stream error is returned as it is (the stream may
// be resumed); a refused event is a *fatalEvent.
func (t *HTTPTransport) next(r *sse.Reader, spool *spoolSet) ([]byte, error) {
	if spool == nil {
		ev, err := r.Next()
		return ev.Data, err
	}
	rd, err := r.NextStream()
	if err != nil {
		return nil, err
	}
	msg, err := readSpooled(rd, spool, t.maxEvent, ErrEventTooLarge)
	if err != nil {
		var broken *readError
		if errors.As(err, &broken) {
			return nil, broken.err // the stream's own error
		}
		return nil, &fatalEvent{err}
	}
	return msg, nil
}

// fatalEvent: an event that ends the reply (refused, or not JSON).
type fatalEvent struct{ err error }

func (e *fatalEvent) Error() string { return e.err.Error() }

// resume re-opens a legacy reply stream with GET and Last-Event-ID.
func (t *HTTPTransport) resume(ctx context.Context, m *Message, lastID string) (*http.Response, error) {
	req, err := t.newRequest(ctx, http.MethodGet, nil, m)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Last-Event-ID", lastID)
	req.Header.Del("Mcp-Method")
	req.Header.Del("Mcp-Name")
	req.Header.Del("Idempotency-Key")
	for k := range req.Header {
		if strings.HasPrefix(k, "Mcp-Param-") {
			req.Header.Del(k)
		}
	}
	resp, err := t.hc.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		defer resp.Body.Close()
		return nil, httpErrorFrom(resp, m.Session != "")
	}
	if mediaType(resp.Header.Get("Content-Type")) != "text/event-stream" {
		resp.Body.Close()
		return nil, fmt.Errorf("%w: resumed reply of type %q", ErrProtocol, clipString(resp.Header.Get("Content-Type"), 60))
	}
	return resp, nil
}

// OpenStream opens the GET stream on which a legacy server sends its own
// requests and notifications (streamable-http "Listening for Messages").
// A broken stream with event ids is resumed like a reply.
func (t *HTTPTransport) OpenStream(ctx context.Context, m *Message) (*Reply, error) {
	req, err := t.newRequest(ctx, http.MethodGet, nil, m)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := t.hc.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		defer resp.Body.Close()
		return nil, httpErrorFrom(resp, m.Session != "")
	}
	if mediaType(resp.Header.Get("Content-Type")) != "text/event-stream" {
		resp.Body.Close()
		return nil, fmt.Errorf("%w: GET stream of type %q", ErrProtocol, clipString(resp.Header.Get("Content-Type"), 60))
	}
	return &Reply{Session: m.Session, Messages: t.stream(ctx, resp, m)}, nil
}

// EndSession implements Transport: DELETE. A server that does not allow it
// (405) or no longer knows the session (404) counts as ended.
func (t *HTTPTransport) EndSession(ctx context.Context, m *Message) error {
	if m.Session == "" {
		return nil
	}
	req, err := t.newRequest(ctx, http.MethodDelete, nil, m)
	if err != nil {
		return err
	}
	resp, err := t.hc.Do(req)
	if err != nil {
		return fmt.Errorf("end session: %w", err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode <= 299, resp.StatusCode == 404, resp.StatusCode == 405:
		return nil
	}
	return fmt.Errorf("end session: %w", httpErrorFrom(resp, true))
}

func httpErrorFrom(resp *http.Response, withSession bool) *HTTPError {
	return jsonrpc.ReadHTTPError[protocol](resp, withSession, nil)
}

// mediaType returns the lower-case media type of a Content-Type header.
func mediaType(h string) string {
	mt, _, err := mime.ParseMediaType(h)
	if err != nil {
		return strings.ToLower(strings.TrimSpace(strings.Split(h, ";")[0]))
	}
	return mt
}
