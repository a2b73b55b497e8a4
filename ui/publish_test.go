package ui

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"workrun/artifacts"
	"workrun/nodes/output"
	"workrun/nodes/remoteagent"
	"workrun/nodes/set"
	"workrun/nodes/start"
	"workrun/serve"
	"workrun/serve/a2aserve"
	"workrun/store"
	"workrun/ui/records"
	"workrun/workrun"
)

const greeterJSON = `{"name":"Greeter","state":{"name":"text","message":"text","count":"number"},
	"nodes":[{"id":"start","type":"start","position":{"x":0,"y":0}},
	  {"id":"hi","type":"set","position":{"x":200,"y":0},"config":{"values":{"message":"hello {{name}}"}}},
	  {"id":"end","type":"output","config":{"fields":["message"]},"position":{"x":400,"y":0}}],
	"edges":[{"from":"start","to":"hi"},{"from":"hi","to":"end"}]}`

// menuAction finds a main-menu item by its label.
func menuAction(t *testing.T, w *Window, menu, label string) func() {
	t.Helper()
	for _, m := range w.win.MainMenu().Items {
		if m.Label != menu {
			continue
		}
		for _, it := range m.Items {
			if it.Label == label {
				return it.Action
			}
		}
	}
	t.Fatalf("no menu item %s → %s", menu, label)
	return nil
}

// openOnlyWorkflow lists the store's one workflow and opens it.
func openOnlyWorkflow(t *testing.T, w *Window, id string) {
	t.Helper()
	onUI(w, func() { w.reloadList("") })
	waitFor(t, "the workflow is listed", func() (ok bool) {
		onUI(w, func() { ok = len(w.recs) == 1 })
		return ok
	})
	onUI(w, func() { w.list.Select(0) })
	waitFor(t, "the workflow opens", func() (ok bool) {
		onUI(w, func() { ok = w.wfID == id })
		return ok
	})
}

