//go:build linux

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"workrun/workrun"
)

// TestGUIRunsSampleAgainstDemoAgent drives the real binary under its own
// Xvfb screen (1440×900) as a person does, with xdotool only: Help → Sample
// from the menu, delete the sample's Output node, drag a new Output from the
// palette onto the canvas, drag from the agent's handle to connect it, tick
// its field in the inspector, retitle the agent by typing, press Run, type
// the question into the inputs dialog and press its Run. The window title
// ends with "succeeded"; the run record read back through the CLI shows
// every edit and the typed question coming back as the answer.
//
// The README's picture of this sample's run (docs/screenshot-run.png) comes
// from scripts/screenshots.sh, which runs the sample unedited.
func TestGUIRunsSampleAgainstDemoAgent(t *testing.T) {
	g := newGUITest(t)
	scr := startXvfb(t, 1440, 900)
	env := append(withDisplay(appEnv(g.home), scr.display), sessionKeyring(t, g.home)...)
	app := startApp(t, g.bin, []string{"--data-dir", g.dataDir}, env)
	win := scr.waitWindow(t, app, "^Workrun( |$)")
	// Below 1600×1000 the window opens over the work area
	// (TestGUIWindowFitsScreen checks it); the clicks below are placed for
	// a 1280×800 window, so it is given that size once it took its own.
	time.Sleep(2 * time.Second)
	scr.run(t, "windowmove", win, "0", "0", "windowsize", win, "1280", "800")
	settle()
	if w, h := scr.windowSize(t, win); w != 1280 || h != 800 {
		t.Fatalf("window %dx%d after sizing it to 1280x800", w, h)
	}
	scr.shots = filepath.Join(g.tmp, "steps")

	// Help → Sample: Remote Agent demo.
	scr.menuItem(t, menuHelpX("en"), "Sample: Remote Agent demo")
	scr.waitTitle(t, app, win, "^Workrun — Remote Agent demo$")
	scr.shot(t, "1-sample")

	// Select the Output node "Answer" and delete it with the Delete key.
	scr.click(t, 885, 135)
	scr.key(t, "Delete")
	scr.waitTitle(t, app, win, "^Workrun — Remote Agent demo •$")

	// Find Output with the palette's filter and drag it to where Answer was.
	scr.click(t, 275, 88)
	scr.typeText(t, "Output")
	scr.drag(t, 275, 152, 885, 300)
	scr.shot(t, "2-dropped")
	// Connect: drag from the agent's output handle onto the new node.
	scr.drag(t, 740, 125, 885, 300)
	// Select the new node and tick "answer" among its fields (the form's
	// problems are under it, so they do not move the fields).
	scr.click(t, 885, 300)
	scr.click(t, 1011, 276)
	scr.shot(t, "3-output")

	// Select the agent and retitle it by typing into the inspector.
	scr.click(t, 669, 130)
	scr.click(t, 1133, 201)
	scr.key(t, "ctrl+a")
	scr.typeText(t, "Ask the demo agent")
	scr.shot(t, "4-typed")

	// Run: the inputs dialog asks for the question only; type one.
	scr.click(t, 416, 49)
	time.Sleep(time.Second)
	scr.shot(t, "5-inputs")
	scr.click(t, 640, inputsEntryY)
	scr.key(t, "ctrl+a")
	scr.typeText(t, "echo Typed by xdotool")
	scr.click(t, inputsRunX, inputsRunY)

	title := scr.waitTitle(t, app, win, "^Workrun .* — (succeeded|failed|stopped|interrupted)$")
	if !strings.HasSuffix(title, "— succeeded") {
		scr.shot(t, "6-end")
		t.Fatalf("window title %q: the run did not succeed (steps in %s)\noutput:\n%s", title, scr.shots, app.out.String())
	}
	shot := filepath.Join(g.tmp, "run.png")
	stats := waitForPicture(t, app, g.importTool, win, shot, "DISPLAY="+scr.display)
	t.Logf("window %q; screenshot %dx%d: %d distinct colours", title, stats.w, stats.h, stats.colours)
	quitApp(t, app) // the demo agent must stop with the app

	// The run record, read back through the CLI from the same data directory.
	out, err := exec.Command(g.bin, "--data-dir", g.dataDir, "runs", "--json").Output()
	if err != nil {
		t.Fatalf("workrun runs --json: %v", err)
	}
	var runs []workrun.Run
	if err := json.Unmarshal(out, &runs); err != nil {
		t.Fatalf("workrun runs --json: %v\n%s", err, out)
	}
	if len(runs) != 1 || runs[0].Status != "succeeded" {
		t.Fatalf("run records after the GUI run = %s, want one succeeded run", out)
	}
	out, err = exec.Command(g.bin, "--data-dir", g.dataDir, "show", runs[0].ID, "--json").Output()
	if err != nil {
		t.Fatalf("workrun show --json: %v", err)
	}
	var shown struct{ Run workrun.Run }
	if err := json.Unmarshal(out, &shown); err != nil {
		t.Fatalf("workrun show --json: %v\n%s", err, out)
	}
	r := shown.Run
	var ids []string
	titles := map[string]string{}
	for _, n := range r.Workflow.Nodes {
		ids = append(ids, n.ID)
		titles[n.ID] = n.Title
	}
	if !slices.Equal(ids, []string{"start", "ask", "output"}) || titles["ask"] != "Ask the demo agent" {
		t.Errorf("the run's workflow has nodes %v, titles %v: want the sample with end replaced by output and ask retitled", ids, titles)
	} else if cfg := r.Workflow.Nodes[2].Config; !slices.Equal(configFields(cfg), []string{"answer"}) {
		t.Errorf("the new output node's config %s, want the answer field ticked", cfg)
	}
	if !slices.Contains(r.Workflow.Edges, workrun.Edge{From: "ask", To: "output"}) {
		t.Errorf("edges %v lack ask → output (the drag-connect)", r.Workflow.Edges)
	}
	if r.Inputs["question"] != "echo Typed by xdotool" {
		t.Errorf("inputs %v, want the typed question", r.Inputs)
	}
	if a, _ := r.State["answer"].(string); !strings.Contains(a, "Typed by xdotool") {
		t.Errorf("answer %q, want the demo agent's echo of the typed question", r.State["answer"])
	}
	for _, bad := range []string{"Error parsing user locale", "DATA RACE", "panic:"} {
		if strings.Contains(app.out.String(), bad) {
			t.Errorf("workrun printed %q", bad)
		}
	}
}

