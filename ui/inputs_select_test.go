package ui

import (
	"slices"
	"time"

	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

// TestRunInputs_LastValueSelected: the Run dialog prefills the last run's
// value selected, so what is typed replaces it instead of gluing onto it.
func TestRunInputs_LastValueSelected(t *testing.T) {
	w := newTestWindow(t, Deps{Engine: &fakeEngine{}})
	wf := workrun.Workflow{Name: "Ask", State: map[string]workrun.FieldType{"question": workrun.FieldText}}
	onUI(w, func() { w.showInputs(wf, workrun.Values{"question": "echo old question"}) })
	e, ok := w.win.Canvas().Focused().(*widget.Entry)
	if !ok {
		t.Fatalf("focused %T, want the question's entry", w.win.Canvas().Focused())
	}
	if e.SelectedText() != "echo old question" {
		t.Fatalf("selected %q, want the whole last value", e.SelectedText())
	}
	test.Type(e, "new")
	if e.Text != "new" {
		t.Errorf("after typing the field holds %q, want %q", e.Text, "new")
	}
}

// TestInspector_CredentialAddedInSettingsShowsAtOnce: a credential saved in
// Settings → Credentials appears in the open node's picker without
// selecting the node again, and the picker's first entry says "No
// authentication" rather than being blank.
func TestInspector_CredentialAddedInSettingsShowsAtOnce(t *testing.T) {
	_, creds := newMemKeyring()
	w := newTestWindow(t, Deps{Engine: &fakeEngine{}, Credentials: creds})
	onUI(w, func() {
		w.OpenWorkflow("", SampleRemote(langNow(), "https://agent.example.com"))
		w.doc.Select("ask", false)
		w.insp.Show()
	})
	picker := func() []string {
		var opts []string
		onUI(w, func() {
			if s, ok := w.insp.Widget("credential").(*widget.Select); ok {
				opts = append([]string(nil), s.Options...)
			}
		})
		return opts
	}
	waitFor(t, "the picker lists No authentication first", func() bool {
		o := picker()
		return len(o) > 0 && o[0] == "No authentication"
	})
	onUI(w, func() {
		v := w.newCredentialsView()
		v.OnSave(Credential{Name: "prod", Origin: "https://agent.example.com:443", Kind: "bearer"}, "s3cret")
	})
	waitFor(t, "the saved credential appears in the open node's picker", func() bool {
		return slices.Contains(picker(), "prod")
	})
}

// TestInspector_CredentialListsAnsweredOutOfOrder: the picker's lists are
// read off the UI thread; when an older list (read before a credential was
// saved) answers after a newer one, the picker keeps the newer one.
func TestInspector_CredentialListsAnsweredOutOfOrder(t *testing.T) {
	_, creds := newMemKeyring()
	w := newTestWindow(t, Deps{Engine: &fakeEngine{}, Credentials: creds})
	var asked []func([]Credential, error)
	var opts []string
	onUI(w, func() {
		w.insp.OnCredentials = func(show func([]Credential, error)) { asked = append(asked, show) }
		w.OpenWorkflow("", SampleRemote(langNow(), "https://agent.example.com"))
		w.doc.Select("ask", false)
		w.insp.Show()
		if len(asked) == 0 {
			t.Fatal("the open node's picker asked for no credential list")
		}
		w.insp.RefreshCredentials() // as after a save in Settings → Credentials
		latest := asked[len(asked)-1]
		latest([]Credential{{Name: "prod", Origin: "https://agent.example.com:443", Kind: "bearer"}}, nil)
		for _, older := range asked[:len(asked)-1] {
			older(nil, nil)
		}
		opts = append(opts, w.insp.Widget("credential").(*widget.Select).Options...)
	})
	if want := []string{"No authentication", "prod"}; !slices.Equal(opts, want) {
		t.Errorf("picker %q, want %q: an older list answering late replaced the newer one", opts, want)
	}
}

// waitFor polls cond until it holds, failing after a generous deadline.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