// freeAddr is a loopback address with a port no one listens on now.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// TestPublish_DialogPublishesAndSeesTheServer drives Workflow → Publish as
// agent… on a real store: the settings typed are saved in the workflow
// (what `workrun serve` reads); before a server runs the dialog says it is
// not running, once a real A2A server (serve + a2aserve, as `workrun serve`
// builds them) serves the saved workflow at the address it names, the
// dialog finds its card by the URL it shows, Copy puts that URL on the
// clipboard, and a run a caller starts through the server is marked with
// the caller's label in Run records and in its record window.
func TestPublish_DialogPublishesAndSeesTheServer(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, err := store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	arts, err := artifacts.New(dir, st)
	if err != nil {
		t.Fatal(err)
	}
	eng := workrun.NewEngine(st, arts, start.Kind{}, set.Kind{}, output.Kind{})
	t.Cleanup(func() { eng.Close(context.WithoutCancel(ctx)) })
	wf, err := workrun.DecodeWorkflow([]byte(greeterJSON))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := st.SaveWorkflow(ctx, "", wf)
	if err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	base := (&url.URL{Scheme: "http", Host: addr}).String()
	w := newTestWindow(t, Deps{Engine: eng, Runs: st, Workflows: st, Artifacts: arts,
		// The URL as a2aserve makes it for the publication id serve gives
		// the name (main.go's agentURL is checked against it in the root).
		AgentURL: func(a, name string) (string, error) {
			return (&url.URL{Scheme: "http", Host: a}).String() + a2aserve.PathPrefix + serve.Slug(name), nil
		},
		ServeStatus: func(ctx context.Context, u string) (string, error) {
			r, err := remoteagent.CheckAgent(ctx, u, nil)
			return r.Name, err
		},
		ServedCaller: func(ctx context.Context, runID string) (string, bool, error) {
			task, err := st.ServedTaskForRun(ctx, runID)
			if errors.Is(err, workrun.ErrNotFound) {
				return "", false, nil
			}
			return task.Caller, err == nil, err
		},
	})
	openOnlyWorkflow(t, w, rec.ID)

	// Open the dialog from the menu; it starts unpublished.
	onUI(w, menuAction(t, w, "Workflow", "Publish as agent…"))
	var v *PublishView
	onUI(w, func() { v = w.publish })
	if v == nil || w.win.Canvas().Overlays().Top() == nil {
		t.Fatal("Publish as agent… opened no dialog")
	}
	onUI(w, func() {
		if v.on.Checked || !v.name.Disabled() {
			t.Errorf("an unpublished workflow: publish %v, name enabled %v; want off and disabled", v.on.Checked, !v.name.Disabled())
		}
		if !slices.Equal(v.inputs.Options, []string{"count", "message", "name"}) {
			t.Errorf("input choices %v, want the State fields", v.inputs.Options)
		}
		test.Tap(v.on)
		test.Type(v.name, "Greeter Bot")
		test.Type(v.desc, "Greets whoever you name.")
		v.inputs.SetSelected([]string{"name"})
		v.outputs.SetSelected([]string{"message"})
		v.addr.SetText(addr)
	})
	wantURL := base + "/a2a/greeter-bot"
	statusText := func() (s string) { onUI(w, func() { s = v.status.Text }); return s }
	onUI(w, func() {
		if v.url.Text != wantURL {
			t.Errorf("agent URL %q, want %q", v.url.Text, wantURL)
		}
		if !strings.Contains(v.cmd.Text, "workrun serve --addr "+addr) {
			t.Errorf("command %q does not name the address", v.cmd.Text)
		}
		test.Tap(v.checkB)
	})
	waitFor(t, "the dialog says no server runs", func() bool { return strings.HasPrefix(statusText(), "not running here") })

	onUI(w, func() { tapButton(t, w.win.Canvas().Overlays().Top(), "Save") })
	got, err := st.GetWorkflow(ctx, rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := workrun.Publish{Name: "Greeter Bot", Description: "Greets whoever you name.", Inputs: []string{"name"}, Outputs: []string{"message"}}
	if p := got.Workflow.Publish; p == nil || p.Name != want.Name || p.Description != want.Description ||
		!slices.Equal(p.Inputs, want.Inputs) || !slices.Equal(p.Outputs, want.Outputs) || p.TextInput != "" {
		t.Fatalf("saved publish settings %+v, want %+v", got.Workflow.Publish, want)
	}
	if w.app.Preferences().String(prefServeAddr) != addr {
		t.Errorf("the address typed was not kept: %q", w.app.Preferences().String(prefServeAddr))
	}

	// A server as `workrun serve` builds it, on the saved workflow.
	pub, err := serve.NewPublication(serve.Slug(got.Workflow.Publish.Name), rec.ID, got.Workflow)
	if err != nil {
		t.Fatal(err)
	}
	core, err := serve.New(eng, st, []serve.Publication{pub})
	if err != nil {
		t.Fatal(err)
	}
	front := a2aserve.New(core, a2aserve.Options{BaseURL: base, Artifacts: arts, Version: "test"})
	if front.URL(pub.ID) != wantURL {
		t.Fatalf("the server serves at %s, the dialog showed %s", front.URL(pub.ID), wantURL)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: front.Handler(), ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln) //nolint:errcheck // ends with Close
	t.Cleanup(func() { srv.Close() })

	// Opened again: the settings show, and the server is found.
	onUI(w, menuAction(t, w, "Workflow", "Publish as agent…"))
	onUI(w, func() { v = w.publish })
	onUI(w, func() {
		if !v.on.Checked || v.name.Text != "Greeter Bot" || !slices.Equal(v.outputs.Selected, []string{"message"}) || v.addr.Text != addr {
			t.Errorf("reopened: on %v name %q outputs %v addr %q; want the saved settings", v.on.Checked, v.name.Text, v.outputs.Selected, v.addr.Text)
		}
	})
	waitFor(t, "the dialog finds the server", func() bool {
		return statusText() == `running: the agent "Greeter Bot" answers at this URL`
	})
	onUI(w, func() {
		test.Tap(v.copyB)
		if c := fyne.CurrentApp().Clipboard().Content(); c != wantURL {
			t.Errorf("Copy put %q on the clipboard, want %q", c, wantURL)
		}
		tapButton(t, w.win.Canvas().Overlays().Top(), "Cancel")
	})

	// A caller's run is marked with the caller's label.
	task, _, err := core.Start(ctx, serve.StartRequest{Caller: "ci-bot", Publication: pub.ID, Key: "m1",
		Inputs: workrun.Values{"name": "Ada"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := core.Wait(ctx, "ci-bot", task.ID); err != nil {
		t.Fatal(err)
	}
	onUI(w, func() {
		w.rs.recordsRead = nil
		w.records.Reload()
	})
	row := func() (s string) {
		onUI(w, func() {
			if len(w.records.Runs()) > 0 {
				s = w.records.Cells(0)[records.ColWorkflow]
			}
		})
		return s
	}
	waitFor(t, "Run records list the caller's run", func() bool { return row() != "" })
	if r := row(); r != "Greeter · called by ci-bot" {
		t.Errorf("the caller's run is listed as %q, want it marked 'called by ci-bot'", r)
	}
	var runs []workrun.Run
	onUI(w, func() { runs = w.records.Runs() })
	record, err := w.readRecord(ctx, runs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	var win fyne.Window
	onUI(w, func() { win = w.showRecord(record) })
	t.Cleanup(win.Close)
	if !strings.HasSuffix(win.Title(), "· called by ci-bot") {
		t.Errorf("the record window is titled %q, want the caller in it", win.Title())
	}
	var header string
	// On the UI thread: the window's own work (a records reload) lays out
	// widgets there too.
	onUI(w, func() {
		for _, o := range test.LaidOutObjects(win.Content()) {
			if l, ok := o.(*widget.Label); ok && strings.HasPrefix(l.Text, "Greeter · ") {
				header = l.Text
			}
		}
	})
	if !strings.HasSuffix(header, "· called by ci-bot") {
		t.Errorf("the record's run panel header is %q, want the caller in it", header)
	}
}

// TestPublish_ServeFromThisWindow: the dialog offers "Serve from this
// window" when the window can serve (Deps.ServeHere); ticking it and
// saving serves at the address typed, says so in the status bar and, when
// the dialog is opened again, lists the server's lines; an address in use
// is said in the window's words (is `workrun serve` already running
// there?), and unticking stops serving ("" to ServeHere). The choice is
// kept in the preferences, so a restart serves again (Run's start-up).
func TestPublish_ServeFromThisWindow(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, err := store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	wf, err := workrun.DecodeWorkflow([]byte(greeterJSON))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := st.SaveWorkflow(ctx, "", wf)
	if err != nil {
		t.Fatal(err)
	}
	type call struct{ addr string }
	calls := make(chan call, 10)
	var failMu sync.Mutex
	var fail error
	setFail := func(err error) { failMu.Lock(); fail = err; failMu.Unlock() }
	w := newTestWindow(t, Deps{Workflows: st,
		AgentURL: func(a, name string) (string, error) {
			return "http://" + a + a2aserve.PathPrefix + serve.Slug(name), nil
		},
		ServeHere: func(_ context.Context, addr string) ([]string, error) {
			calls <- call{addr}
			failMu.Lock()
			err := fail
			failMu.Unlock()
			if err != nil || addr == "" {
				return nil, err
			}
			return []string{"a2a http://" + addr + "/a2a/greeter", "mcp http://" + addr + "/mcp"}, nil
		},
	})
	openOnlyWorkflow(t, w, rec.ID)
	next := func(what string) call {
		t.Helper()
		select {
		case c := <-calls:
			return c
		case <-time.After(10 * time.Second):
			t.Fatalf("ServeHere was not called: %s", what)
		}
		return call{}
	}
	addr := freeAddr(t)
	var v *PublishView
	open := func() {
		onUI(w, menuAction(t, w, "Workflow", "Publish as agent…"))
		onUI(w, func() { v = w.publish })
	}
	open()
	onUI(w, func() {
		if !v.here.Visible() || v.here.Checked {
			t.Errorf("Serve from this window: shown %v ticked %v; want shown, not ticked", v.here.Visible(), v.here.Checked)
		}
		test.Tap(v.on)
		v.addr.SetText(addr)
		test.Tap(v.here)
		tapButton(t, w.win.Canvas().Overlays().Top(), "Save")
	})
	if c := next("after Save with the box ticked"); c.addr != addr {
		t.Fatalf("served at %q, want %q", c.addr, addr)
	}
	waitFor(t, "the status bar says the window serves", func() (ok bool) {
		onUI(w, func() { ok = strings.HasSuffix(w.status.Text, "Serving published workflows at "+addr) }) // after the time
		return ok
	})
	if !w.app.Preferences().Bool(prefServeHere) {
		t.Error("the choice was not kept in the preferences")
	}
	open()
	onUI(w, func() {
		if !v.here.Checked || !strings.Contains(v.hereMsg.Text, "a2a http://"+addr+"/a2a/greeter") || v.hereMsg.Hidden {
			t.Errorf("reopened: ticked %v, says %q; want ticked and the server's lines", v.here.Checked, v.hereMsg.Text)
		}
		tapButton(t, w.win.Canvas().Overlays().Top(), "Cancel")
	})

	// Another address, taken: said in the window's words.
	setFail(&net.OpError{Op: "listen", Net: "tcp", Err: os.NewSyscallError("bind", syscall.EADDRINUSE)})
	other := freeAddr(t)
	open()
	onUI(w, func() {
		v.addr.SetText(other)
		tapButton(t, w.win.Canvas().Overlays().Top(), "Save")
	})
	if c := next("after Save with another address"); c.addr != other {
		t.Fatalf("served at %q, want %q", c.addr, other)
	}
	inUse := "This window could not serve at " + other + ": the address is in use"
	waitFor(t, "the status bar says the address is in use", func() (ok bool) {
		onUI(w, func() { ok = strings.Contains(w.status.Text, inUse) })
		return ok
	})

	// Unticked: serving stops.
	setFail(nil)
	open()
	onUI(w, func() {
		if !strings.HasPrefix(v.hereMsg.Text, inUse) {
			t.Errorf("reopened after the failure: %q", v.hereMsg.Text)
		}
		test.Tap(v.here)
		tapButton(t, w.win.Canvas().Overlays().Top(), "Save")
	})
	if c := next("after Save with the box unticked"); c.addr != "" {
		t.Fatalf("unticked: ServeHere(%q), want \"\" (stop)", c.addr)
	}
}