// configFields is an output node's "fields" (nil when the config has none).
func configFields(raw json.RawMessage) []string {
	var c struct{ Fields []string }
	if json.Unmarshal(raw, &c) != nil {
		return nil
	}
	return c.Fields
}

// Where the inputs dialog of the sample puts its question entry and its Run
// button in a 1280×800 window.
const (
	inputsEntryY = 491
	inputsRunX   = 685
	inputsRunY   = 591
)

// screen is a private Xvfb display the test drives with xdotool.
type screen struct {
	display       string
	width, height int
	xdotool       string
	shots         string // directory for step screenshots ("" = none)
}

// startXvfb starts a private X server with one screen of w×h pixels.
func startXvfb(t *testing.T, w, h int) *screen {
	t.Helper()
	xvfb := lookTool(t, "Xvfb")
	r, wr, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(xvfb, ":"+strconv.Itoa(freeDisplay(t)), "-displayfd", "3", "-screen", "0", fmt.Sprintf("%dx%dx24", w, h), "-nolisten", "tcp")
	cmd.ExtraFiles = []*os.File{wr}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start Xvfb: %v", err)
	}
	wr.Close()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(r).ReadString('\n')
		line <- strings.TrimSpace(s)
		r.Close()
	}()
	select {
	case n := <-line:
		if n == "" {
			t.Fatal("Xvfb did not report its display")
		}
		return &screen{display: ":" + n, width: w, height: h, xdotool: lookTool(t, "xdotool")}
	case <-time.After(30 * time.Second):
		t.Fatal("Xvfb did not start within 30 s")
	}
	return nil
}

// freeDisplay is a display number no X server uses: neither its socket
// nor its lock file exists. It is picked at random from a high range, not
// the lowest free one -displayfd alone takes: on a machine where other GUI
// runs start servers too, and a lock file can be missing, two servers took
// the same lowest number and the second unlinked the first's socket (its
// tests then failed with "Can't open display").
func freeDisplay(t *testing.T) int {
	t.Helper()
	for range 200 {
		n := 300 + rand.IntN(3000)
		_, errSock := os.Stat(fmt.Sprintf("/tmp/.X11-unix/X%d", n))
		_, errLock := os.Stat(fmt.Sprintf("/tmp/.X%d-lock", n))
		if errors.Is(errSock, fs.ErrNotExist) && errors.Is(errLock, fs.ErrNotExist) {
			return n
		}
	}
	t.Fatal("no free X display number")
	return 0
}

