package demoserver

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"
)

// Mux serves the demo server at Path and a short note at /.
func (s *Server) Mux() *http.ServeMux {
	mux := http.NewServeMux()
	mux.Handle(Path, s)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("Workrun demo MCP server: POST MCP requests to " + Path + "\n")) //nolint:errcheck // the client went away
	})
	return mux
}

// Serve serves on l until ctx ends, then shuts down within 5 s.
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	hs := &http.Server{Handler: s.Mux(), ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(l) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	s.Close()
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	err := hs.Shutdown(sctx)
	if e := <-done; e != nil && !errors.Is(e, http.ErrServerClosed) && err == nil {
		err = e
	}
	return err
}
