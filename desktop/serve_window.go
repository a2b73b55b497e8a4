package desktop

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"workrun/cli"
	"workrun/ui"
)

// windowServer serves the published workflows from the open window when
// the person turns it on in Publish as agent… (docs/serve.md "Serving from
// the window"): the same server `workrun serve` runs — A2A agents, the MCP
// endpoint and the webhooks on one address — on the window's engine and
// store, so callers' runs are the window's own runs: they show live in the
// run panel and Stop stops them. The window fires the schedules itself
// (schedule.go), so this server fires none. It is rebuilt when a
// workflow is saved or deleted, and closed before the engine when the
// window closes; closing never cancels a run (S8).
type windowServer struct {
	svc *cli.Services
	log io.Writer
	// lang is the language of the lines written to log.
	lang func() string

	mu     sync.Mutex // one start, stop or rebuild at a time
	addr   string     // "" while off
	srv    *cli.Server
	closed bool
}

// errWindowClosed is what a start after the window closed gets.
var errWindowClosed = errors.New("the window is closing")

// set serves at addr, or stops serving when addr is "", and returns the
// server's lines (`a2a URL`, `mcp URL`, `webhook URL`). A server already
// running is replaced. A start that fails leaves nothing serving.
func (w *windowServer) set(ctx context.Context, addr string) ([]string, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil, errWindowClosed
	}
	w.stopLocked(ctx)
	w.addr = addr
	if addr == "" {
		return nil, nil
	}
	return w.startLocked(ctx)
}

func (w *windowServer) startLocked(ctx context.Context) ([]string, error) {
	pubs, perr := windowPublications(ctx, w.svc.Engine, w.svc.Workflows)
	if perr != nil {
		fmt.Fprintf(w.log, "workrun: %v\n", perr) // the others are served
	}
	if len(pubs) == 0 && perr == nil {
		// Nothing to serve yet: serve starts once a workflow is published.
		return nil, nil
	}
	srv, err := cli.StartServer(context.WithoutCancel(ctx), w.svc, cli.ServerConfig{
		Addr: w.addr, Pubs: pubs, Lang: w.lang(), Log: w.log, NoSchedules: true})
	if err != nil {
		return nil, err
	}
	w.srv = srv
	return srv.Lines(), nil
}

func (w *windowServer) stopLocked(ctx context.Context) {
	if w.srv != nil {
		w.srv.Close(ctx)
		w.srv = nil
	}
}

// rebuild serves the saved published workflows again, if serving is on.
func (w *windowServer) rebuild(ctx context.Context) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed || w.addr == "" {
		return nil
	}
	w.stopLocked(ctx)
	_, err := w.startLocked(ctx)
	return err
}

// rebuildLater rebuilds off the caller's goroutine and reports its error.
func (w *windowServer) rebuildLater(ctx context.Context, report func(error)) {
	go func() {
		if err := w.rebuild(ctx); err != nil && report != nil {
			report(fmt.Errorf("serve from the window: %w", err))
		}
	}()
}

// stop closes the server for good (the window closes; before the engine).
func (w *windowServer) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closed = true
	w.stopLocked(context.Background())
}

// serveDeps wires the window's "Serve from this window" (ui.Deps.ServeHere)
// to a windowServer; the returned stop closes it.
func serveDeps(d *ui.Deps, svc *cli.Services, log io.Writer) (*windowServer, func()) {
	ws := &windowServer{svc: svc, log: log, lang: func() string { return ui.CurrentLanguage() }}
	d.ServeHere = ws.set
	return ws, ws.stop
}
