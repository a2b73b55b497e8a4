package oauth

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"

	"workrun/remotecall"
)

// DefaultMaxSignIns bounds the sign-ins one interactive transport runs
// (the first one plus step-ups), so that a server that keeps answering 403
// insufficient_scope cannot loop the person through sign-in forever.
const DefaultMaxSignIns = 3

// SignInFunc signs the person in (interactive use only: the connection
// test, `workrun credential login`): ch is the challenge that asked for it,
// prev the grant in use (nil for none), extra the scopes a 403 asked for.
type SignInFunc func(ctx context.Context, ch Challenge, prev *Grant, extra []string) (*Session, error)

// Transport sends the session's bearer token with every request to its
// origin (only there), renews it once after a 401 and retries the request
// (a 401 or 403 means the server did not act on it). In a run SignIn is nil:
// what needs the person fails with ErrSignInRequired. With SignIn set, a
// 401 without a usable token and a 403 insufficient_scope run a sign-in, at
// most MaxSignIns times.
type Transport struct {
	Base http.RoundTripper
	// Origin is the protected resource's origin; requests to other origins
	// pass through untouched.
	Origin     string
	SignIn     SignInFunc
	MaxSignIns int

	mu      sync.Mutex
	session *Session
	signIns int
	// nonce is the resource's last DPoP-Nonce (RFC 9449 §9).
	nonce string
}

func (t *Transport) dpopNonce() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.nonce
}

// keepNonce keeps resp's DPoP-Nonce; changed reports a new one.
func (t *Transport) keepNonce(resp *http.Response) (changed bool) {
	n, ok := nonceOf(resp)
	if !ok {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	changed = n != t.nonce
	t.nonce = n
	return changed
}

// NewTransport is a transport over base for s (nil until signed in).
func NewTransport(base http.RoundTripper, origin string, s *Session) *Transport {
	return &Transport{Base: base, Origin: origin, session: s}
}

// Session returns the session in use (nil before any sign-in).
func (t *Transport) Session() *Session {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.session
}

// SignIns is how many sign-ins this transport ran.
func (t *Transport) SignIns() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.signIns
}

func (t *Transport) base() http.RoundTripper {
	if t.Base != nil {
		return t.Base
	}
	return http.DefaultTransport
}

func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	o, err := originOf(req.URL.String())
	if err != nil || o != t.Origin {
		return t.base().RoundTrip(req)
	}
	getBody, err := replayable(req)
	if err != nil {
		return nil, err
	}
	ctx := req.Context()
	renewed, nonceRetried := false, false
	for {
		s := t.Session()
		r := req.Clone(ctx)
		if getBody != nil {
			if r.Body, err = getBody(); err != nil {
				return nil, err
			}
		}
		sent := ""
		var key *dpopKey
		if s != nil {
			tok, k, err := s.tokenAndKey(ctx)
			if err != nil {
				if !errors.Is(err, ErrSignInRequired) || t.SignIn == nil {
					return nil, err
				}
				if err := t.signIn(ctx, Challenge{}, s, nil); err != nil {
					return nil, err
				}
				continue
			}
			// remotecall's static credential puts it on, the one place an
			// Authorization header is written: Bearer, or DPoP with the
			// proof beside it (RFC 9449 §7.1).
			kind := remotecall.CredentialBearer
			if k != nil {
				kind = remotecall.CredentialDPoP
				p, err := k.proof(r.Method, r.URL, tok, t.dpopNonce())
				if err != nil {
					return nil, err
				}
				r.Header.Set("DPoP", p)
			}
			auth, err := remotecall.NewStaticAuth(remotecall.Credential{Kind: kind, Secret: tok})
			if err != nil {
				return nil, fmt.Errorf("oauth: the token cannot go on a request: %w", err)
			}
			if err := auth.Authorize(r); err != nil {
				return nil, err
			}
			sent, key = tok, k
		}
		resp, err := t.base().RoundTrip(r)
		if err != nil {
			return nil, err
		}
		newNonce := key != nil && t.keepNonce(resp)
		switch resp.StatusCode {
		case http.StatusUnauthorized:
			ch, _ := ParseChallenge(resp.Header.Values("WWW-Authenticate"))
			if newNonce && ch.DPoPError == errUseDPoPNonce && !nonceRetried {
				// The resource asks for its nonce in the proof: once more
				// with a fresh proof carrying it; the token is good.
				nonceRetried = true
				discard(resp)
				continue
			}
			if sent != "" && !renewed {
				renewed = true
				_, rerr := s.Renew(ctx, sent, ch)
				if rerr == nil {
					discard(resp)
					continue
				}
				if !errors.Is(rerr, ErrSignInRequired) || t.SignIn == nil {
					discard(resp)
					return nil, rerr
				}
			}
			if t.SignIn != nil {
				discard(resp)
				if err := t.signIn(ctx, ch, s, nil); err != nil {
					return nil, err
				}
				renewed = false
				continue
			}
			if sent == "" {
				return resp, nil // no grant at all: the caller sees the 401
			}
			discard(resp)
			return nil, &SignInError{Origin: t.Origin, Reason: "the server refused the token"}
		case http.StatusForbidden:
			ch, _ := ParseChallenge(resp.Header.Values("WWW-Authenticate"))
			if !ch.InsufficientScope() || sent == "" {
				return resp, nil
			}
			discard(resp)
			if t.SignIn != nil {
				if err := t.signIn(ctx, ch, s, ch.Scope); err != nil {
					return nil, err
				}
				continue
			}
			return nil, s.NeedScopes(ctx, ch.Scope)
		}
		return resp, nil
	}
}

// ErrTooManySignIns: an interactive transport gave up (DefaultMaxSignIns).
var ErrTooManySignIns = errors.New("the server still refuses after signing in; giving up")

func (t *Transport) signIn(ctx context.Context, ch Challenge, s *Session, extra []string) error {
	t.mu.Lock()
	max := t.MaxSignIns
	if max <= 0 {
		max = DefaultMaxSignIns
	}
	if t.signIns >= max {
		t.mu.Unlock()
		return fmt.Errorf("%w (%d sign-ins)", ErrTooManySignIns, max)
	}
	t.signIns++
	t.mu.Unlock()
	var prev *Grant
	if s != nil {
		g := s.Grant()
		prev = &g
	}
	ns, err := t.SignIn(ctx, ch, prev, extra)
	if err != nil {
		return err
	}
	t.mu.Lock()
	t.session = ns
	t.mu.Unlock()
	return nil
}

// maxReplayBytes bounds a request body kept in memory for a retry.
const maxReplayBytes = 256 << 20

// replayable returns a function that yields req's body again.
func replayable(req *http.Request) (func() (io.ReadCloser, error), error) {
	if req.Body == nil || req.Body == http.NoBody {
		return nil, nil
	}
	if req.GetBody != nil {
		return req.GetBody, nil
	}
	b, err := readCapped(req.Body, maxReplayBytes)
	req.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("oauth transport: read the request body: %w", err)
	}
	return func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }, nil
}

func discard(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
}
