//go:build linux

package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestGUIRunsSampleAgainstDemoAgent is issue 7's real-window test: the real
// binary under Xvfb opens the Remote Agent sample, starts the built-in demo
// agent on loopback, runs the sample, and the window reaches "succeeded". The
// test screenshots the window, checks the picture, and then reads the run
// record back through the CLI to prove the run really succeeded in SQLite.
//
// WORKRUN_SAVE_SCREENSHOT=1 writes the picture to docs/screenshot-run.png.
func TestGUIRunsSampleAgainstDemoAgent(t *testing.T) {
	g := newGUITest(t)
	xdotool, importTool, tmp, bin, dataDir := g.xdotool, g.importTool, g.tmp, g.bin, g.dataDir
	app := startApp(t, bin, []string{"--data-dir", dataDir}, append(appEnv(g.home), "WORKRUN_AUTORUN=remote"))

	// The title ends with the shown run's status once the run is over.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	type found struct {
		out []byte
		err error
	}
	res := make(chan found, 1)
	go func() {
		out, err := exec.CommandContext(ctx, xdotool, "search", "--sync", "--onlyvisible", "--name", "^Workrun .* — (succeeded|failed|stopped|interrupted)$").Output()
		res <- found{out, err}
	}()
	var win string
	select {
	case r := <-res:
		if r.err != nil {
			t.Fatalf("the sample run did not end within 3 min: %v\nworkrun output:\n%s", r.err, app.out.String())
		}
		win = strings.Fields(string(r.out))[0]
	case err := <-app.done:
		t.Fatalf("workrun exited before the run ended: %v\noutput:\n%s", err, app.out.String())
	}
	title := strings.TrimSpace(xdo(t, xdotool, "getwindowname", win))
	if !strings.HasSuffix(title, "— succeeded") {
		t.Fatalf("window title %q: the sample run did not succeed\noutput:\n%s", title, app.out.String())
	}

	shot := filepath.Join(tmp, "run.png")
	stats := waitForPicture(t, app, importTool, win, shot)
	t.Logf("window %q; screenshot %dx%d: %d distinct colours, most common colour covers %.1f%%",
		title, stats.w, stats.h, stats.colours, 100*stats.dominant)
	if os.Getenv("WORKRUN_SAVE_SCREENSHOT") != "" {
		saveScreenshot(t, shot, filepath.Join("docs", "screenshot-run.png"))
	}

	quitApp(t, app) // the demo agent must stop with the app

	// The run record, read back through the CLI from the same data directory.
	out, err := exec.Command(bin, "--data-dir", dataDir, "runs", "--json").Output()
	if err != nil {
		t.Fatalf("workrun runs --json: %v", err)
	}
	var runs []struct {
		Status       string `json:"status"`
		WorkflowName string `json:"workflow_name"`
	}
	if err := json.Unmarshal(out, &runs); err != nil {
		t.Fatalf("workrun runs --json: %v\n%s", err, out)
	}
	if len(runs) != 1 || runs[0].Status != "succeeded" {
		t.Errorf("run records after the GUI run = %+v (raw %s), want one succeeded run", runs, out)
	}
	for _, bad := range []string{"Error parsing user locale", "DATA RACE", "panic:"} {
		if strings.Contains(app.out.String(), bad) {
			t.Errorf("workrun printed %q", bad)
		}
	}
}
