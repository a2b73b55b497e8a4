package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"github.com/google/go-cmp/cmp"

	"workrun/ui/credentials"
)

// memKeyring is a fake keyring behind fakeCreds: names and origins listed,
// secrets kept apart (the view must never read them back).
type memKeyring struct {
	mu      sync.Mutex
	creds   map[string]Credential
	secrets map[string]string
}

func newMemKeyring() (*memKeyring, *fakeCreds) {
	k := &memKeyring{creds: map[string]Credential{}, secrets: map[string]string{}}
	return k, &fakeCreds{
		ListFunc: func(context.Context) ([]Credential, error) {
			k.mu.Lock()
			defer k.mu.Unlock()
			var out []Credential
			for _, n := range sortedKeys(k.names()) {
				out = append(out, k.creds[n])
			}
			return out, nil
		},
		SetFunc: func(_ context.Context, c Credential, s string) error {
			k.mu.Lock()
			defer k.mu.Unlock()
			k.creds[c.Name], k.secrets[c.Name] = c, s
			return nil
		},
		DeleteFunc: func(_ context.Context, n string) error {
			k.mu.Lock()
			defer k.mu.Unlock()
			delete(k.creds, n)
			delete(k.secrets, n)
			return nil
		},
	}
}

func (k *memKeyring) names() map[string]string {
	m := map[string]string{}
	for n := range k.creds {
		m[n] = n
	}
	return m
}

// runView performs op and waits until the view's operation ended (the
// keyring is called off the UI thread).
func runView(t *testing.T, v *credentials.View, op func()) {
	t.Helper()
	done := make(chan struct{}, 1)
	v.OnFinished = func() { done <- struct{}{} }
	fyne.DoAndWait(op)
	<-done
}

// TestCredentials_AppSavesAndDeletesInTheKeyring: the dialog's Save and
// Delete reach the keyring off the UI thread and the view then lists what
// the keyring holds, saying what happened; the secret goes only to the
// keyring.
func TestCredentials_AppSavesAndDeletesInTheKeyring(t *testing.T) {
	k, mgr := newMemKeyring()
	w := newTestWindow(t, Deps{Credentials: mgr})
	v := w.newCredentialsView()
	runView(t, v, func() { w.reloadCredentials(v) })
	c := Credential{Name: "demo", Origin: "http://127.0.0.1:41241", Kind: credentials.SchemeBearer}
	runView(t, v, func() { v.OnSave(c, "tok-1") })
	var m string
	fyne.DoAndWait(func() { m = v.Message() })
	k.mu.Lock()
	if diff := cmp.Diff(map[string]string{"demo": "tok-1"}, k.secrets); diff != "" {
		t.Errorf("keyring secrets after Save (-want +got):\n%s", diff)
	}
	k.mu.Unlock()
	if !strings.Contains(m, `Saved "demo"`) || strings.Contains(m, "tok-1") {
		t.Errorf("message after Save %q, want Saved \"demo\" and no secret", m)
	}
	runView(t, v, func() { v.OnDelete("demo") })
	fyne.DoAndWait(func() { m = v.Message() })
	k.mu.Lock()
	if len(k.secrets) != 0 {
		t.Errorf("keyring keeps %v after Delete", k.secrets)
	}
	k.mu.Unlock()
	if !strings.Contains(m, `Deleted "demo"`) {
		t.Errorf("message after Delete %q", m)
	}
}

// TestCredentials_RefusedOriginInWindowLanguage: an origin the remote layer
// refuses with its own sentence reads in the window's language (Chinese
// too), not as an internal error.
func TestCredentials_RefusedOriginInWindowLanguage(t *testing.T) {
	w := newTestWindow(t, Deps{Credentials: &fakeCreds{ListFunc: func(context.Context) ([]Credential, error) { return nil, nil }}})
	t.Cleanup(func() { SetupLanguage("en") })
	for _, lang := range []string{"en", "zh-Hans"} {
		w.SetLanguage(lang)
		var err error
		onUI(w, func() { _, err = w.newCredentialsView().CheckOrigin("http://192.168.1.20:8080") })
		if err == nil {
			t.Fatalf("%s: plain http to another machine was accepted", lang)
		}
		if zh := strings.ContainsFunc(err.Error(), func(r rune) bool { return r >= 0x4e00 && r <= 0x9fff }); zh != (lang == "zh-Hans") {
			t.Errorf("%s: refusal %q is not in the window's language", lang, err)
		}
	}
}

// TestCredentialsView_NoKeyring says plainly that there is no keyring.
func TestCredentialsView_NoKeyring(t *testing.T) {
	mgr := &fakeCreds{
		ListFunc: func(context.Context) ([]Credential, error) { return nil, nil },
		SetFunc: func(context.Context, Credential, string) error {
			return fmt.Errorf("keyring set: %w", errors.Join(ErrNoKeyring, errors.New("dbus: no session bus")))
		},
	}
	w := newTestWindow(t, Deps{Credentials: mgr})
	v := w.newCredentialsView()
	runView(t, v, func() {
		v.OnSave(Credential{Name: "demo", Origin: "http://127.0.0.1:1", Kind: credentials.SchemeBearer}, "tok")
	})
	var m string
	fyne.DoAndWait(func() { m = v.Message() })
	if !strings.HasPrefix(m, "No OS keyring is available") {
		t.Errorf("message %q does not say plainly that there is no keyring", m)
	}
}

// TestCredentials_SaysNoKeyringOnOpen: without an OS keyring the
// credentials dialog says so as it opens, before the person types a
// secret and presses Save (it said so only after Save, issue 40).
func TestCredentials_SaysNoKeyringOnOpen(t *testing.T) {
	saved := 0
	mgr := &fakeCreds{
		ListFunc: func(context.Context) ([]Credential, error) { return nil, nil },
		SetFunc:  func(context.Context, Credential, string) error { saved++; return nil },
	}
	noKeyring := func() error { return fmt.Errorf("keyring: %w", ErrNoKeyring) }
	w := newTestWindow(t, Deps{Credentials: mgr, About: AboutInfo{CheckKeyring: noKeyring}})
	onUI(w, w.showCredentials)
	waitFor(t, "the dialog says there is no keyring", func() (ok bool) {
		onUI(w, func() {
			ok = w.credView != nil && strings.HasPrefix(w.credView.Message(), "No OS keyring is available")
		})
		return ok
	})
	if saved != 0 {
		t.Errorf("%d saves before Save was pressed", saved)
	}
}