// withDisplay returns env with DISPLAY set to display.
func withDisplay(env []string, display string) []string {
	out := slices.DeleteFunc(slices.Clone(env), func(kv string) bool { return strings.HasPrefix(kv, "DISPLAY=") })
	return append(out, "DISPLAY="+display)
}

func (s *screen) run(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(s.xdotool, args...)
	cmd.Env = withDisplay(os.Environ(), s.display)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("xdotool %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// settle gives the app a moment to handle what was just sent; a -race
// build of the app is several times slower.
func settle() {
	if raceBuild() {
		time.Sleep(1500 * time.Millisecond)
		return
	}
	time.Sleep(600 * time.Millisecond)
}

// raceBuild reports whether this test (and so the app it builds) has -race.
func raceBuild() bool {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "-race" && s.Value == "true" {
				return true
			}
		}
	}
	return false
}

func (s *screen) click(t *testing.T, x, y int) {
	t.Helper()
	s.run(t, "mousemove", fmt.Sprint(x), fmt.Sprint(y))
	time.Sleep(100 * time.Millisecond)
	s.run(t, "click", "1")
	settle()
}

func (s *screen) key(t *testing.T, keys string) {
	t.Helper()
	s.run(t, "key", keys)
	settle()
}

func (s *screen) typeText(t *testing.T, text string) {
	t.Helper()
	s.run(t, "type", "--delay", "30", text)
	settle()
}

// Where the menu bar's menus are (x; the bar is at y=14). File is at the
// same place in English and Chinese; the Workflow menu before Run is wider
// in English, so Settings and Help are further right there.
const menuFileX = 27

// menuSettingsX and menuHelpX are where Settings and Help are in the
// window's language lng ("en" or "zh").
func menuSettingsX(lng string) int {
	if lng == "zh" {
		return 284
	}
	return 308
}

func menuHelpX(lng string) int {
	if lng == "zh" {
		return 331
	}
	return 369
}

// menuItem opens the menu at x on the menu bar and clicks its item label,
// found on the screen by its text (guitext_test.go): an item's position
// moves whenever the menu gains one.
func (s *screen) menuItem(t *testing.T, x int, label string) {
	t.Helper()
	s.click(t, x, 14)
	s.clickTextIn(t, image.Rect(max(0, x-30), 22, min(s.width, x+560), s.height), label)
}

// drag presses the button at (x0, y0), moves in steps to (x1, y1) and lets go.
func (s *screen) drag(t *testing.T, x0, y0, x1, y1 int) {
	t.Helper()
	s.run(t, "mousemove", fmt.Sprint(x0), fmt.Sprint(y0))
	time.Sleep(100 * time.Millisecond)
	s.run(t, "mousedown", "1")
	const steps = 8
	for i := 1; i <= steps; i++ {
		s.run(t, "mousemove", fmt.Sprint(x0+(x1-x0)*i/steps), fmt.Sprint(y0+(y1-y0)*i/steps))
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond)
	s.run(t, "mouseup", "1")
	settle()
}

// shot saves a screenshot of the screen as step name, for a failure's report.
func (s *screen) shot(t *testing.T, name string) {
	t.Helper()
	if s.shots == "" {
		return
	}
	if err := os.MkdirAll(s.shots, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(lookTool(t, "import"), "-window", "root", "png:"+filepath.Join(s.shots, name+".png"))
	cmd.Env = withDisplay(os.Environ(), s.display)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Logf("screenshot %s: %v\n%s", name, err, out)
	}
}

func (s *screen) waitWindow(t *testing.T, app *runningApp, pattern string) string {
	t.Helper()
	return s.waitFor(t, app, pattern, 90*time.Second)
}

