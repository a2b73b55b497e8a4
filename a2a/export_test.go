package a2a

import "math"

// RequestSize returns the exact encoded size in bytes of the SendMessage or
// SendStreamingMessage request for req, without reading file sources or
// building the body (docs/remote-agent.md R14 pre-check). The JSON-RPC id and method name are
// counted at their largest, so the real request is at most 27 bytes smaller
// and never bigger; the check inside the send methods uses the exact size.
// Only the tests use it: the send methods refuse an oversized request
// themselves.
func (c *Client) RequestSize(req SendMessageRequest) (int64, error) {
	return encodedSize(math.MaxInt64, "SendStreamingMessage", sendParams{c.tenant, &req})
}
