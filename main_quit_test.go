//go:build linux

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"workrun/store"
	"workrun/workrun"
)

// TestGUIQuit drives quitting in the real binary (built with -race under
// make test), in English and Chinese, as a person does with xdotool:
//
//   - Ctrl+Q with no run going quits at once, cleanly;
//   - Ctrl+Q while a run streams progress (the demo agent's "slow" task,
//     so the window's goroutines hand Fyne work all the time) asks first:
//     the quit dialog's Quit button appears and the app is still there
//     seconds later; the dialog's Quit quits, exit 0 with no data race
//     (fyne-io/fyne#5748), and the run is left interrupted (resumable),
//     never cancelled.
//
// The machine may be loaded (make test runs beside other builds): every
// step waits for what it needs (the window mapped and drawn, keyboard
// focus, the title, the dialog's button on the screen) with long
// deadlines, and a keystroke is sent again only where a second one cannot
// do more than the first (Ctrl+Q when nothing happened yet).
func TestGUIQuit(t *testing.T) {
	g := newGUITest(t)
	agentURL := startDemoAgentProcess(t, g.bin)
	for _, lng := range []struct{ name, lang, running string }{
		{"en", "C.UTF-8", "running"},
		{"zh", "zh_CN.UTF-8", "运行中"},
	} {
		t.Run(lng.name, func(t *testing.T) {
			home := filepath.Join(g.tmp, "home-"+lng.name)
			data := filepath.Join(g.tmp, "data-"+lng.name)
			if err := os.Mkdir(home, 0o700); err != nil {
				t.Fatal(err)
			}
			seedWorkflow(t, data, streamingFlow(agentURL))
			scr := startXvfb(t, 1440, 900)
			scr.shots = filepath.Join(g.tmp, "quit-steps-"+lng.name)
			env := append(withDisplay(appEnv(home), scr.display), sessionKeyring(t, home)...)
			env = append(env, "LANG="+lng.lang)

			// No run: Ctrl+Q quits at once.
			app := startApp(t, g.bin, []string{"--data-dir", data}, env)
			win := scr.readyWindow(t, app, g.importTool)
			scr.quitKey(t, app, win, func() bool { return exited(app, 20*time.Second) })
			waitExit(t, app, "Ctrl+Q with no run going")

			// A run going: Ctrl+Q asks; Quit in the dialog quits.
			app = startApp(t, g.bin, []string{"--data-dir", data}, env)
			win = scr.readyWindow(t, app, g.importTool)
			startStreamingRun(t, scr, app, win, g.bin, data, lng.running)
			scr.quitKey(t, app, win, func() bool {
				if exited(app, 0) {
					t.Fatalf("Ctrl+Q during a run quit without asking\n%s", app.out.String())
				}
				return scr.waitQuitButton(t, win, 20*time.Second)
			})
			if exited(app, 3*time.Second) {
				t.Fatalf("Ctrl+Q during a run quit without asking\n%s", app.out.String())
			}
			scr.shot(t, "quit-dialog")
			qx, qy := scr.quitButtonAt(t, win)
			scr.click(t, qx, qy)
			waitExit(t, app, "Quit in the quit dialog")
			runs := cliRuns(t, g.bin, data)
			if len(runs) != 1 || runs[0].Status != workrun.RunInterrupted {
				t.Fatalf("after quitting during the run the records are %+v, want one interrupted run (resumable)", runs)
			}
		})
	}
}

// Where the quit dialog's Quit button is, in English and in Chinese, from
// the window's centre (the dialog is centred in the window, which takes
// the screen's work area below 1600×1000), and the workflow list's first
// row.
const (
	quitDialogQuitDX = 50
	quitDialogQuitDY = 114
	firstWorkflowX   = 60
	firstWorkflowY   = 204
)

// readyWindow waits until the app's window is mapped and drawn, then gives
// it the keyboard focus (Xvfb has no window manager to do that).
func (s *screen) readyWindow(t *testing.T, app *runningApp, importTool string) string {
	t.Helper()
	win := s.waitWindow(t, app, "^Workrun( |$)")
	waitForPicture(t, app, importTool, win, filepath.Join(t.TempDir(), "ready.png"), "DISPLAY="+s.display)
	s.focus(t, win)
	return win
}

