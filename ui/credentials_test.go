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

// runView performs op and waits until the view finished the async call.
func runView(t *testing.T, v *CredentialsView, op func()) {
	t.Helper()
	done := make(chan struct{}, 1)
	v.done = func() { done <- struct{}{} }
	fyne.DoAndWait(op)
	<-done
}

// TestCredentialsView_W8 adds a bearer and an API key credential, replaces a
// secret and deletes, through the dialog's widgets on a fake keyring.
func TestCredentialsView_W8(t *testing.T) {
	k, mgr := newMemKeyring()
	w := newTestWindow(t, Deps{Credentials: mgr})
	v := w.newCredentialsView()
	runView(t, v, func() { w.reloadCredentials(v) })

	if !v.secret.Password {
		t.Fatal("the secret field is not a password field")
	}
	steps := []struct {
		name    string
		do      func()
		want    []Credential
		secrets map[string]string
		msg     string
	}{
		{"add bearer, origin normalized", func() {
			v.fill(Credential{Name: "demo", Origin: "http://127.0.0.1:41241/path", Kind: "bearer"}, "tok-1")
			v.save()
		}, []Credential{{Name: "demo", Origin: "http://127.0.0.1:41241", Kind: "bearer"}}, map[string]string{"demo": "tok-1"}, `Saved "demo"`},
		{"add api key with header", func() {
			v.clearForm()
			v.fill(Credential{Name: "prod", Origin: "https://agent.example.com", Kind: "apikey", Header: "X-API-Key"}, "key-2")
			v.save()
		}, []Credential{{Name: "demo", Origin: "http://127.0.0.1:41241", Kind: "bearer"}, {Name: "prod", Origin: "https://agent.example.com:443", Kind: "apikey", Header: "X-API-Key"}},
			map[string]string{"demo": "tok-1", "prod": "key-2"}, `Saved "prod"`},
		{"replace a secret", func() {
			v.list.Select(0)
			v.secret.SetText("tok-3")
			v.save()
		}, []Credential{{Name: "demo", Origin: "http://127.0.0.1:41241", Kind: "bearer"}, {Name: "prod", Origin: "https://agent.example.com:443", Kind: "apikey", Header: "X-API-Key"}},
			map[string]string{"demo": "tok-3", "prod": "key-2"}, `Saved "demo"`},
		{"delete", func() { v.OnDelete("prod") },
			[]Credential{{Name: "demo", Origin: "http://127.0.0.1:41241", Kind: "bearer"}}, map[string]string{"demo": "tok-3"}, `Deleted "prod"`},
		{"api key without header is refused", func() {
			v.clearForm()
			v.fill(Credential{Name: "x", Origin: "https://a.example", Kind: "apikey"}, "s")
			v.save()
		}, []Credential{{Name: "demo", Origin: "http://127.0.0.1:41241", Kind: "bearer"}}, map[string]string{"demo": "tok-3"}, "header name"},
		{"plain http to another machine is refused when saved", func() {
			v.clearForm()
			v.fill(Credential{Name: "lan", Origin: "http://192.168.1.20:8080", Kind: "bearer"}, "s")
			v.save()
		}, []Credential{{Name: "demo", Origin: "http://127.0.0.1:41241", Kind: "bearer"}}, map[string]string{"demo": "tok-3"}, "plain http only to a loopback address"},
		{"plain http to localhost is kept", func() {
			v.clearForm()
			v.fill(Credential{Name: "local", Origin: "http://localhost:9000", Kind: "bearer"}, "s2")
			v.save()
		}, []Credential{{Name: "demo", Origin: "http://127.0.0.1:41241", Kind: "bearer"}, {Name: "local", Origin: "http://localhost:9000", Kind: "bearer"}},
			map[string]string{"demo": "tok-3", "local": "s2"}, `Saved "local"`},
		// The dialog once turned [::1] into ::1, which the store refused.
		{"plain http to [::1] keeps its brackets", func() {
			v.clearForm()
			v.fill(Credential{Name: "v6", Origin: "http://[::1]:8080", Kind: "bearer"}, "s3")
			v.save()
		}, []Credential{{Name: "demo", Origin: "http://127.0.0.1:41241", Kind: "bearer"}, {Name: "local", Origin: "http://localhost:9000", Kind: "bearer"}, {Name: "v6", Origin: "http://[::1]:8080", Kind: "bearer"}},
			map[string]string{"demo": "tok-3", "local": "s2", "v6": "s3"}, `Saved "v6"`},
	}
	for _, s := range steps {
		runView(t, v, s.do)
		var got []Credential
		var m, secretField string
		fyne.DoAndWait(func() { got, m, secretField = v.creds, v.msg.Text, v.secret.Text })
		if diff := cmp.Diff(s.want, got); diff != "" {
			t.Errorf("%s: listed (-want +got):\n%s", s.name, diff)
		}
		k.mu.Lock()
		if diff := cmp.Diff(s.secrets, k.secrets); diff != "" {
			t.Errorf("%s: keyring secrets (-want +got):\n%s", s.name, diff)
		}
		k.mu.Unlock()
		if !strings.Contains(m, s.msg) {
			t.Errorf("%s: message %q, want it to contain %q", s.name, m, s.msg)
		}
		if strings.HasPrefix(m, "Saved") && secretField != "" {
			t.Errorf("%s: the secret stays in the form after saving", s.name)
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
		v.fill(Credential{Name: "demo", Origin: "http://127.0.0.1:1", Kind: "bearer"}, "tok")
		v.save()
	})
	var m string
	fyne.DoAndWait(func() { m = v.msg.Text })
	if !strings.HasPrefix(m, "No OS keyring is available") {
		t.Errorf("message %q does not say plainly that there is no keyring", m)
	}
}

// TestCredentialsView_DeleteAfterSave: a credential just saved is the one
// selected, so Delete is enabled at once (it stayed disabled, issue 40),
// and the form replaces its secret instead of adding another.
func TestCredentialsView_DeleteAfterSave(t *testing.T) {
	_, mgr := newMemKeyring()
	w := newTestWindow(t, Deps{Credentials: mgr})
	v := w.newCredentialsView()
	runView(t, v, func() { w.reloadCredentials(v) })
	runView(t, v, func() {
		v.fill(Credential{Name: "demo", Origin: "http://127.0.0.1:41241", Kind: "bearer"}, "tok-1")
		v.save()
	})
	var del bool
	var save, msg string
	fyne.DoAndWait(func() { del, save, msg = !v.delB.Disabled(), v.saveB.Text, v.msg.Text })
	if !del {
		t.Error("Delete is disabled after saving a credential")
	}
	if save != "Replace secret" || !strings.Contains(msg, `Saved "demo"`) {
		t.Errorf("after saving: button %q, message %q; want Replace secret and the saved message", save, msg)
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
		onUI(w, func() { ok = w.credView != nil && strings.HasPrefix(w.credView.msg.Text, "No OS keyring is available") })
		return ok
	})
	if saved != 0 {
		t.Errorf("%d saves before Save was pressed", saved)
	}
}
