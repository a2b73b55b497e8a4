package ui

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"workrun/nodes/remoteagent"
	"workrun/nodes/remotemcp"
)

// TestConnectionErrorsInChinese: the errors a connection test gets from the
// real Remote Agent and Remote MCP Tool checks — a closed port, a host
// that does not exist, a server answering 500 or 404, a timeout — read in
// Chinese once the window is in Chinese: only data (URLs, hosts, ports,
// status codes, protocol and method names) stays in Latin letters (issue
// 23 item 9). In English they are unchanged.
func TestConnectionErrorsInChinese(t *testing.T) {
	test.NewTempApp(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	l.Close()
	fail500 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "nope", 500) }))
	defer fail500.Close()
	missing := httptest.NewServer(http.NotFoundHandler())
	defer missing.Close()
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}))
	defer slow.Close()

	ctx := t.Context()
	agent := func(url string, d time.Duration) error {
		c, cancel := context.WithTimeout(ctx, d)
		defer cancel()
		_, err := remoteagent.CheckAgent(c, url, nil)
		return err
	}
	mcp := func(url string) error {
		c, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		_, err := remotemcp.Check(c, url, nil)
		return err
	}
	errs := map[string]error{
		"agent, closed port":  agent(closed, 10*time.Second),
		"agent, no such host": agent("http://no-such-host.invalid", 10*time.Second),
		"agent, HTTP 500":     agent(fail500.URL, 10*time.Second),
		"agent, HTTP 404":     agent(missing.URL, 10*time.Second),
		"agent, timeout":      agent(slow.URL, 500*time.Millisecond),
		"MCP, closed port":    mcp(closed + "/mcp"),
		"MCP, HTTP 500":       mcp(fail500.URL + "/mcp"),
		"MCP, HTTP 404":       mcp(missing.URL + "/mcp"),
	}
	data := regexp.MustCompile(`https?://\S+?(?:["”）)：]|$)|[\w.-]+\.invalid|\d+(\.\d+)*(:\d+)?|\b(TCP|HTTPS?|GET|POST|A2A|MCP|TLS|DNS|server/discover)\b`)
	word := regexp.MustCompile(`[A-Za-z]{2,}`)
	SetupLanguage("zh-Hans")
	defer SetupLanguage("en")
	for name, err := range errs {
		if err == nil {
			t.Errorf("%s: the check did not fail", name)
			continue
		}
		shown := agentTestText(err)
		if left := word.FindAllString(data.ReplaceAllString(shown, " "), -1); len(left) > 0 {
			t.Errorf("%s: in Chinese the test says %q; English left: %q", name, shown, left)
		}
	}
	SetupLanguage("en")
	for name, err := range errs {
		if err != nil && agentTestText(err) != "✗ "+strings.ReplaceAll(err.Error(), "context deadline exceeded", "took too long and was stopped") {
			t.Errorf("%s: in English the test says %q, want the error as it is: %q", name, agentTestText(err), err)
		}
	}
}

// agentTestText is what the inspector's connection test says of a failed
// check (inspector.Wording.Reason of the error, marked ✗).
func agentTestText(err error) string { return "✗ " + HumanError(langNow(), err.Error()) }