// focus gives win the keyboard focus and waits until X says it has it.
func (s *screen) focus(t *testing.T, win string) {
	t.Helper()
	for try := 1; ; try++ {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		cmd := exec.CommandContext(ctx, s.xdotool, "windowfocus", "--sync", win)
		cmd.Env = withDisplay(os.Environ(), s.display)
		out, err := cmd.CombinedOutput()
		cancel()
		if err == nil {
			return
		}
		if try == 3 {
			t.Fatalf("xdotool windowfocus --sync %s: %v\n%s", win, err, out)
		}
	}
}

// quitKey presses Ctrl+Q in the focused window until done reports that it
// did what it should (three tries: a keystroke sent while the window is
// still busy starting can be lost; a second Ctrl+Q before anything
// happened does no more than the first).
func (s *screen) quitKey(t *testing.T, app *runningApp, win string, done func() bool) {
	t.Helper()
	for try := 1; try <= 3; try++ {
		s.focus(t, win)
		s.run(t, "key", "ctrl+q")
		if done() {
			return
		}
		t.Logf("Ctrl+Q try %d: nothing happened yet", try)
	}
	s.shot(t, "ctrl-q-lost")
	t.Fatalf("three Ctrl+Q did nothing (steps in %s)\n%s", s.shots, app.out.String())
}

// quitButtonAt is where the quit dialog's Quit button is in win.
func (s *screen) quitButtonAt(t *testing.T, win string) (x, y int) {
	t.Helper()
	w, h := s.windowSize(t, win)
	return w/2 + quitDialogQuitDX, h/2 + quitDialogQuitDY
}

