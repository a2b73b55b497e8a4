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
// wait by push for agents that support it. It returns the `push URL` line
// ("" without a public URL); a public URL that cannot be used is a usage
// error.
func mountPush(log io.Writer, svc *Services, publicURL, lang string, handler *http.Handler) (string, error) {
	if publicURL == "" || svc.Push == nil {
		return "", nil
	}
	say := func(id serveMsg, a ...any) string { return serveTexts.In(lang, id, a...) }
	u, err := svc.Push.SetPublicURL(publicURL)
	if err != nil {
		return "", &serverError{usage: true, err: fmt.Errorf("%s", say(msgServePublicURL, termLine(publicURL)))}
	}
	inner := *handler
	recv := svc.Push.Handler(svc.Engine, slog.New(slog.NewTextHandler(log, &slog.HandlerOptions{Level: slog.LevelWarn})))
	*handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, push.Path) {
			recv.ServeHTTP(w, r)
			return
		}
		inner.ServeHTTP(w, r)
	})
	fmt.Fprintln(log, say(msgServePushOn, u))
	return "push " + u, nil
}