// waitTitle waits until the window's title matches pattern and returns it.
func (s *screen) waitTitle(t *testing.T, app *runningApp, win, pattern string) string {
	t.Helper()
	re := regexp.MustCompile(pattern)
	deadline := time.Now().Add(3 * time.Minute)
	for {
		title := strings.TrimSpace(s.run(t, "getwindowname", win))
		if re.MatchString(title) {
			return title
		}
		if time.Now().After(deadline) {
			s.shot(t, "timeout")
			t.Fatalf("window title %q never matched %q (steps in %s)\noutput:\n%s", title, pattern, s.shots, app.out.String())
		}
		select {
		case err := <-app.done:
			app.done <- err
			t.Fatalf("workrun exited while waiting for the title %q: %v\noutput:\n%s", pattern, err, app.out.String())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func (s *screen) waitFor(t *testing.T, app *runningApp, pattern string, timeout time.Duration) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	type found struct {
		out []byte
		err error
	}
	res := make(chan found, 1)
	go func() {
		cmd := exec.CommandContext(ctx, s.xdotool, "search", "--sync", "--onlyvisible", "--name", pattern)
		cmd.Env = withDisplay(os.Environ(), s.display)
		out, err := cmd.Output()
		res <- found{out, err}
	}()
	select {
	case r := <-res:
		if r.err != nil {
			t.Fatalf("no window %q within %s: %v\nworkrun output:\n%s", pattern, timeout, r.err, app.out.String())
		}
		return strings.Fields(string(r.out))[0]
	case err := <-app.done:
		app.done <- err
		t.Fatalf("workrun exited before showing its window: %v\noutput:\n%s", err, app.out.String())
	}
	return ""
}

func (s *screen) windowSize(t *testing.T, win string) (w, h int) {
	t.Helper()
	for _, line := range strings.Split(s.run(t, "getwindowgeometry", "--shell", win), "\n") {
		k, v, _ := strings.Cut(line, "=")
		var n int
		fmt.Sscan(v, &n)
		switch k {
		case "WIDTH":
			w = n
		case "HEIGHT":
			h = n
		}
	}
	return w, h
}

// TestGUIWindowFitsScreen runs the real binary on screens of 1024×700 and
// 1440×900 and checks that its window never grows past the screen (nor past
// the size it opened with): after adding and selecting a node of each kind
// (the inspector shows each form) and after a run that fails with a long
// error (a Remote Agent URL of 300 characters, typed into the inspector).
//
// WORKRUN_SAVE_SCREENSHOT=1 writes docs/screenshot-WxH.png.
func TestGUIWindowFitsScreen(t *testing.T) {
	g := newGUITest(t)
	for _, size := range [][2]int{{1024, 700}, {1440, 900}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			home := filepath.Join(g.tmp, fmt.Sprintf("home-%d", size[0]))
			data := filepath.Join(g.tmp, fmt.Sprintf("data-%d", size[0]))
			if err := os.Mkdir(home, 0o700); err != nil {
				t.Fatal(err)
			}
			scr := startXvfb(t, size[0], size[1])
			scr.shots = filepath.Join(g.tmp, fmt.Sprintf("steps-%d", size[0]))
			env := append(withDisplay(appEnv(home), scr.display), sessionKeyring(t, home)...)
			app := startApp(t, g.bin, []string{"--data-dir", data}, env)
			win := scr.waitWindow(t, app, "^Workrun( |$)")
			// The window takes the screen's size once shown; on a loaded
			// machine that can take a while.
			w0, h0 := scr.windowSize(t, win)
			for deadline := time.Now().Add(60 * time.Second); (w0 > size[0] || h0 > size[1]) && time.Now().Before(deadline); {
				time.Sleep(500 * time.Millisecond)
				w0, h0 = scr.windowSize(t, win)
			}
			// Below 1600×1000 it then takes the screen's work area (Xvfb
			// has no panels: the whole screen); the app resizes it once
			// started, which a loaded machine may draw late.
			for deadline := time.Now().Add(60 * time.Second); (w0 < size[0] || h0 < size[1]) && time.Now().Before(deadline); {
				time.Sleep(500 * time.Millisecond)
				w0, h0 = scr.windowSize(t, win)
			}
			time.Sleep(time.Second)
			if w0 > size[0] || h0 > size[1] || w0 < 1000 || h0 < 600 {
				t.Fatalf("window opened at %dx%d on a %dx%d screen", w0, h0, size[0], size[1])
			}
			// Below 1600×1000 it takes the screen's work area (Xvfb has no
			// panels: the whole screen).
			if w0 < size[0] || h0 < size[1] {
				t.Errorf("window opened at %dx%d on a %dx%d screen, want it maximised (the work area)", w0, h0, size[0], size[1])
			}
			scr.openWorkflowList(t, w0, "en")
			fits := func(after string) {
				t.Helper()
				if w, h := scr.windowSize(t, win); w != w0 || h != h0 {
					scr.shot(t, "grown")
					t.Errorf("after %s the window is %dx%d, was %dx%d on a %dx%d screen (steps in %s)", after, w, h, w0, h0, size[0], size[1], scr.shots)
				}
			}
			// Each kind, found with the palette's filter box and added by a click.
			for _, kind := range []string{"Remote Agent", "Start", "Set", "Condition", "Join", "Output", "Human Review", "Ask Human", "Process"} {
				scr.click(t, 275, 88)
				scr.key(t, "ctrl+a")
				scr.typeText(t, kind)
				scr.click(t, 275, 152)
				fits("adding and selecting a " + kind + " node")
			}
			scr.waitTitle(t, app, win, "•$") // the nodes were added: unsaved changes

			// The sample, its agent's URL made long by typing, and a run.
			scr.menuItem(t, menuHelpX("en"), "Sample: Remote Agent demo")
			scr.waitTitle(t, app, win, "^Workrun — Remote Agent demo$")
			x, y := sampleNodeCentre(w0, h0, 300, 120)
			scr.click(t, x, y)
			scr.click(t, w0-165, 276)
			scr.key(t, "ctrl+a")
			scr.typeText(t, "http://127.0.0.1:9/"+strings.Repeat("a-very-long-path-", 17))
			fits("typing a long URL")
			scr.click(t, 416, 49)
			// The inputs dialog is up before its Run is pressed: on a loaded
			// machine (the app built with -race) it may take seconds.
			if _, ok := scr.waitText(t, image.Rect(0, 0, w0, h0), "Run inputs", 60*time.Second); !ok {
				scr.shot(t, "no-inputs-dialog")
				t.Fatalf("the run inputs dialog did not open (steps in %s)", scr.shots)
			}
			dx, dy := (1280-w0)/2, (800-h0)/2
			scr.click(t, inputsRunX-dx, inputsRunY-dy)
			scr.waitTitle(t, app, win, "— failed$")
			time.Sleep(time.Second)
			fits("a run that failed with a long error")

			shot := filepath.Join(g.tmp, fmt.Sprintf("fits-%d.png", size[0]))
			waitForPicture(t, app, g.importTool, win, shot, "DISPLAY="+scr.display)
			if os.Getenv("WORKRUN_SAVE_SCREENSHOT") != "" {
				saveScreenshot(t, shot, filepath.Join("docs", fmt.Sprintf("screenshot-%dx%d.png", size[0], size[1])))
			}
			quitApp(t, app)
		})
	}
}

