package remotecall

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Dead connections are found by TCP keep-alive, set explicitly on every
// connection the remote layer dials: the first probe after
// KeepAliveIdle without traffic, then one every KeepAliveInterval, and
// after KeepAliveCount unanswered probes the kernel closes the connection,
// so a read on a silently dead connection fails within DeadPeerDetection
// (30 s) and the call handles it as a broken stream. A quiet stream on a
// live connection is never cut by a timer (docs/remote-agent.md R7).
const (
	KeepAliveIdle     = 15 * time.Second
	KeepAliveInterval = 5 * time.Second
	KeepAliveCount    = 3
	DeadPeerDetection = KeepAliveIdle + KeepAliveCount*KeepAliveInterval
)

// Default bounds of one call's transport.
const (
	// DefaultMaxRequestBytes bounds one request body (docs/remote-agent.md R14).
	DefaultMaxRequestBytes = 32 << 20
	// DefaultMaxCallBytes bounds everything one call reads from its server
	// over all its requests: streams, re-subscriptions and reads together.
	// It sits well above the largest result a call keeps (256 MiB of
	// artifact bytes, sent base64-encoded) and stops a server that streams
	// without end.
	DefaultMaxCallBytes = 2 << 30
)

var (
	fanOutOnce sync.Once
	fanOut     *http.Transport
)

// FanOutTransport is the HTTP transport the calls of one remote node kind
// share. The default transport keeps only 2 idle connections per host, so
// 100 parallel calls to one service would close and re-dial almost every
// connection between one request and the next. Here the idle pool holds a
// whole fan-out, and the number of connections per host stays unbounded:
// every running call may hold one for its stream or wait, and a cap would
// queue the cancels of a failed run behind those, serializing the fan-out
// (docs/remote-agent.md R10: one call never holds back another's cancel).
// Over https, HTTP/2 is still negotiated and multiplexes the requests
// instead. Its dialer sets the TCP keep-alive above.
func FanOutTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	d := &net.Dialer{
		Timeout: 30 * time.Second,
		KeepAliveConfig: net.KeepAliveConfig{
			Enable: true, Idle: KeepAliveIdle, Interval: KeepAliveInterval, Count: KeepAliveCount,
		},
	}
	t.DialContext = d.DialContext
	t.MaxConnsPerHost = 0
	t.MaxIdleConns = 512
	t.MaxIdleConnsPerHost = 256
	return t
}

// sharedFanOut is the FanOutTransport of every Transport built without a
// Base, so all calls share one pool.
func sharedFanOut() *http.Transport {
	fanOutOnce.Do(func() { fanOut = FanOutTransport() })
	return fanOut
}

// Binding is what one call's Transport is bound to.
type Binding struct {
	// Origin is the one origin every request and redirect must go to. The
	// zero Origin leaves the transport unbound, which is allowed only
	// without Auth (an A2A agent card may point to another origin).
	Origin Origin
	// Auth puts the credential on each request; nil sends none.
	Auth Authorizer
	// Wrap, when not nil, wraps Base with a credential's own transport
	// (OAuth: it sets the token and renews it). Every credential header
	// the wrapped transport sends is learnt by the Redactor on the way out.
	Wrap func(http.RoundTripper) http.RoundTripper
	// Redactor is told every secret the transport sends; nil makes one.
	Redactor *Redactor
	// Known are further secrets to redact from the start (Credential.Known).
	Known []string
	// MaxRequestBytes bounds a request body; 0 is DefaultMaxRequestBytes.
	MaxRequestBytes int64
	// MaxCallBytes bounds all bytes read in the call; 0 is
	// DefaultMaxCallBytes.
	MaxCallBytes int64
	// Base sends the requests; nil is the shared FanOutTransport.
	Base http.RoundTripper
}

