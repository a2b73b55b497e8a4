package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"workrun/credentials"
	"workrun/workrun"
)

func init() {
	register(&Command{
		Name:    "credential",
		Args:    "set NAME --kind bearer|apikey --origin URL [--header NAME] (secret on stdin) | login URL [--name NAME] … | list | delete NAME",
		Summary: "manage credentials for remote agents (secrets live in the OS keyring)",
		Run:     runCredential,
	})
}

// openCredentials opens the data directory's credential manager (metadata in
// SQLite, secrets in the OS keyring); the caller runs the returned close.
func openCredentials(ctx context.Context, env *Env) (CredentialManager, func(), bool) {
	svc, _ := env.open(ctx)
	if svc == nil {
		return nil, nil, false
	}
	if svc.Credentials == nil {
		fmt.Fprintln(env.Stderr, "workrun: this build has no credential store")
		closeServices(env, svc)
		return nil, nil, false
	}
	return svc.Credentials, func() { closeServices(env, svc) }, true
}

func runCredential(ctx context.Context, env *Env, args []string) int {
	if len(args) == 0 {
		return usageError(env, "credential: say set, login, list or delete")
	}
	switch args[0] {
	case "set":
		return credentialSet(ctx, env, args[1:])
	case "login":
		return credentialLogin(ctx, env, args[1:])
	case "list":
		if len(args) > 1 {
			return usageError(env, "credential list takes no arguments")
		}
		return credentialList(ctx, env)
	case "delete":
		if len(args) != 2 {
			return usageError(env, "credential delete needs exactly one NAME")
		}
		return credentialDelete(ctx, env, args[1])
	}
	return usageError(env, fmt.Sprintf("credential: unknown action %q (set, login, list or delete)", args[0]))
}

func credentialSet(ctx context.Context, env *Env, args []string) int {
	fs := flag.NewFlagSet("credential set", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	kind := fs.String("kind", "", "")
	origin := fs.String("origin", "", "")
	header := fs.String("header", "", "")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return usageError(env, "credential set: "+err.Error())
	}
	if len(pos) != 1 {
		return usageError(env, "credential set needs exactly one NAME")
	}
	switch *kind {
	case credentials.KindBearer:
		if *header != "" && !strings.EqualFold(*header, "Authorization") {
			return usageError(env, "credential set: a bearer credential always uses the Authorization header; --header is for --kind apikey")
		}
	case credentials.KindAPIKey:
		if *header == "" {
			return usageError(env, "credential set: --kind apikey needs --header NAME (e.g. X-API-Key)")
		}
	default:
		return usageError(env, "credential set: --kind must be bearer or apikey")
	}
	if *origin == "" {
		return usageError(env, "credential set: --origin URL is required (the service the credential belongs to)")
	}
	// The secret comes from stdin, never from the arguments (they show in the
	// process list and shell history). One line; the newline is not part of it.
	line, err := bufio.NewReader(env.Stdin).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		fmt.Fprintf(env.Stderr, "workrun: credential set: read the secret from stdin: %v\n", err)
		return ExitFailed
	}
	secret := strings.TrimRight(line, "\r\n")
	if secret == "" {
		return usageError(env, "credential set: give the secret on stdin, e.g. `printenv TOKEN | workrun credential set NAME …`")
	}
	mgr, closeFn, ok := openCredentials(ctx, env)
	if !ok {
		return ExitFailed
	}
	defer closeFn()
	c := credentials.Credential{Name: pos[0], Kind: *kind, Origin: *origin, Header: *header}
	if err := mgr.Set(ctx, c, secret); err != nil {
		fmt.Fprintf(env.Stderr, "workrun: %v\n", err)
		if errors.Is(err, credentials.ErrInvalid) || errors.Is(err, credentials.ErrBadOrigin) {
			return ExitUsage
		}
		return ExitFailed
	}
	saved, _, err := mgr.Get(ctx, c.Name)
	if err != nil {
		fmt.Fprintf(env.Stderr, "workrun: %v\n", err)
		return ExitFailed
	}
	fmt.Fprintf(env.Stdout, "saved credential %s (%s) for %s\n", saved.Name, saved.Kind, saved.Origin)
	return ExitOK
}

func credentialList(ctx context.Context, env *Env) int {
	svc, _ := env.open(ctx)
	if svc == nil {
		return ExitFailed
	}
	defer closeServices(env, svc)
	if svc.Credentials == nil {
		fmt.Fprintln(env.Stderr, "workrun: this build has no credential store")
		return ExitFailed
	}
	cs, err := svc.Credentials.List(ctx)
	if err != nil {
		fmt.Fprintf(env.Stderr, "workrun: %v\n", err)
		return ExitFailed
	}
	if len(cs) == 0 {
		fmt.Fprintln(env.Stdout, "no credentials")
		return ExitOK
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tKIND\tORIGIN\tHEADER")
	for _, c := range cs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", c.Name, c.Kind, c.Origin, c.Header)
	}
	tw.Flush()
	listOAuth(ctx, env, svc)
	return ExitOK
}

func credentialDelete(ctx context.Context, env *Env, name string) int {
	svc, _ := env.open(ctx)
	if svc == nil {
		return ExitFailed
	}
	defer closeServices(env, svc)
	if svc.Credentials == nil {
		fmt.Fprintln(env.Stderr, "workrun: this build has no credential store")
		return ExitFailed
	}
	del := svc.Credentials.Delete
	if c, _, err := svc.Credentials.Get(ctx, name); err == nil && c.Kind == credentials.KindOAuth && svc.OAuth != nil {
		del = svc.OAuth.RemoveOAuth // revokes where the server offers it
	}
	if err := del(ctx, name); err != nil {
		if errors.Is(err, workrun.ErrNotFound) {
			fmt.Fprintf(env.Stderr, "workrun: no credential named %q\n", name)
			return ExitFailed
		}
		fmt.Fprintf(env.Stderr, "workrun: %v\n", err)
		return ExitFailed
	}
	fmt.Fprintf(env.Stdout, "deleted credential %s\n", name)
	return ExitOK
}
