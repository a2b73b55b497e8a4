// Command gohello is the a2a-go v2.3.1 baseline of the serve benchmark
// (docs/BENCHMARKS.md, "serve: a workflow as an A2A agent"): the SDK's own
// JSON-RPC server (a2asrv, in-memory task store) whose executor answers a
// message "NAME" with the artifact "Hello, NAME!" and COMPLETED, the same
// text the served hello workflow returns. Test-only; not shipped.
//
//	gohello    (listens on 127.0.0.1:0, prints "listening http://127.0.0.1:PORT/a2a")
package main

import (
	"context"
	"fmt"
	"iter"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

type hello struct{}

func (hello) Execute(_ context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		name := ""
		for _, p := range ec.Message.Parts {
			if t := p.Text(); t != "" {
				name = t
				break
			}
		}
		if !yield(a2a.NewSubmittedTask(ec, ec.Message), nil) {
			return
		}
		art := a2a.NewArtifactEvent(ec, a2a.NewTextPart("Hello, "+name+"!"))
		art.Artifact.Name, art.LastChunk = "message", true
		_ = yield(art, nil) && yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCompleted, nil), nil)
	}
}

func (hello) Cancel(_ context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCanceled, nil), nil)
	}
}

func main() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "gohello:", err)
		os.Exit(1)
	}
	mux := http.NewServeMux()
	mux.Handle("POST /a2a", a2asrv.NewJSONRPCHandler(a2asrv.NewHandler(hello{})))
	fmt.Printf("listening http://%s/a2a\n", ln.Addr())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	if err := srv.Serve(ln); err != nil {
		fmt.Fprintln(os.Stderr, "gohello:", err)
		os.Exit(1)
	}
}
