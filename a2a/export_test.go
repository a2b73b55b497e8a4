package a2a

import (
	"math"
	"net/http"
	"testing"

	"workrun/remotecall"
)

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

// CredentialOptions are Options whose requests carry cred through the
// remote layer's transport bound to target's origin, as the product wires
// the client (nodes/remoteagent); the card fetch carries no credential.
func CredentialOptions(t testing.TB, target string, cred remotecall.Credential) Options {
	t.Helper()
	o, err := remotecall.CredentialOrigin(cred.Origin, target)
	if err != nil {
		t.Fatalf("credential origin: %v", err)
	}
	auth, err := remotecall.NewStaticAuth(cred)
	if err != nil {
		t.Fatalf("credential: %v", err)
	}
	tr, err := remotecall.NewTransport(remotecall.Binding{Origin: o, Auth: auth})
	if err != nil {
		t.Fatalf("transport: %v", err)
	}
	return Options{HTTPClient: tr.Client(), CardHTTPClient: &http.Client{}}
}
