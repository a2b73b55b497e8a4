//go:build linux

package main

import (
	"bufio"
	"image"
	"io"
	"net"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// publishWorkflow greets the name a caller gives.
const publishWorkflow = `{"name":"Greeter","state":{"name":"text","message":"text"},
	"nodes":[{"id":"start","type":"start","position":{"x":0,"y":0}},
	  {"id":"hi","type":"set","position":{"x":200,"y":0},"config":{"values":{"message":"hello {{name}}"}}},
	  {"id":"end","type":"output","config":{"fields":["message"]},"position":{"x":400,"y":0}}],
	"edges":[{"from":"start","to":"hi"},{"from":"hi","to":"end"}]}`

// TestGUIPublishAsAgent drives Workflow → Publish as agent… in the real
// window (built binary, Xvfb 1024×700, xdotool, OCR): with the saved
// workflow open, the person ticks publishing, the field a caller fills
// and the one returned, types a free loopback address and saves; the
// dialog said no server runs there. A real `workrun serve` on the same
// data directory, given no file, then serves exactly that workflow as
// Greeter at the URL the dialog names — so the settings were saved — and
// the dialog opened again says the server is running.
func TestGUIPublishAsAgent(t *testing.T) {
	g := newGUITest(t)
	data := filepath.Join(g.tmp, "data-publish")
	saveWorkflowJSON(t, data, publishWorkflow)
	scr, app, win := startWindow1024(t, g, "en", "publish-en", data)
	openListed(t, scr, app, win, "en", "Greeter")

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	wantURL := (&url.URL{Scheme: "http", Host: addr, Path: "/a2a/greeter"}).String()

	bar := image.Rect(0, 0, scr.width, 28)
	openPublish := func(step string) {
		t.Helper()
		box, ok := scr.waitText(t, bar, "Workflow", textWait)
		if !ok {
			scr.shot(t, "no-workflow-menu")
			t.Fatalf("no Workflow menu on the menu bar (steps in %s)", scr.shots)
		}
		scr.menuItem(t, (box.Min.X+box.Max.X)/2, "Publish as agent")
		if _, ok := scr.waitText(t, image.Rectangle{}, "Publish this workflow", textWait); !ok {
			scr.shot(t, "no-dialog-"+step)
			t.Fatalf("Publish as agent… opened no dialog (steps in %s)", scr.shots)
		}
		scr.shot(t, "publish-"+step)
	}
	openPublish("1")
	scr.clickText(t, "Publish this workflow")
	// The field checks: "name" right of "Caller fills", "message" right of "Returned".
	tick := func(row, field string) {
		t.Helper()
		box, ok := scr.waitText(t, image.Rectangle{}, row, textWait)
		if !ok {
			scr.shot(t, "no-row")
			t.Fatalf("no %q row (steps in %s)", row, scr.shots)
		}
		scr.clickTextIn(t, image.Rect(box.Max.X, box.Min.Y-12, scr.width, box.Max.Y+12), field)
	}
	tick("Caller fills", "name")
	tick("Returned", "message")
	// The address: select what is there and type the free one.
	scr.clickText(t, "127.0.0.1:8470")
	scr.key(t, "ctrl+a")
	scr.typeText(t, addr)
	scr.clickText(t, "Check")
	if _, ok := scr.waitText(t, image.Rectangle{}, "not running here", textWait); !ok {
		scr.shot(t, "no-not-running")
		t.Fatalf("with no server the dialog does not say so (steps in %s)", scr.shots)
	}
	scr.shot(t, "publish-2-filled")
	// The dialog's Save, not the toolbar's (which saves no dialog).
	scr.clickTextIn(t, image.Rect(0, scr.height-90, scr.width, scr.height), "Save")
	time.Sleep(time.Second)

	// `workrun serve` with no file serves the published saved workflows.
	cmd := exec.Command(g.bin, "--data-dir", data, "serve", "--addr", addr)
	cmd.Env = appEnv(filepath.Join(g.tmp, "home-publish-en"))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() }) //nolint:errcheck // the server this test started
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		io.Copy(io.Discard, out) //nolint:errcheck // drain
	}()
	var served []string
wait:
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("workrun serve ended before ready: %v; stderr: %s", served, stderr.String())
			}
			if l == "ready" {
				break wait
			}
			if strings.HasPrefix(l, "a2a ") { // one agent per workflow; the mcp line is the server's one MCP endpoint
				served = append(served, l)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("workrun serve not ready: %v; stderr: %s", served, stderr.String())
		}
	}
	if len(served) != 1 || served[0] != "a2a "+wantURL {
		t.Fatalf("workrun serve serves %v, want the one published workflow at %s (what the dialog shows)", served, wantURL)
	}

	openPublish("3")
	if _, ok := scr.waitText(t, image.Rectangle{}, "running: the agent", textWait); !ok {
		scr.shot(t, "no-running")
		t.Fatalf("with the server up the dialog does not say it runs (steps in %s)", scr.shots)
	}
	scr.shot(t, "publish-4-running")
}
