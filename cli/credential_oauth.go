package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"workrun/credentials"
	"workrun/nodes/remoteagent"
	"workrun/nodes/remotemcp"
	"workrun/oauth"
	"workrun/remotecall"
)

// OAuthCredentials keeps OAuth credentials; *credentials.Manager implements it.
type OAuthCredentials interface {
	SignIn(ctx context.Context, req credentials.SignInRequest) (credentials.SignInResult, error)
	ListOAuth(ctx context.Context) ([]credentials.OAuthInfo, error)
	RemoveOAuth(ctx context.Context, name string) error
}

const loginUsage = "credential login URL [--name NAME] [--agent | --mcp] [--client-id ID [--client-secret-stdin | --private-key-file PEM]] [--client-metadata-url URL] [--device | --client-credentials | --assertion-file JWT | --id-token-file JWT (--idp-issuer URL | --idp-token-url URL) [--idp-client-id ID]] [--timeout SECONDS]"

// credentialLogin signs in to the MCP server or A2A agent at URL and saves
// the OAuth credential (credentials.Manager.SignIn): an MCP server signs in
// on its 401 during the connection test; an A2A agent with its card's OAuth
// 2.0 or OpenID Connect scheme, then the connection test runs with the
// saved credential. The sign-in page's URL is printed and opened in the
// system browser (BROWSER honoured); the redirect comes back to a loopback
// listener. Nothing secret is printed.
func credentialLogin(ctx context.Context, env *Env, args []string) int {
	fs := flag.NewFlagSet("credential login", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	name := fs.String("name", "", "")
	agent := fs.Bool("agent", false, "")
	mcpOnly := fs.Bool("mcp", false, "")
	clientID := fs.String("client-id", "", "")
	secretStdin := fs.Bool("client-secret-stdin", false, "")
	keyFile := fs.String("private-key-file", "", "")
	metadataURL := fs.String("client-metadata-url", "", "")
	device := fs.Bool("device", false, "")
	machine := fs.Bool("client-credentials", false, "")
	assertionFile := fs.String("assertion-file", "", "")
	idTokenFile := fs.String("id-token-file", "", "")
	idpIssuer := fs.String("idp-issuer", "", "")
	idpTokenURL := fs.String("idp-token-url", "", "")
	idpClientID := fs.String("idp-client-id", "", "")
	timeoutSec := fs.Int("timeout", int(oauth.DefaultSignInTimeout/time.Second), "")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return usageError(env, "credential login: "+err.Error())
	}
	lang, err := readerLanguage(env, "")
	if err != nil {
		return usageError(env, "credential login: "+err.Error())
	}
	say := func(id loginMsg, a ...any) string { return loginTexts.In(lang, id, a...) }
	if len(pos) != 1 {
		return usageError(env, "usage: workrun "+loginUsage)
	}
	target := pos[0]
	origin, err := credentials.NormalizeOrigin(target)
	if err != nil {
		return usageError(env, "credential login: "+err.Error())
	}
	if err := oauth.CheckServerURL(target); err != nil {
		return usageError(env, "credential login: "+err.Error())
	}
	if *name == "" {
		*name = strings.TrimPrefix(strings.TrimPrefix(origin, "https://"), "http://")
	}
	if *device && *machine {
		return usageError(env, "credential login: --device and --client-credentials exclude each other")
	}
	modes := 0
	for _, on := range []bool{*device, *machine, *assertionFile != "", *idTokenFile != ""} {
		if on {
			modes++
		}
	}
	if modes > 1 {
		return usageError(env, say(msgLoginAssertionModes))
	}
	if *idTokenFile == "" && (*idpIssuer != "" || *idpTokenURL != "" || *idpClientID != "") {
		return usageError(env, say(msgLoginIdPWithout))
	}
	if *idTokenFile != "" && *idpIssuer == "" && *idpTokenURL == "" {
		return usageError(env, say(msgLoginIdPNeeded))
	}
	for _, u := range []struct{ flag, url string }{{"--idp-issuer", *idpIssuer}, {"--idp-token-url", *idpTokenURL}} {
		if u.url == "" {
			continue
		}
		if err := oauth.CheckServerURL(u.url); err != nil {
			return usageError(env, say(msgLoginBadIdPURL, u.flag, err.Error()))
		}
	}
	var assertion oauth.AssertionConfig
	for _, f := range []string{*assertionFile, *idTokenFile} {
		if f == "" {
			continue
		}
		// The grant keeps the path and reads the file again at every
		// token request (a rotated token is picked up): absolute, so a
		// run started elsewhere finds it. Its content is never printed.
		abs, err := filepath.Abs(f)
		if err == nil {
			_, err = os.Stat(abs)
		}
		if err != nil {
			fmt.Fprintf(env.Stderr, "workrun: %s\n", say(msgLoginTokenFile, termLine(f), termLine(err.Error())))
			return ExitFailed
		}
		assertion.File = abs
	}
	assertion.IdP = oauth.IdP{Issuer: *idpIssuer, TokenURL: *idpTokenURL, ClientID: *idpClientID}
	if *agent && *mcpOnly {
		return usageError(env, "credential login: --agent and --mcp exclude each other")
	}
	if (*secretStdin || *keyFile != "" || *machine) && *clientID == "" {
		return usageError(env, "credential login: a client secret, a private key or --client-credentials needs --client-id")
	}
	cfg := oauth.ClientConfig{ID: *clientID, MetadataURL: *metadataURL}
	if *secretStdin {
		// Read from stdin, never the arguments (process list, shell history).
		line, err := bufio.NewReader(env.Stdin).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			fmt.Fprintf(env.Stderr, "workrun: credential login: read the client secret from stdin: %v\n", err)
			return ExitFailed
		}
		cfg.Secret = strings.TrimRight(line, "\r\n")
		if cfg.Secret == "" {
			return usageError(env, "credential login: --client-secret-stdin: no secret on stdin")
		}
	}
	if *keyFile != "" {
		b, err := os.ReadFile(*keyFile)
		if err != nil {
			fmt.Fprintf(env.Stderr, "workrun: credential login: %v\n", err)
			return ExitFailed
		}
		cfg.PrivateKeyPEM = string(b)
	}
	svc, _ := env.open(ctx)
	if svc == nil {
		return ExitFailed
	}
	defer closeServices(env, svc)
	if svc.OAuth == nil {
		fmt.Fprintln(env.Stderr, "workrun: this build cannot sign in (no OAuth credential store)")
		return ExitFailed
	}
	req := credentials.SignInRequest{URL: target, Name: *name, Client: cfg, Assertion: assertion, Timeout: time.Duration(*timeoutSec) * time.Second,
		Open: func(ctx context.Context, u string) error {
			fmt.Fprintf(env.Stdout, "Open this page to sign in:\n  %s\nWaiting for the browser to come back (%ds)…\n", termLine(u), *timeoutSec)
			if err := oauth.OpenBrowser(ctx, u); err != nil {
				fmt.Fprintf(env.Stderr, "workrun: could not open a browser (%v); open the page yourself\n", err)
			}
			return nil
		},
		ShowDevice: func(u, code string) {
			fmt.Fprintf(env.Stdout, "Open %s and enter the code %s\n", termLine(u), termLine(code))
		},
		ProbeMCP: ProbeMCP, ProbeAgent: ProbeAgent,
	}
	switch {
	case *device:
		req.Mode = oauth.ModeDevice
	case *machine:
		req.Mode = oauth.ModeClientCredentials
	case *assertionFile != "":
		req.Mode = oauth.ModeJWTBearer
	case *idTokenFile != "":
		req.Mode = oauth.ModeEnterprise
	}
	switch {
	case *agent:
		req.Kind = credentials.SignInAgent
	case *mcpOnly:
		req.Kind = credentials.SignInMCP
	}
	res, err := svc.OAuth.SignIn(ctx, req)
	if errors.Is(err, credentials.ErrNoSignIn) {
		fmt.Fprintf(env.Stdout, "%s did not ask for a sign-in; nothing saved\n", termLine(origin))
		return ExitOK
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "workrun: credential login %s: %s\n", termLine(origin), termText(err.Error(), "  "))
		return ExitFailed
	}
	fmt.Fprintf(env.Stdout, "Signed in to %s %s; saved as credential %s\n", termLine(origin), signedInAs(res.Info), termLine(*name))
	if res.ProbeErr != nil {
		fmt.Fprintf(env.Stderr, "workrun: credential login %s: signed in, but the connection test failed: %s\n", termLine(origin), termText(res.ProbeErr.Error(), "  "))
		return ExitFailed
	}
	return ExitOK
}

