package desktop

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"testing"
	"time"

	"workrun/serve"
	"workrun/serve/a2aserve"
	"workrun/store"
	"workrun/ui"
	"workrun/workrun"
)

// TestPublishDeps: the window's Publish dialog is wired to serve's rules —
// the URL it shows for an address and a name is the one a2aserve serves
// the publication at, its server check reads that URL's card, an address
// without a fixed port is refused with ui.ErrServeAddr, and a run a caller
// started is found with the caller's label (a person's run: none).
func TestPublishDeps(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var d ui.Deps
	publishDeps(&d, st)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	wf := workrun.Workflow{Name: "Greeter", State: map[string]workrun.FieldType{"name": "text"},
		Publish: &workrun.Publish{Name: "Greeter Bot", Inputs: []string{"name"}}}
	pub, err := serve.NewPublication(serve.Slug(wf.Publish.Name), "", wf)
	if err != nil {
		t.Fatal(err)
	}
	core, err := serve.New(workrun.NewEngine(st, nil), st, []serve.Publication{pub})
	if err != nil {
		t.Fatal(err)
	}
	front := a2aserve.New(core, a2aserve.Options{BaseURL: (&url.URL{Scheme: "http", Host: addr}).String()})
	srv := &http.Server{Handler: front.Handler(), ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln) //nolint:errcheck // ends with Close
	defer srv.Close()

	u, err := d.AgentURL(addr, "Greeter Bot")
	if err != nil || u != front.URL(pub.ID) {
		t.Fatalf("AgentURL = %q, %v; the server serves it at %q", u, err, front.URL(pub.ID))
	}
	name, err := d.ServeStatus(ctx, u)
	if err != nil || name != "Greeter Bot" {
		t.Errorf("ServeStatus(%s) = %q, %v; want the card's name", u, name, err)
	}
	if _, err := d.ServeStatus(ctx, u+"-other"); err == nil {
		t.Errorf("ServeStatus found an agent at a path nothing serves")
	}
	for _, bad := range []string{"127.0.0.1", "127.0.0.1:0", "nonsense"} {
		if _, err := d.AgentURL(bad, "x"); !errors.Is(err, ui.ErrServeAddr) {
			t.Errorf("AgentURL(%q) = %v, want ui.ErrServeAddr", bad, err)
		}
	}
	if u, _ := d.AgentURL("192.0.2.1:8443", "x"); u != "https://192.0.2.1:8443/a2a/x" {
		t.Errorf("a non-loopback address: %q, want https (serve needs TLS there)", u)
	}
	if _, ok, err := d.ServedCaller(ctx, "no-such-run"); ok || err != nil {
		t.Errorf("a run no caller started: ok %v err %v", ok, err)
	}
}
