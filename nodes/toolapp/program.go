package toolapp

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"workrun/mcp"
	"workrun/remotecall"
	"workrun/workrun"
)

// stopBound bounds the graceful stop of a program (close stdin, SIGTERM,
// SIGKILL, each after mcp.DefaultStdioGrace) on a context of its own.
const stopBound = 4*mcp.DefaultStdioGrace + 5*time.Second

// program is one started tool program and the MCP client over its
// standard streams.
type program struct {
	stdio  *mcp.Stdio
	client MCPClient
	argv0  string
}

// redactor hides the secret_env values in whatever the program says
// (stderr, results, errors): a server may echo its environment. It is
// remotecall's Redactor, the one redaction rule; the zero redactor hides
// nothing.
type redactor struct{ r *remotecall.Redactor }

func (r redactor) string(s string) string { return r.r.String(s) }

// secrets resolves secret_env: variable → secret.
func (s *step) secrets(ctx context.Context) (map[string]string, redactor, error) {
	out := map[string]string{}
	red := remotecall.NewRedactor()
	for _, name := range slices.Sorted(maps.Keys(s.cfg.SecretEnv)) {
		cred, err := remotecall.NamedCredential(ctx, s.kind.deps.Credentials, s.cfg.SecretEnv[name])
		if err != nil {
			return nil, redactor{}, fmt.Errorf("secret_env %s: %w", name, err)
		}
		out[name] = cred.Secret
		red.Add(cred.Secret)
	}
	return out, redactor{red}, nil
}

// start starts the tool program with the node's command, env and cwd (its
// templates filled from in). Each stderr line goes to stderr, cleaned and
// redacted; server notifications go to onNote.
func (s *step) start(ctx context.Context, in workrun.Values, red redactor, secrets map[string]string,
	stderr func(line string), onNote func(mcp.Notification)) (*program, error) {
	argv := make([]string, len(s.cfg.Command))
	for i, a := range s.cfg.Command {
		argv[i] = workrun.ExpandTemplate(a, in)
	}
	var env []string
	for _, name := range slices.Sorted(maps.Keys(s.cfg.Env)) {
		env = append(env, name+"="+workrun.ExpandTemplate(s.cfg.Env[name], in))
	}
	for _, name := range slices.Sorted(maps.Keys(secrets)) {
		env = append(env, name+"="+secrets[name])
	}
	st, err := mcp.StartStdio(ctx, mcp.StdioOptions{
		Argv: argv, Env: env, Dir: workrun.ExpandTemplate(s.cfg.Cwd, in),
		OnStderr: func(line string) { stderr(red.string(line)) },
	})
	if err != nil {
		return nil, err
	}
	return &program{stdio: st, client: newClient(st, onNote), argv0: argv[0]}, nil
}

// stop stops the program gracefully on a context of its own: the node's
// may be over already.
func (p *program) stop(ctx context.Context) error {
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), stopBound)
	defer cancel()
	return p.stdio.Close(sctx)
}

// newClient is the MCP client over the program's standard streams.
func newClient(st *mcp.Stdio, onNote func(mcp.Notification)) *mcp.Client {
	return mcp.NewClient(mcp.NewStdioTransport(st), mcp.Options{OnNotification: onNote,
		ClientInfo: mcp.Implementation{Name: "workrun", Version: "1"}})
}
