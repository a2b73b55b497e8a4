package cli

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"

	"workrun/serve/push"
)

// mountPush puts serve's push receiver under /push/ when a public URL is
// given (docs/triggers.md P1): the Remote Agent nodes of this process then
// wait by push for agents that support it. It returns the writer of the
// `push URL` line (nothing without a public URL).
func mountPush(env *Env, svc *Services, publicURL, lang string, handler *http.Handler) (func(io.Writer), int) {
	none := func(io.Writer) {}
	if publicURL == "" || svc.Push == nil {
		return none, ExitOK
	}
	say := func(id serveMsg, a ...any) string { return serveTexts.In(lang, id, a...) }
	u, err := svc.Push.SetPublicURL(publicURL)
	if err != nil {
		return none, usageError(env, say(msgServePublicURL, termLine(publicURL)))
	}
	inner := *handler
	recv := svc.Push.Handler(svc.Engine, slog.New(slog.NewTextHandler(env.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	*handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, push.Path) {
			recv.ServeHTTP(w, r)
			return
		}
		inner.ServeHTTP(w, r)
	})
	fmt.Fprintln(env.Stderr, say(msgServePushOn, u))
	return func(w io.Writer) { fmt.Fprintf(w, "push %s\n", u) }, ExitOK
}
