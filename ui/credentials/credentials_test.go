package credentials

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"github.com/google/go-cmp/cmp"

	"workrun/remotecall"
	"workrun/workrun"
)

// english is the catalogue's fallback: every label in English.
type english struct{}

func (english) X(_, fallback string) string { return fallback }

// keyring stands in for the app layer over an OS keyring: it answers the
// view's events at once, as the app layer does once its keyring call
// returned (SetList/Saved/Deleted, then Finished). Secrets are kept apart
// from the list the view is given.
type keyring struct {
	creds   map[string]Credential
	secrets map[string]string
}

func (k *keyring) list() []Credential {
	var out []Credential
	for _, n := range slices.Sorted(maps.Keys(k.creds)) {
		out = append(out, k.creds[n])
	}
	return out
}

// newView builds the view with its events wired to k, and the origin
// check wired as the app layer wires it (the remote layer's rule, its
// worded errors in English).
func newView(t *testing.T) (*View, *keyring) {
	t.Helper()
	a := test.NewTempApp(t)
	k := &keyring{creds: map[string]Credential{}, secrets: map[string]string{}}
	v := New(a.NewWindow("credentials"), english{})
	v.CheckOrigin = func(raw string) (string, error) {
		o, err := remotecall.CheckCredentialOrigin(raw)
		var te *workrun.TextError
		if errors.As(err, &te) {
			return "", errors.New(te.Text.In("en"))
		}
		return o, err
	}
	v.OnSave = func(c Credential, secret string) {
		k.creds[c.Name], k.secrets[c.Name] = c, secret
		v.Saved(c.Name, k.list())
		v.Finished()
	}
	v.OnDelete = func(name string) {
		delete(k.creds, name)
		delete(k.secrets, name)
		v.Deleted(name, k.list())
		v.Finished()
	}
	v.SetList(k.list())
	return v, k
}

// TestCredentialsView_W8 adds a bearer and an API key credential, replaces a
// secret and deletes, through the view's widgets.
func TestCredentialsView_W8(t *testing.T) {
	v, k := newView(t)
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
		finished := 0
		v.OnFinished = func() { finished++ }
		s.do()
		if finished != 1 {
			t.Errorf("%s: the operation finished %d times, want once", s.name, finished)
		}
		if diff := cmp.Diff(s.want, v.creds); diff != "" {
			t.Errorf("%s: listed (-want +got):\n%s", s.name, diff)
		}
		if diff := cmp.Diff(s.secrets, k.secrets); diff != "" {
			t.Errorf("%s: keyring secrets (-want +got):\n%s", s.name, diff)
		}
		if m := v.Message(); !strings.Contains(m, s.msg) {
			t.Errorf("%s: message %q, want it to contain %q", s.name, m, s.msg)
		}
		if strings.HasPrefix(v.Message(), "Saved") && v.secret.Text != "" {
			t.Errorf("%s: the secret stays in the form after saving", s.name)
		}
	}
}

// TestCredentialsView_DeleteAfterSave: a credential just saved is the one
// selected, so Delete is enabled at once (it stayed disabled, issue 40),
// and the form replaces its secret instead of adding another.
func TestCredentialsView_DeleteAfterSave(t *testing.T) {
	v, _ := newView(t)
	v.fill(Credential{Name: "demo", Origin: "http://127.0.0.1:41241", Kind: "bearer"}, "tok-1")
	v.save()
	if v.delB.Disabled() {
		t.Error("Delete is disabled after saving a credential")
	}
	if save, msg := v.saveB.Text, v.Message(); save != "Replace secret" || !strings.Contains(msg, `Saved "demo"`) {
		t.Errorf("after saving: button %q, message %q; want Replace secret and the saved message", save, msg)
	}
}

// TestCredentialsView_OAuthIsSignedOutNotReplaced: an OAuth credential
// has no secret to type; its Delete reads Sign out and its row names its
// scopes.
func TestCredentialsView_OAuthIsSignedOutNotReplaced(t *testing.T) {
	v, _ := newView(t)
	v.SetList([]Credential{{Name: "gh", Origin: "https://api.example.com:443", Kind: SchemeOAuth, Scopes: []string{"read", "write"}}})
	v.list.Select(0)
	if !v.secret.Disabled() || !v.saveB.Disabled() || v.delB.Text != "Sign out" {
		t.Errorf("OAuth credential picked: secret disabled %v, save disabled %v, delete %q; want true, true, Sign out", v.secret.Disabled(), v.saveB.Disabled(), v.delB.Text)
	}
	if m := v.Message(); !strings.Contains(m, "scopes read write") {
		t.Errorf("message %q does not name the scopes", m)
	}
}