// waitQuitButton waits until the quit dialog's Quit button (the dialog's
// primary, blue button) is on the screen.
func (s *screen) waitQuitButton(t *testing.T, win string, timeout time.Duration) bool {
	t.Helper()
	deadline := time.Now().Add(timeout)
	x, y := s.quitButtonAt(t, win)
	for {
		if r, g, b, ok := s.pixel(x, y); ok && b > r+60 && b > g+30 {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// pixel reads the colour of one screen pixel (8 bits per channel).
func (s *screen) pixel(x, y int) (r, g, b int, ok bool) {
	cmd := exec.Command("import", "-window", "root", "-crop", fmt.Sprintf("1x1+%d+%d", x, y), "-depth", "8", "rgb:-")
	cmd.Env = withDisplay(os.Environ(), s.display)
	out, err := cmd.Output()
	if err != nil || len(out) < 3 {
		return 0, 0, 0, false
	}
	return int(out[0]), int(out[1]), int(out[2]), true
}

// exited reports whether the app exits within d (keeping its result for
// waitExit).
func exited(app *runningApp, d time.Duration) bool {
	select {
	case err := <-app.done:
		app.done <- err
		return true
	case <-time.After(d):
		return false
	}
}

// startStreamingRun opens the seeded workflow (the list's first row) and
// runs it with Ctrl+R, then waits until the title says it is running. A
// click is repeated while the workflow is not open; Ctrl+R only while the
// store holds no run (a second one would start a second run).
func startStreamingRun(t *testing.T, scr *screen, app *runningApp, win, bin, data, running string) {
	t.Helper()
	opened := false
	for try := 1; try <= 3 && !opened; try++ {
		scr.click(t, firstWorkflowX, firstWorkflowY)
		_, opened = scr.titleWithin(t, app, win, "^Workrun — Streaming$", 30*time.Second)
	}
	if !opened {
		scr.waitTitle(t, app, win, "^Workrun — Streaming$") // fails with the title and a picture
	}
	for try := 1; ; try++ {
		scr.focus(t, win)
		scr.run(t, "key", "ctrl+r")
		if _, ok := scr.titleWithin(t, app, win, "— "+running+"$", 30*time.Second); ok {
			break
		}
		if len(cliRuns(t, bin, data)) > 0 || try == 3 {
			scr.waitTitle(t, app, win, "— "+running+"$")
			break
		}
		t.Logf("Ctrl+R try %d: no run started yet", try)
	}
	time.Sleep(2 * time.Second) // progress streams in
}

// titleWithin is waitTitle with its own deadline, reporting a miss
// instead of failing.
func (s *screen) titleWithin(t *testing.T, app *runningApp, win, pattern string, d time.Duration) (string, bool) {
	t.Helper()
	re := regexp.MustCompile(pattern)
	deadline := time.Now().Add(d)
	for {
		title := strings.TrimSpace(s.run(t, "getwindowname", win))
		if re.MatchString(title) {
			return title, true
		}
		if time.Now().After(deadline) {
			return title, false
		}
		if exited(app, 200*time.Millisecond) {
			t.Fatalf("workrun exited while waiting for the title %q\noutput:\n%s", pattern, app.out.String())
		}
	}
}

// waitExit waits for the app to exit 0 by itself, with no race reported.
func waitExit(t *testing.T, app *runningApp, after string) {
	t.Helper()
	select {
	case err := <-app.done:
		if err != nil {
			t.Fatalf("after %s workrun exited with %v\n%s", after, err, app.out.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("after %s workrun still runs 60 s later\n%s", after, app.out.String())
	}
	if out := app.out.String(); strings.Contains(out, "DATA RACE") || strings.Contains(out, "panic:") {
		t.Fatalf("after %s workrun printed:\n%s", after, out)
	}
}

// streamingFlow asks the demo agent for a long stream of progress updates.
func streamingFlow(agentURL string) workrun.Workflow {
	pos := func(x float32) *workrun.Position { return &workrun.Position{X: x, Y: 120} }
	return workrun.Workflow{
		Name:  "Streaming",
		State: map[string]workrun.FieldType{"question": workrun.FieldText, "answer": workrun.FieldText},
		Nodes: []workrun.NodeSpec{
			{ID: "start", Type: "start", Position: pos(40)},
			{ID: "ask_for", Type: "set", Config: json.RawMessage(`{"values":{"question":"slow 100000 5"}}`), Position: pos(240)},
			{ID: "ask", Type: "remote_agent", Title: "Stream", Config: json.RawMessage(fmt.Sprintf(
				`{"url":%q,"inputs":["question"],"output":"answer","timeout_seconds":600}`, agentURL)), Position: pos(440)},
			{ID: "end", Type: "output", Config: json.RawMessage(`{"fields":["answer"]}`), Position: pos(640)},
		},
		Edges: []workrun.Edge{{From: "start", To: "ask_for"}, {From: "ask_for", To: "ask"}, {From: "ask", To: "end"}},
	}
}

// seedWorkflow saves wf in the data directory, as a person's earlier
// session would have.
func seedWorkflow(t *testing.T, dataDir string, wf workrun.Workflow) {
	t.Helper()
	st, err := store.Open(t.Context(), dataDir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.SaveWorkflow(t.Context(), "", wf); err != nil {
		t.Fatal(err)
	}
}

// cliRuns reads the run records back through the CLI.
func cliRuns(t *testing.T, bin, dataDir string) []workrun.Run {
	t.Helper()
	out, err := exec.Command(bin, "--data-dir", dataDir, "runs", "--json").Output()
	if err != nil {
		t.Fatalf("workrun runs --json: %v", err)
	}
	var runs []workrun.Run
	if err := json.Unmarshal(out, &runs); err != nil {
		t.Fatalf("workrun runs --json: %v\n%s", err, out)
	}
	return runs
}

// startDemoAgentProcess runs `workrun demo-agent` on a free loopback port
// for the test's length and returns its URL.
func startDemoAgentProcess(t *testing.T, bin string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(bin, "demo-agent", "--addr", addr)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start the demo agent: %v", err)
	}
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); _ = cmd.Wait() })
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return "http://" + addr
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("the demo agent did not listen within 60 s")
	return ""
}