// sampleNodeCentre is where a node at workflow position (x, y) of the
// Remote Agent sample is drawn once the sample is fitted into the canvas of
// a w×h window with the default pane sizes (measured at 1280×800: the
// canvas starts at (353, 76) and is 635×474).
func sampleNodeCentre(w, h, x, y int) (int, int) {
	cw, ch := float64(w-353-292), float64(h-76-250)
	z := max(0.6, min(1, (cw-60)/690, (ch-60)/58)) // Fit stops at a readable 60 %
	return 353 + int(30+float64(x-40)*z+85*z), 76 + int(30+float64(y-120)*z+29*z)
}

// sessionKeyring gives the app a D-Bus session with an unlocked Secret
// Service (gnome-keyring) when the test has none (make test runs inside
// one): without it the app opens with its "No OS keyring" dialog over the
// window, which a person would close first. It returns the environment to
// add; the daemons end with the test.
func sessionKeyring(t *testing.T, home string) []string {
	t.Helper()
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") != "" {
		return nil
	}
	bus := exec.Command(lookTool(t, "dbus-daemon"), "--session", "--nofork", "--print-address=1")
	out, err := bus.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := bus.Start(); err != nil {
		t.Fatalf("start dbus-daemon: %v", err)
	}
	t.Cleanup(func() { _ = bus.Process.Kill(); _ = bus.Wait() })
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("dbus-daemon address: %v", err)
	}
	env := []string{"DBUS_SESSION_BUS_ADDRESS=" + strings.TrimSpace(addr)}
	kr := exec.Command(lookTool(t, "gnome-keyring-daemon"), "--foreground", "--unlock", "--components=secrets")
	kr.Env = append(withDisplay(os.Environ(), ""), append(env, "HOME="+home)...)
	kr.Stdin = strings.NewReader("workrun-test")
	if err := kr.Start(); err != nil {
		t.Fatalf("start gnome-keyring-daemon: %v", err)
	}
	t.Cleanup(func() { _ = kr.Process.Kill(); _ = kr.Wait() })
	// Wait until it owns the Secret Service name.
	for range 100 {
		q := exec.Command("dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
			"org.freedesktop.DBus.NameHasOwner", "string:org.freedesktop.secrets")
		q.Env = append(os.Environ(), env...)
		if b, _ := q.Output(); strings.Contains(string(b), "boolean true") {
			return env
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("gnome-keyring-daemon did not take org.freedesktop.secrets within 10 s")
	return nil
}
