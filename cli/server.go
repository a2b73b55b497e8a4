package cli

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"

	"workrun/remotecall"
	"workrun/serve"
	"workrun/serve/a2aserve"
)

// ServerConfig is one server of published workflows: what `workrun serve`
// takes from its flags, and what the window gives when it serves while it
// is open (docs/serve.md "Serving from the window").
type ServerConfig struct {
	Addr              string // HOST:PORT; port 0 takes a free one
	CertFile, KeyFile string // TLS, both or neither
	PublicURL         string // serve's address as remote agents reach it: push waits (docs/triggers.md P1)
	Pubs              []serve.Publication
	Lang              string    // the language of the lines written to Log
	Log               io.Writer // lines for a person (what stderr shows under `workrun serve`)
	NoSchedules       bool      // the caller fires the schedules itself (the window does)
}

// Server is a running server: its HTTP listener, the A2A agents, the MCP
// endpoint, the webhooks and the push receiver on one address, over one
// serve core on the engine it was given.
type Server struct {
	lines        []string
	srv          *http.Server
	served       chan error
	stopTriggers func()
	closeOnce    sync.Once
}

// serverError is a StartServer error with how `workrun serve` exits on it.
type serverError struct {
	usage bool // the person's input is wrong (ExitUsage), not the machine
	err   error
}

func (e *serverError) Error() string { return e.err.Error() }
func (e *serverError) Unwrap() error { return e.err }

// IsUsageError reports whether err, from StartServer, says the
// configuration is wrong (an address, TLS, a public URL) rather than that
// something failed.
func IsUsageError(err error) bool {
	var se *serverError
	return errors.As(err, &se) && se.usage
}

// StartServer starts serving cfg.Pubs on svc's engine and store and
// returns once the listener is open and unfinished served runs were
// resumed (docs/serve.md S3). The rules of S12 hold: another address than
// loopback needs TLS and a saved token. Close it to stop listening; that
// never cancels a run (S8).
func StartServer(ctx context.Context, svc *Services, cfg ServerConfig) (*Server, error) {
	say := func(id serveMsg, a ...any) string { return serveTexts.In(cfg.Lang, id, a...) }
	usage := func(err error) error { return &serverError{usage: true, err: err} }
	log := cfg.Log
	if log == nil {
		log = io.Discard
	}
	if (cfg.CertFile == "") != (cfg.KeyFile == "") {
		return nil, usage(errors.New(say(msgServeTLSPair)))
	}
	loopback, err := remotecall.ListenAddrLoopback(cfg.Addr)
	if err != nil {
		return nil, usage(fmt.Errorf("serve: --addr: %w", err))
	}
	if svc.Engine == nil || svc.Served == nil || svc.ServeTokens == nil {
		return nil, errors.New("this build cannot serve workflows")
	}
	if len(cfg.Pubs) == 0 {
		return nil, usage(errors.New(say(msgServeNoFlows)))
	}
	toks, err := svc.ServeTokens.List(ctx)
	if err != nil {
		return nil, err
	}
	// S12: another machine is served only over TLS and with tokens.
	if !loopback && (cfg.CertFile == "" || len(toks) == 0) {
		return nil, usage(errors.New(say(msgServeNonLoopback, termLine(cfg.Addr))))
	}
	var tlsConf *tls.Config
	if cfg.CertFile != "" {
		cert, err := tls.LoadX509KeyPair(cfg.CertFile, cfg.KeyFile)
		if err != nil {
			return nil, usage(fmt.Errorf("serve: TLS: %w", err))
		}
		tlsConf = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	core, err := serve.New(svc.Engine, svc.Served, cfg.Pubs)
	if err != nil {
		return nil, usage(err)
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	scheme := "http"
	if tlsConf != nil {
		scheme = "https"
		ln = tls.NewListener(ln, tlsConf)
	}
	base := (&url.URL{Scheme: scheme, Host: ln.Addr().String()}).String()
	logger := slog.New(slog.NewTextHandler(log, &slog.HandlerOptions{Level: slog.LevelWarn}))
	opts := a2aserve.Options{BaseURL: base, Artifacts: svc.Artifacts, Version: "workrun", Logger: logger}
	if len(toks) > 0 {
		opts.Tokens = svc.ServeTokens
		fmt.Fprintln(log, say(msgServeTokensOn, len(toks)))
	} else {
		fmt.Fprintln(log, say(msgServeTokensOff))
	}
	front := a2aserve.New(core, opts)
	trig, err := newServedTriggers(log, svc, core, cfg.Pubs, base, cfg.Lang) // serve_triggers.go
	if err != nil {
		ln.Close()
		return nil, usage(err)
	}
	handler, mcpLine := withMCP(core, opts, trig.mount(front.Handler()))
	pushLine, err := mountPush(log, svc, cfg.PublicURL, cfg.Lang, &handler) // serve_push.go
	if err != nil {
		ln.Close()
		return nil, err
	}
	s := &Server{
		srv:          &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second, MaxHeaderBytes: 64 << 10},
		served:       make(chan error, 1),
		stopTriggers: func() {},
	}
	go func() { s.served <- s.srv.Serve(ln) }()

	// S3: the runs a previous process left unfinished go on, as `workrun resume`.
	resumed, err := core.ResumeUnfinished(ctx)
	if err != nil {
		fmt.Fprintf(log, "workrun: %s\n", termText(err.Error(), "  "))
	}
	if len(resumed) > 0 {
		fmt.Fprintln(log, say(msgServeResumed, len(resumed)))
	}
	for _, p := range cfg.Pubs {
		s.lines = append(s.lines, "a2a "+front.URL(p.ID))
	}
	s.lines = append(s.lines, mcpLine)
	if pushLine != "" {
		s.lines = append(s.lines, pushLine)
	}
	s.lines = append(s.lines, trig.urlLines()...)
	if !cfg.NoSchedules {
		s.stopTriggers = trig.start(ctx, log, cfg.Lang)
	}
	return s, nil
}

// Lines are what `workrun serve` prints before `ready`: `a2a URL` per
// workflow, `mcp URL`, `push URL` with a public URL, `webhook URL` per
// webhook (data, not text).
func (s *Server) Lines() []string { return s.lines }

// Done delivers why the listener stopped serving on its own.
func (s *Server) Done() <-chan error { return s.served }

// Close stops the schedules, then the listener: requests get up to three
// seconds, then streams are cut (their callers resubscribe). Runs go on in
// the engine; closing it is the caller's business (S8: exit never
// cancels).
func (s *Server) Close(ctx context.Context) {
	s.closeOnce.Do(func() {
		s.stopTriggers()
		shutCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second)
		defer cancel()
		if err := s.srv.Shutdown(shutCtx); err != nil {
			s.srv.Close() //nolint:errcheck // streams cut: their callers resubscribe
		}
	})
}
