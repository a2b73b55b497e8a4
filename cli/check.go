package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"workrun/remotecall"
)

// checkCommand is what check-agent and check-mcp share: one URL, an
// optional saved credential resolved for that URL's origin (refused for
// another origin before anything is sent), and the report printed as text
// or, with --json, as the report's fields plus "ok" and "error".
type checkCommand[R any] struct {
	name string
	// check tests url; cred is nil without --credential.
	check func(ctx context.Context, url string, cred *savedCredential) (R, error)
	// printText writes the text report; err is the check's error, and rep
	// may be partial then.
	printText func(w io.Writer, rep R, credName string, err error)
}

// savedCredential is a resolved credential in the remote layer's form.
type savedCredential struct {
	remote remotecall.Credential
}

func (c checkCommand[R]) run(ctx context.Context, env *Env, args []string) int {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	credName := fs.String("credential", "", "")
	asJSON := fs.Bool("json", false, "")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return usageError(env, c.name+": "+err.Error())
	}
	if len(pos) != 1 {
		return usageError(env, c.name+" needs exactly one URL")
	}
	url := pos[0]
	var cred *savedCredential
	if *credName != "" {
		mgr, closeFn, ok := openCredentials(ctx, env)
		if !ok {
			return ExitFailed
		}
		_, _, err := mgr.Resolve(ctx, *credName, url)
		var remote remotecall.Credential
		if err == nil {
			// An OAuth credential's token source keeps its grant in the
			// keyring until the check ends.
			remote, err = mgr.RemoteCredential(ctx, *credName)
		}
		if err != nil {
			closeFn()
			fmt.Fprintf(env.Stderr, "workrun: %s: %v\n", c.name, err)
			return ExitFailed
		}
		defer closeFn()
		cred = &savedCredential{remote: remote}
	}
	rep, err := c.check(ctx, url, cred)
	if *asJSON {
		b, jerr := reportJSON(rep, err)
		if jerr != nil {
			fmt.Fprintf(env.Stderr, "workrun: %s: %v\n", c.name, jerr)
			return ExitFailed
		}
		env.Stdout.Write(b) //nolint:errcheck // as fmt.Fprint to the terminal
	} else {
		c.printText(env.Stdout, rep, *credName, err)
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "workrun: %s: %s\n", c.name, termText(err.Error(), "  "))
		return ExitFailed
	}
	return ExitOK
}

// reportJSON is the report's JSON object with "ok" and "error" after its own
// fields, indented, on one line end.
func reportJSON(rep any, err error) ([]byte, error) {
	b, merr := json.Marshal(rep)
	if merr != nil {
		return nil, fmt.Errorf("report: %w", merr)
	}
	if len(b) < 2 || b[0] != '{' {
		return nil, fmt.Errorf("report: %s is not a JSON object", b[:min(len(b), 20)])
	}
	status := struct {
		OK    bool   `json:"ok"`
		Error string `json:"error,omitempty"`
	}{OK: err == nil}
	if err != nil {
		status.Error = err.Error()
	}
	sb, merr := json.Marshal(status)
	if merr != nil {
		return nil, fmt.Errorf("report: %w", merr)
	}
	joined := b[:len(b)-1]
	if len(b) > 2 {
		joined = append(joined, ',')
	}
	joined = append(joined, sb[1:]...)
	var out bytes.Buffer
	if err := json.Indent(&out, joined, "", "  "); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}