// ProbeMCP and ProbeAgent are the connection tests a sign-in ends with
// (credentials.SignInRequest): the node kinds' own, which submit nothing.
func ProbeMCP(ctx context.Context, u string, cred *remotecall.Credential) error {
	_, err := remotemcp.Check(ctx, u, cred)
	return err
}

// ProbeAgent: see ProbeMCP.
func ProbeAgent(ctx context.Context, u string, cred *remotecall.Credential) error {
	_, err := remoteagent.CheckAgent(ctx, u, cred)
	return err
}

// signedInAs is "as SUBJECT with scopes …" as far as the server said.
func signedInAs(g credentials.OAuthInfo) string {
	var parts []string
	if g.Subject != "" {
		parts = append(parts, "as "+termLine(g.Subject))
	}
	if len(g.Scopes) > 0 {
		parts = append(parts, "with scopes "+termLine(strings.Join(g.Scopes, " ")))
	} else {
		parts = append(parts, "with no scopes named")
	}
	return strings.Join(parts, " ")
}

// listOAuth prints the OAuth credentials' details under the plain list.
func listOAuth(ctx context.Context, env *Env, svc *Services) {
	if svc.OAuth == nil {
		return
	}
	infos, err := svc.OAuth.ListOAuth(ctx)
	if err != nil {
		fmt.Fprintf(env.Stderr, "workrun: %v\n", err)
		return
	}
	for _, in := range infos {
		exp := "no expiry given"
		if !in.Expiry.IsZero() {
			exp = "expires " + in.Expiry.Local().Format(time.DateTime)
		}
		scopes := strings.Join(in.Scopes, " ")
		if scopes == "" {
			scopes = "-"
		}
		fmt.Fprintf(env.Stdout, "  %s: OAuth for %s, issuer %s, scopes %s, %s\n", termLine(in.Name), termLine(in.Resource), termLine(in.Issuer), termLine(scopes), exp)
	}
}
