package oauth

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// OpenBrowser opens u in the system browser. The BROWSER environment
// variable, when set, names the command (a list separated by ':', the first
// that starts wins; "%s" in it is replaced by the URL, else the URL is
// appended), as xdg-utils and Python's webbrowser read it. Otherwise
// xdg-open, open (macOS) or the Windows URL handler. The command is not
// waited for beyond its start, so a browser that keeps running does not
// hold up the sign-in.
func OpenBrowser(ctx context.Context, u string) error {
	if !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://") {
		return fmt.Errorf("open browser: %w: %q", ErrBadURL, clip(u))
	}
	var cmds [][]string
	if b := os.Getenv("BROWSER"); b != "" {
		for _, c := range strings.Split(b, string(os.PathListSeparator)) {
			f := strings.Fields(c)
			if len(f) == 0 {
				continue
			}
			replaced := false
			for i := range f {
				if strings.Contains(f[i], "%s") {
					f[i] = strings.ReplaceAll(f[i], "%s", u)
					replaced = true
				}
			}
			if !replaced {
				f = append(f, u)
			}
			cmds = append(cmds, f)
		}
	} else {
		switch runtime.GOOS {
		case "darwin":
			cmds = [][]string{{"open", u}}
		case "windows":
			cmds = [][]string{{"rundll32", "url.dll,FileProtocolHandler", u}}
		default:
			cmds = [][]string{{"xdg-open", u}}
		}
	}
	var firstErr error
	for _, c := range cmds {
		cmd := exec.Command(c[0], c[1:]...)
		cmd.Stdout, cmd.Stderr = nil, nil
		if err := cmd.Start(); err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		go func() { _ = cmd.Wait() }() // reap; its exit status says nothing about the sign-in
		return nil
	}
	return fmt.Errorf("open browser: %w", firstErr)
}
