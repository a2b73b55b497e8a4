package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"workrun/remotecall"
	"workrun/serve"
	"workrun/workrun"
)

func init() {
	register(&Command{
		Name:    "serve",
		Args:    "[--addr HOST:PORT] [--tls-cert FILE --tls-key FILE] [--public-url URL] [--lang en|zh] [FLOW.json ...] | serve token create LABEL | list | revoke LABEL | serve webhook-secret FLOW [--show|--new]",
		Summary: "serve workflows as A2A agents and MCP tools, with their schedules and webhooks (the files given, or every workflow published in the window); prints `a2a URL` per workflow, `mcp URL` once, `webhook URL` per webhook, then `ready`",
		Run:     serveCommand,
	})
}

// DefaultServeAddr is where `workrun serve` listens without --addr: the
// loopback interface, a free port.
const DefaultServeAddr = "127.0.0.1:0"

func serveCommand(ctx context.Context, env *Env, args []string) int {
	if len(args) > 0 && args[0] == "token" {
		return serveTokenCommand(ctx, env, args[1:])
	}
	if len(args) > 0 && args[0] == "webhook-secret" {
		return serveWebhookSecretCommand(ctx, env, args[1:])
	}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addr := fs.String("addr", DefaultServeAddr, "")
	certFile := fs.String("tls-cert", "", "")
	keyFile := fs.String("tls-key", "", "")
	langFlag := fs.String("lang", "", "")
	publicURL := fs.String("public-url", "", "")
	files, err := parseInterleaved(fs, args)
	if err != nil {
		return usageError(env, "serve: "+err.Error())
	}
	lang, err := readerLanguage(env, *langFlag)
	if err != nil {
		return usageError(env, "serve: "+err.Error())
	}
	say := func(id serveMsg, a ...any) string { return serveTexts.In(lang, id, a...) }
	if *publicURL == "" {
		*publicURL = env.Getenv("WORKRUN_PUBLIC_URL")
	}
	if (*certFile == "") != (*keyFile == "") {
		return usageError(env, say(msgServeTLSPair))
	}
	if _, err := remotecall.ListenAddrLoopback(*addr); err != nil {
		return usageError(env, "serve: --addr: "+err.Error())
	}
	svc, code := env.open(ctx)
	if svc == nil {
		return code
	}
	defer closeServices(env, svc)
	if svc.Engine == nil || svc.Served == nil || svc.ServeTokens == nil {
		fmt.Fprintln(env.Stderr, "workrun: this build cannot serve workflows")
		return ExitFailed
	}
	pubs, err := publications(ctx, svc, files, lang)
	if err != nil {
		fmt.Fprintf(env.Stderr, "workrun: %s\n", termText(err.Error(), "  "))
		return ExitUsage
	}
	srv, err := StartServer(ctx, svc, ServerConfig{Addr: *addr, CertFile: *certFile, KeyFile: *keyFile,
		PublicURL: *publicURL, Pubs: pubs, Lang: lang, Log: env.Stderr})
	if err != nil {
		fmt.Fprintf(env.Stderr, "workrun: %s\n", termText(err.Error(), "  "))
		if IsUsageError(err) {
			return ExitUsage
		}
		return ExitFailed
	}
	for _, l := range srv.Lines() {
		fmt.Fprintln(env.Stdout, l)
	}
	fmt.Fprintln(env.Stdout, "ready")
	defer srv.Close(ctx)

	sigCtx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	select {
	case <-sigCtx.Done():
		fmt.Fprintln(env.Stderr, say(msgServeStopping, "signal"))
	case err := <-srv.Done():
		fmt.Fprintf(env.Stderr, "workrun: serve: %s\n", termText(err.Error(), "  "))
		return ExitFailed
	}
	// S8: exit never cancels. Streams are closed, then the engine closes
	// its runs as interrupted by exit; the next start resumes them.
	srv.Close(ctx)
	if svc.Push != nil {
		svc.Push.Close() // no resume starts once the engine closes
	}
	if err := svc.Engine.Close(context.WithoutCancel(ctx)); err != nil {
		fmt.Fprintf(env.Stderr, "workrun: %s\n", termText(err.Error(), "  "))
		return ExitFailed
	}
	return ExitOK
}

