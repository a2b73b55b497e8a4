package ui

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// fakeOAuth is a function-field OAuth.
type fakeOAuth struct {
	SignInFunc func(ctx context.Context, req SignInRequest) (SignedIn, error)
}

func (f fakeOAuth) SignIn(ctx context.Context, req SignInRequest) (SignedIn, error) {
	return f.SignInFunc(ctx, req)
}

// waitText waits until l reads as want says (the sign-in runs off the UI
// thread and hands its outcome back through fyne.Do).
func waitText(t *testing.T, w *Window, l interface{ Text() string }, want func(string) bool) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var s string
		onUI(w, func() { s = l.Text() }) // as the window's own fyne.Do calls do (run.go)
		if want(s) || time.Now().After(deadline) {
			return s
		}
		time.Sleep(20 * time.Millisecond)
	}
}

type labelText struct{ v *signInView }

func (l labelText) Text() string { return l.v.status.Text }

// TestSignInDialog: Sign in hands the typed URL, name and client id to
// OAuth, shows the wait while the browser is out, then "Signed in to
// ORIGIN as … with scopes …", and tells the caller the credential's name;
// Cancel ends a sign-in that waits, and says so; a denied one says so.
func TestSignInDialog(t *testing.T) {
	var mu sync.Mutex
	var got SignInRequest
	release := make(chan struct{})
	w := newTestWindow(t, Deps{OAuth: fakeOAuth{SignInFunc: func(ctx context.Context, req SignInRequest) (SignedIn, error) {
		mu.Lock()
		got = req
		mu.Unlock()
		req.Opened("https://as.example/authorize?x")
		select {
		case <-release:
		case <-ctx.Done():
			return SignedIn{}, ctx.Err()
		}
		if strings.Contains(req.URL, "deny") {
			return SignedIn{}, errors.New("sign in: sign-in denied: access_denied")
		}
		return SignedIn{Origin: "https://mcp.example:443", Subject: "ada", Scopes: []string{"tools:read"}}, nil
	}}})
	var named string
	var v *signInView
	fyne.DoAndWait(func() { v = w.showSignInAs("https://mcp.example/mcp", "", SignInMCP, func(n string) { named = n }) })
	if v.name.Text != "mcp.example" {
		t.Errorf("default name %q, want the host", v.name.Text)
	}
	fyne.DoAndWait(func() { v.client.SetText("cid-1"); test.Tap(v.start) })
	if s := waitText(t, w, labelText{v}, func(s string) bool { return strings.Contains(s, "Waiting") }); !strings.Contains(s, "Waiting for the browser") {
		t.Fatalf("status while the browser is out: %q", s)
	}
	close(release)
	s := waitText(t, w, labelText{v}, func(s string) bool { return strings.HasPrefix(s, "✓") })
	if s != "✓ Signed in to https://mcp.example:443 as ada with scopes tools:read." {
		t.Errorf("status after sign-in: %q", s)
	}
	mu.Lock()
	if got.URL != "https://mcp.example/mcp" || got.Name != "mcp.example" || got.Kind != SignInMCP || got.ClientID != "cid-1" {
		t.Errorf("request %+v", got)
	}
	mu.Unlock()
	fyne.DoAndWait(func() {})
	if named != "mcp.example" {
		t.Errorf("signedIn got %q", named)
	}

	// Cancel while waiting.
	release = make(chan struct{})
	fyne.DoAndWait(func() { v = w.showSignInAs("https://mcp.example/mcp", "", SignInMCP, nil) })
	fyne.DoAndWait(func() { test.Tap(v.start) })
	waitText(t, w, labelText{v}, func(s string) bool { return strings.Contains(s, "Waiting") })
	fyne.DoAndWait(func() { test.Tap(v.cancel) })
	if s := waitText(t, w, labelText{v}, func(s string) bool { return strings.Contains(s, "cancel") }); s != "Sign-in cancelled." {
		t.Errorf("after Cancel: %q", s)
	}

	// Denied.
	fyne.DoAndWait(func() { v = w.showSignInAs("https://deny.example/mcp", "", SignInMCP, nil) })
	fyne.DoAndWait(func() { test.Tap(v.start) })
	waitText(t, w, labelText{v}, func(s string) bool { return strings.Contains(s, "Waiting") })
	close(release)
	if s := waitText(t, w, labelText{v}, func(s string) bool { return strings.HasPrefix(s, "✗") }); !strings.Contains(s, "denied at the server") {
		t.Errorf("denied: %q", s)
	}
}
