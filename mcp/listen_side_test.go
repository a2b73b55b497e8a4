package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"workrun/mcp"
)

// arrivals records, in order, what a fake server received: "GET" for the
// side stream, the method name for a POST.
type arrivals struct {
	mu   sync.Mutex
	list []string
}

func (a *arrivals) add(s string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.list = append(a.list, s)
}

func (a *arrivals) get() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.list...)
}

// TestListenGetGoesFirst: the legacy GET stream is in place at the server
// before the call that follows Listen (a server such as the TypeScript
// SDK's drops a request of its own made during the call when it has no GET
// stream yet; a GET request merely written is not enough, the server may
// take the call first): the server's handler has registered the stream
// before tools/call arrives, every time (docs/remote-mcp.md M15 "Side
// streams never gate").
func TestListenGetGoesFirst(t *testing.T) {
	for round := range 20 {
		var seen arrivals
		f := &fakeServer{Handle: func(w http.ResponseWriter, r *http.Request, method string, _, _ json.RawMessage) bool {
			switch {
			case r.Method == http.MethodGet:
				seen.add("GET")
				w.Header().Set("Content-Type", "text/event-stream")
				w.WriteHeader(http.StatusOK)
				w.(http.Flusher).Flush()
				<-r.Context().Done()
				return true
			case method == "tools/call":
				seen.add(method)
			}
			return false
		}}
		url := f.start(t)
		c := newClient(t, url, mcp.Options{})
		ctx, cancel := context.WithCancel(t.Context())
		start := time.Now()
		if err := c.Listen(ctx, nil, nil); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("round %d: Listen took %v with a server that answers the GET at once", round, d)
		}
		res, err := c.CallTool(t.Context(), mcp.CallParams{Name: "t"})
		cancel()
		if err != nil || res.Result.Text() != "ok" {
			t.Fatalf("round %d: call: %+v, %v", round, res, err)
		}
		if got := seen.get(); len(got) != 2 || got[0] != "GET" || got[1] != "tools/call" {
			t.Fatalf("round %d: the server saw %v, want the GET stream before tools/call", round, got)
		}
	}
}

// TestListenHeldGetHoldsNothing: behind a server (or proxy) that never
// answers the GET, Listen returns after its bounded head start and the
// call completes.
func TestListenHeldGetHoldsNothing(t *testing.T) {
	f := &fakeServer{Handle: func(w http.ResponseWriter, r *http.Request, _ string, _, _ json.RawMessage) bool {
		if r.Method == http.MethodGet {
			<-r.Context().Done() // no header, ever
			return true
		}
		return false
	}}
	url := f.start(t)
	c := newClient(t, url, mcp.Options{})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	start := time.Now()
	if err := c.Listen(ctx, nil, nil); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 4*time.Second {
		t.Fatalf("Listen took %v with the GET's headers held", d)
	}
	cctx, stop := context.WithTimeout(t.Context(), 5*time.Second)
	defer stop()
	res, err := c.CallTool(cctx, mcp.CallParams{Name: "t"})
	if err != nil || res.Result.Text() != "ok" {
		t.Fatalf("call with the GET stream held: %+v, %v", res, err)
	}
}

// TestAnswerOnGetStream: a legacy server that sends a call's answer on the
// session's GET stream instead of the call's own reply stream (the
// conformance suite's sse-retry server does) ends the call's wait with
// that answer, while the reply stream is still open and silent.
func TestAnswerOnGetStream(t *testing.T) {
	callID := make(chan json.RawMessage, 1)
	f := &fakeServer{Handle: func(w http.ResponseWriter, r *http.Request, method string, id, _ json.RawMessage) bool {
		switch {
		case r.Method == http.MethodGet:
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			select {
			case id := <-callID:
				fmt.Fprintf(w, "event: message\nid: g1\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"via get\"}]}}\n\n", id)
				w.(http.Flusher).Flush()
			case <-r.Context().Done():
			}
			<-r.Context().Done()
			return true
		case method == "tools/call":
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK)
			fmt.Fprint(w, "id: p1\nretry: 50\ndata: \n\n") // priming event, then silence
			w.(http.Flusher).Flush()
			callID <- id
			<-r.Context().Done()
			return true
		}
		return false
	}}
	url := f.start(t)
	c := newClient(t, url, mcp.Options{})
	lctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	if err := c.Listen(lctx, nil, nil); err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithTimeout(t.Context(), 10*time.Second)
	defer stop()
	res, err := c.CallTool(ctx, mcp.CallParams{Name: "t"})
	if err != nil || res.Result.Text() != "via get" {
		t.Fatalf("call answered on the GET stream: %+v, %v", res, err)
	}
}