// Transport is the credential-bound HTTP transport of one remote call,
// under both protocol clients (they take it as an *http.Client, Client):
//   - every request and every redirect goes only to the bound origin
//     (ErrOtherOrigin, nothing sent otherwise);
//   - a credential goes over plain http only to a loopback origin, and a
//     loopback name must resolve to loopback addresses only;
//   - a request body over MaxRequestBytes is refused before anything is
//     sent; the bytes read over the whole call are bounded by MaxCallBytes;
//   - the credential is put on each request by its Authorizer, which may
//     refresh it once after a 401 (OAuth);
//   - every secret it has put on a request is redacted from reply bodies as
//     they are read, from response headers and from its errors.
type Transport struct {
	b    Binding
	red  *Redactor
	read atomic.Int64
}

// NewTransport checks the binding: a credential needs an origin, and over
// plain http a loopback one.
func NewTransport(b Binding) (*Transport, error) {
	if b.Auth != nil || b.Wrap != nil {
		if b.Origin.IsZero() {
			return nil, errors.New("remotecall: a credential needs the origin it is bound to")
		}
		if err := b.Origin.PlainHTTPAllowed(); err != nil {
			return nil, err
		}
	}
	if b.MaxRequestBytes <= 0 {
		b.MaxRequestBytes = DefaultMaxRequestBytes
	}
	if b.MaxCallBytes <= 0 {
		b.MaxCallBytes = DefaultMaxCallBytes
	}
	if b.Base == nil {
		b.Base = sharedFanOut()
	}
	red := b.Redactor
	if red == nil {
		red = NewRedactor()
	}
	if b.Wrap != nil {
		b.Base = b.Wrap(learnSecrets{red: red, base: b.Base})
	}
	if s, ok := b.Auth.(StaticAuth); ok {
		red.Add(s.Secret())
	}
	for _, s := range b.Known {
		red.Add(s)
	}
	return &Transport{b: b, red: red}, nil
}

// Client is an *http.Client on t whose redirects stay on the bound origin.
// It has no Timeout: a timeout would cut a quiet stream; each request's
// wait for its answer is bounded by its context.
func (t *Transport) Client() *http.Client {
	return &http.Client{Transport: t, CheckRedirect: t.checkRedirect}
}

func (t *Transport) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	if !t.b.Origin.IsZero() && !t.b.Origin.Matches(req.URL) {
		return texts.Fail(ErrOtherOrigin, msgRedirect, originText(req), t.b.Origin.String())
	}
	return nil
}

// Redactor knows every secret t has sent.
func (t *Transport) Redactor() *Redactor { return t.red }

// Origin is the origin t is bound to (zero when unbound).
func (t *Transport) Origin() Origin { return t.b.Origin }

// BytesRead is what the call has read so far, over all its requests.
func (t *Transport) BytesRead() int64 { return t.read.Load() }

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.roundTrip(req)
	if err != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, t.red.Err(err)
	}
	return resp, nil
}

