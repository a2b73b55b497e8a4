package a2a

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"workrun/jsonrpc"
)

// readCapped reads at most max bytes; more is reported as tooLarge.
func readCapped(r io.Reader, max int64, tooLarge error) ([]byte, error) {
	return readCappedSized(r, -1, max, tooLarge)
}

// readCappedSized is readCapped with the announced Content-Length (or -1):
// a large reply is read into one buffer of the right size instead of a
// doubling one.
func readCappedSized(r io.Reader, size, max int64, tooLarge error) ([]byte, error) {
	if size > max {
		return nil, tooLarge
	}
	var buf bytes.Buffer
	if size > 0 {
		buf.Grow(int(size) + 1)
	}
	_, err := buf.ReadFrom(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(buf.Len()) > max {
		return nil, tooLarge
	}
	return buf.Bytes(), nil
}

// httpErrorFrom builds the error for a non-2xx reply; a JSON-RPC error in the
// body with this request's id is kept (a2a-js answers 400/500 with one).
func httpErrorFrom(resp *http.Response, wantID []byte) *HTTPError {
	return jsonrpc.ReadHTTPError[protocol](resp, false, func(id json.RawMessage) bool { return idMatches(id, wantID, true) })
}

// idMatches reports whether a reply id is the request's id. An error reply
// may carry a null id (the server could not read ours).
func idMatches(got json.RawMessage, want []byte, isError bool) bool {
	g := bytes.TrimSpace(got)
	if isError && (len(g) == 0 || bytes.Equal(g, []byte("null"))) {
		return true
	}
	return bytes.Equal(g, want)
}

// response is a JSON-RPC 2.0 response whose result decodes into T.
type response[T any] struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  *T              `json:"result"`
	Error   *RPCError       `json:"error"`
}

// decodeResponse applies the strict envelope rules: JSON-RPC 2.0, our id,
// exactly one of result and error.
func decodeResponse[T any](body []byte, wantID []byte) (*T, error) {
	var r response[T]
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, fmt.Errorf("%w: reply is not a JSON-RPC response: %v", ErrProtocol, err)
	}
	return r.check(wantID)
}

func (r *response[T]) check(wantID []byte) (*T, error) {
	if r.JSONRPC != "2.0" {
		return nil, fmt.Errorf("%w: reply is not JSON-RPC 2.0", ErrProtocol)
	}
	if r.Error != nil && r.Result != nil {
		return nil, fmt.Errorf("%w: reply has both result and error", ErrProtocol)
	}
	if !idMatches(r.ID, wantID, r.Error != nil) {
		return nil, fmt.Errorf("%w: reply id %s does not match request id %s", ErrProtocol, clip(r.ID), wantID)
	}
	if r.Error != nil {
		return nil, r.Error
	}
	if r.Result == nil {
		return nil, fmt.Errorf("%w: reply has no result", ErrProtocol)
	}
	return r.Result, nil
}

// clip shortens agent-supplied text before it goes into an error message.
func clip(b []byte) string {
	if len(b) == 0 {
		return "(none)"
	}
	if len(b) > 64 {
		return string(b[:64]) + "…"
	}
	return string(b)
}

// rpcParams is the params of GetTask, CancelTask and SubscribeToTask.
type rpcParams struct {
	ID     string `json:"id"`
	Tenant string `json:"tenant,omitempty"`
}

// rpcRequest is the envelope of small requests, marshalled in one piece.
type rpcRequest struct {
	JSONRPC string `json:"jsonrpc"`
	ID      int64  `json:"id"`
	Method  string `json:"method"`
	Params  any    `json:"params"`
}

// requestBody is a request ready to send: its exact size and a way to
// (re)produce it, possibly streamed.
type requestBody struct {
	size    int64
	getBody func() (io.ReadCloser, error)
	// encErr reports an error of the streaming writer, which the transport
	// would otherwise hide behind a generic write error.
	encErr func() error
}

func bytesBody(b []byte) requestBody {
	return requestBody{
		size:    int64(len(b)),
		getBody: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil },
		encErr:  func() error { return nil },
	}
}

// post sends one JSON-RPC request; the caller closes the response body.
// The size check runs first, so a refused request never touches the network.
func (c *Client) post(ctx context.Context, body requestBody, stream bool) (*http.Response, error) {
	if body.size > c.opts.MaxRequestBytes {
		return nil, fmt.Errorf("%w: the encoded request is %d bytes, over the transport limit of %d bytes", ErrRequestTooLarge, body.size, c.opts.MaxRequestBytes)
	}
	rc, err := body.getBody()
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, rc)
	if err != nil {
		rc.Close()
		return nil, err
	}
	req.ContentLength = body.size
	req.GetBody = body.getBody
	req.Header.Set("A2A-Version", ProtocolVersion)
	req.Header.Set("Content-Type", "application/json")
	if stream {
		req.Header.Set("Accept", "text/event-stream")
	} else {
		req.Header.Set("Accept", "application/json")
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		if e := body.encErr(); e != nil {
			return nil, e
		}
		return nil, err
	}
	return resp, nil
}

// call sends a small request and decodes its non-stream reply.
func call[T any](ctx context.Context, c *Client, method string, params any) (*T, error) {
	id := c.nextID.Add(1)
	b, err := json.Marshal(rpcRequest{JSONRPC: "2.0", ID: id, Method: method, Params: params})
	if err != nil {
		return nil, err
	}
	return roundTrip[T](ctx, c, bytesBody(b), id)
}

func roundTrip[T any](ctx context.Context, c *Client, body requestBody, id int64) (*T, error) {
	resp, err := c.post(ctx, body, false)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	wantID := strconv.AppendInt(nil, id, 10)
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, httpErrorFrom(resp, wantID)
	}
	b, err := readCappedSized(resp.Body, resp.ContentLength, c.opts.MaxReplyBytes, fmt.Errorf("%w: over the %d-byte limit", ErrReplyTooLarge, c.opts.MaxReplyBytes))
	if err != nil {
		return nil, err
	}
	return decodeResponse[T](b, wantID)
}

// mediaType returns the lower-case media type of a Content-Type header.
func mediaType(h string) string {
	mt, _, err := mime.ParseMediaType(h)
	if err != nil {
		return strings.ToLower(strings.TrimSpace(strings.Split(h, ";")[0]))
	}
	return mt
}

var errNoCardHere = errors.New("no agent card here")