// publications reads the files given, or every published saved workflow.
func publications(ctx context.Context, svc *Services, files []string, lang string) ([]serve.Publication, error) {
	var pubs []serve.Publication
	add := func(id, workflowID string, wf workrun.Workflow, where string) error {
		if probs := svc.Engine.Validate(wf); len(probs) > 0 {
			var lines []string
			for _, p := range probs {
				lines = append(lines, "  "+p.StringIn(lang))
			}
			return fmt.Errorf("%s is not a valid workflow:\n%s", where, strings.Join(lines, "\n"))
		}
		p, err := serve.NewPublication(id, workflowID, wf)
		if err != nil {
			return err
		}
		pubs = append(pubs, p)
		return nil
	}
	for _, f := range files {
		wf, err := readWorkflow(f)
		if err != nil {
			return nil, err
		}
		name := wf.Name
		if wf.Publish != nil && wf.Publish.Name != "" {
			name = wf.Publish.Name
		}
		if name == "" {
			name = strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))
		}
		if err := add(serve.Slug(name), "", wf, f); err != nil {
			return nil, err
		}
	}
	if len(files) > 0 || svc.Workflows == nil {
		return pubs, nil
	}
	recs, err := svc.Workflows.ListWorkflows(ctx)
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		if r.Workflow.Publish == nil {
			continue
		}
		name := r.Workflow.Publish.Name
		if name == "" {
			name = r.Workflow.Name
		}
		if err := add(serve.Slug(name), r.ID, r.Workflow, r.Workflow.Name); err != nil {
			return nil, err
		}
	}
	return pubs, nil
}

func serveTokenCommand(ctx context.Context, env *Env, args []string) int {
	fs := flag.NewFlagSet("serve token", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	langFlag := fs.String("lang", "", "")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return usageError(env, "serve token: "+err.Error())
	}
	lang, err := readerLanguage(env, *langFlag)
	if err != nil {
		return usageError(env, "serve token: "+err.Error())
	}
	say := func(id serveMsg, a ...any) string { return serveTexts.In(lang, id, a...) }
	if len(pos) == 0 {
		return usageError(env, "serve token needs create LABEL, list or revoke LABEL")
	}
	want := map[string]int{"create": 2, "list": 1, "revoke": 2}
	if n, ok := want[pos[0]]; !ok || len(pos) != n {
		return usageError(env, "serve token needs create LABEL, list or revoke LABEL")
	}
	svc, code := env.open(ctx)
	if svc == nil {
		return code
	}
	defer closeServices(env, svc)
	if svc.ServeTokens == nil {
		fmt.Fprintln(env.Stderr, "workrun: "+say(msgServeNoKeyring))
		return ExitFailed
	}
	switch pos[0] {
	case "create":
		secret, err := svc.ServeTokens.Create(ctx, pos[1])
		if err != nil {
			fmt.Fprintf(env.Stderr, "workrun: %s\n", termText(err.Error(), "  "))
			if errors.Is(err, serve.ErrBadLabel) || errors.Is(err, workrun.ErrTokenExists) {
				return ExitUsage
			}
			return ExitFailed
		}
		fmt.Fprintln(env.Stderr, say(msgServeTokenCreated, termLine(pos[1])))
		fmt.Fprintln(env.Stdout, secret)
	case "list":
		toks, err := svc.ServeTokens.List(ctx)
		if err != nil {
			fmt.Fprintf(env.Stderr, "workrun: %s\n", termText(err.Error(), "  "))
			return ExitFailed
		}
		if len(toks) == 0 {
			fmt.Fprintln(env.Stdout, say(msgServeTokenNone))
		}
		for _, t := range toks {
			fmt.Fprintf(env.Stdout, "%s\t%s\tsha256:%s…\n", termLine(t.Label), t.CreatedAt.Local().Format(time.DateTime), t.Hash[:12])
		}
	case "revoke":
		if err := svc.ServeTokens.Revoke(ctx, pos[1]); err != nil {
			fmt.Fprintf(env.Stderr, "workrun: %s\n", termText(err.Error(), "  "))
			if errors.Is(err, workrun.ErrNotFound) {
				return ExitUsage
			}
			return ExitFailed
		}
		fmt.Fprintln(env.Stdout, say(msgServeTokenRevoked, termLine(pos[1])))
	}
	return ExitOK
}