func (t *Transport) roundTrip(req *http.Request) (*http.Response, error) {
	if !t.b.Origin.IsZero() && !t.b.Origin.Matches(req.URL) {
		return nil, texts.Fail(ErrOtherOrigin, msgRequestOrigin, originText(req), t.b.Origin.String())
	}
	if req.ContentLength > t.b.MaxRequestBytes {
		return nil, texts.Fail(ErrRequestTooLarge, msgRequestSize, req.ContentLength, t.b.MaxRequestBytes)
	}
	if n := t.read.Load(); n > t.b.MaxCallBytes {
		return nil, texts.Fail(ErrCallBytes, msgCallBytes, t.b.MaxCallBytes)
	}
	if (t.b.Auth != nil || t.b.Wrap != nil) && t.b.Origin.Scheme() == "http" {
		if err := checkLoopbackPeer(req.Context(), t.b.Origin.Host()); err != nil {
			return nil, err
		}
	}
	resp, err := t.send(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusUnauthorized && t.b.Auth != nil && (req.Body == nil || req.Body == http.NoBody || req.GetBody != nil) {
		retry, rerr := t.b.Auth.Refresh(req.Context(), resp.Header.Values("WWW-Authenticate"))
		if rerr != nil {
			resp.Body.Close()
			return nil, fmt.Errorf("refresh credential: %w", rerr)
		}
		if retry {
			io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
			resp.Body.Close()
			again := req.Clone(req.Context())
			if req.GetBody != nil {
				body, err := req.GetBody()
				if err != nil {
					return nil, err
				}
				again.Body = body
			}
			if resp, err = t.send(again); err != nil {
				return nil, err
			}
		}
	}
	t.redactHeaders(resp.Header)
	resp.Body = &countingBody{ReadCloser: resp.Body, t: t}
	if len(t.red.snapshot()) > 0 {
		resp.Body = t.red.Reader(resp.Body)
		resp.ContentLength = -1 // redaction may shorten the body
	}
	return resp, nil
}

// send authorizes a clone of req and sends it; the secrets the Authorizer
// set are learnt first, so nothing the server echoes of them gets out.
func (t *Transport) send(req *http.Request) (*http.Response, error) {
	out := req
	if t.b.Auth != nil {
		out = req.Clone(req.Context())
		before := out.Header.Clone()
		if err := t.b.Auth.Authorize(out); err != nil {
			return nil, fmt.Errorf("authorize request: %w", err)
		}
		for name, vals := range out.Header {
			if slices.Equal(before[name], vals) {
				continue
			}
			for _, v := range vals {
				t.red.Add(v)
				if name == "Authorization" {
					if _, tok, ok := strings.Cut(v, " "); ok {
						t.red.Add(strings.TrimSpace(tok))
					}
				}
			}
		}
	}
	if out.Body != nil && out.Body != http.NoBody && out.ContentLength < 0 {
		if out == req {
			out = req.Clone(req.Context())
		}
		out.Body = &cappedBody{ReadCloser: out.Body, left: t.b.MaxRequestBytes, max: t.b.MaxRequestBytes}
	}
	return t.b.Base.RoundTrip(out)
}

// learnSecrets sits under a credential's own transport (Binding.Wrap) and
// tells the Redactor the credential it put on each request before the
// request leaves.
type learnSecrets struct {
	red  *Redactor
	base http.RoundTripper
}

func (l learnSecrets) RoundTrip(req *http.Request) (*http.Response, error) {
	for _, v := range req.Header.Values("Authorization") {
		l.red.Add(v)
		if _, tok, ok := strings.Cut(v, " "); ok {
			l.red.Add(strings.TrimSpace(tok))
		}
	}
	return l.base.RoundTrip(req)
}

func (t *Transport) redactHeaders(h http.Header) {
	if len(t.red.snapshot()) == 0 {
		return
	}
	for _, vals := range h {
		for i, v := range vals {
			vals[i] = t.red.String(v)
		}
	}
}

// countingBody counts what the call reads and stops it past MaxCallBytes.
type countingBody struct {
	io.ReadCloser
	t *Transport
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if b.t.read.Add(int64(n)) > b.t.b.MaxCallBytes {
		return n, texts.Fail(ErrCallBytes, msgCallBytes, b.t.b.MaxCallBytes)
	}
	return n, err
}

// cappedBody refuses a body of unknown length once it passes the limit.
type cappedBody struct {
	io.ReadCloser
	left, max int64
}

func (b *cappedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		return n, texts.Fail(ErrRequestTooLarge, msgRequestSize, b.max-b.left, b.max)
	}
	return n, err
}

// checkLoopbackPeer resolves host and refuses it unless every address is a
// loopback one: "localhost" and "*.localhost" count as loopback only when
// they really are (IsLoopbackHost).
func checkLoopbackPeer(ctx context.Context, host string) error {
	addrs, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return fmt.Errorf("resolve %s: %w", host, err)
	}
	for _, a := range addrs {
		if !a.Unmap().IsLoopback() {
			return texts.Fail(ErrInsecureCredential, msgPeerNotLocal, host, a.String())
		}
	}
	return nil
}

func originText(req *http.Request) string {
	if o, err := OriginOf(req.URL); err == nil {
		return o.String()
	}
	return clipText(req.URL.Redacted())
}
