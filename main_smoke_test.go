//go:build linux

package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"workrun/store"
)

// TestGUISmoke starts the real workrun binary on the X display (Xvfb under
// make test), waits for its "Workrun" window, takes a screenshot, checks that
// the window is there and not blank, then closes the app and checks that it
// exited cleanly and left no process behind.
//
// The app runs with LANG=C.UTF-8: under that locale Fyne used to print "Error
// parsing user locale C"; Workrun must fall back to English quietly.
//
// WORKRUN_SAVE_SCREENSHOT=1 also writes the screenshot to docs/screenshot.png
// (make screenshot).
func TestGUISmoke(t *testing.T) {
	g := newGUITest(t)
	xdotool, importTool, tmp, bin, dataDir := g.xdotool, g.importTool, g.tmp, g.bin, g.dataDir
	app := startApp(t, bin, []string{"--data-dir", dataDir}, append(appEnv(g.home), sessionKeyring(t, g.home)...))

	win := waitForWindow(t, app, xdotool)
	if pid := strings.TrimSpace(xdo(t, xdotool, "getwindowpid", win)); pid != strconv.Itoa(app.cmd.Process.Pid) {
		t.Errorf("window %s belongs to pid %s, want the app's pid %d", win, pid, app.cmd.Process.Pid)
	}
	w, h := windowSize(t, xdotool, win)
	if w < 640 || h < 400 {
		t.Errorf("window is %dx%d, want at least 640x400", w, h)
	}

	shot := filepath.Join(tmp, "screenshot.png")
	stats := waitForPicture(t, app, importTool, win, shot)
	t.Logf("screenshot %dx%d: %d distinct colours, most common colour covers %.1f%%",
		stats.w, stats.h, stats.colours, 100*stats.dominant)
	if os.Getenv("WORKRUN_SAVE_SCREENSHOT") != "" {
		saveScreenshot(t, shot, filepath.Join("docs", "screenshot.png"))
	}

	if _, err := os.Stat(filepath.Join(dataDir, store.FileName)); err != nil {
		t.Errorf("first start did not create the data directory and its SQLite file: %v", err)
	}

	quitApp(t, app)

	out := app.out.String()
	t.Logf("workrun output:\n%s", out)
	for _, bad := range []string{"Error parsing user locale", "DATA RACE", "panic:"} {
		if strings.Contains(out, bad) {
			t.Errorf("workrun printed %q", bad)
		}
	}
}

// guiTest is what a real-window test needs: the X tools, a freshly built
// binary, and an empty HOME and data directory.
type guiTest struct {
	xdotool, importTool     string
	tmp, bin, home, dataDir string
}

func newGUITest(t *testing.T) guiTest {
	t.Helper()
	if os.Getenv("DISPLAY") == "" {
		missing(t, "DISPLAY is unset: make test runs the GUI tests under Xvfb")
	}
	g := guiTest{
		xdotool:    lookTool(t, "xdotool"),
		importTool: lookTool(t, "import"), // ImageMagick; not convert, which may be a stand-in
		tmp:        t.TempDir(),
	}
	g.bin = buildWorkrun(t)
	g.home = filepath.Join(g.tmp, "home")
	g.dataDir = filepath.Join(g.tmp, "data")
	if err := os.Mkdir(g.home, 0o700); err != nil {
		t.Fatal(err)
	}
	return g
}

// quitApp closes the app with SIGTERM — Fyne (and ui.Run before the window
// shows) turns it into app.Quit, as from the menu — and checks that it exits
// 0 and leaves no process behind in its process group.
func quitApp(t *testing.T, app *runningApp) {
	t.Helper()
	if err := app.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatalf("send SIGTERM: %v", err)
	}
	select {
	case err := <-app.done:
		if err != nil {
			t.Errorf("workrun did not exit cleanly after SIGTERM: %v\noutput:\n%s", err, app.out.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("workrun still runs 30 s after SIGTERM\noutput:\n%s", app.out.String())
	}
	if left := waitGroupGone(app.cmd.Process.Pid, 5*time.Second); len(left) > 0 {
		t.Errorf("processes left behind in the app's process group: %v", left)
	}
}

// missing skips locally but fails under CI=true, where make test must have
// provided everything (no skip may hide a missing component).
func missing(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatal(why)
	}
	t.Skip(why)
}

func lookTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		missing(t, fmt.Sprintf("%s not found (make test installs it): %v", name, err))
	}
	return p
}

// buildWorkrun is the binary of this package, built once per test process
// (with -race when the test itself was built with -race, so the
// instrumented packages are cached) into a directory TestMain removes:
// every real-binary test runs the same file, and the link of a -race cgo
// binary (~6 s, more under load) is not paid per test.
func buildWorkrun(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		d, err := os.MkdirTemp("", "workrun-testbin-")
		if err != nil {
			built.err = err
			return
		}
		built.dir = d
		bin := filepath.Join(d, "workrun")
		args := []string{"build", "-o", bin}
		if bi, ok := debug.ReadBuildInfo(); ok {
			for _, s := range bi.Settings {
				if s.Key == "-race" && s.Value == "true" {
					args = append(args, "-race")
				}
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "go", append(args, ".")...)
		if out, err := cmd.CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
			return
		}
		built.bin = bin
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

// built is the binary buildWorkrun made for this test process.
var built struct {
	once     sync.Once
	bin, dir string
	err      error
}

// appEnv is the test's environment with a fresh HOME and LANG=C.UTF-8.
func appEnv(home string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "HOME", k == "LANG", k == "LANGUAGE", strings.HasPrefix(k, "LC_"), strings.HasPrefix(k, "XDG_CONFIG_HOME"),
			k == "WORKRUN_DATA_DIR":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "HOME="+home, "LANG=C.UTF-8", "GORACE=halt_on_error=1")
}

type runningApp struct {
	cmd  *exec.Cmd
	out  *syncBuffer
	done chan error // receives Wait's result once
}

func startApp(t *testing.T, bin string, args, env []string) *runningApp {
	t.Helper()
	app := &runningApp{out: &syncBuffer{}, done: make(chan error, 1)}
	app.cmd = exec.Command(bin, args...)
	app.cmd.Env = env
	app.cmd.Stdout, app.cmd.Stderr = app.out, app.out
	// Its own process group, so that whatever it starts can be found afterwards.
	app.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := app.cmd.Start(); err != nil {
		t.Fatalf("start workrun: %v", err)
	}
	exited := make(chan struct{})
	go func() {
		err := app.cmd.Wait()
		close(exited)
		app.done <- err
	}()
	pgid := app.cmd.Process.Pid
	t.Cleanup(func() {
		select {
		case <-exited:
		default:
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
			<-exited
		}
		_ = syscall.Kill(-pgid, syscall.SIGKILL) // anything it left behind
	})
	return app
}

// waitForWindow waits until the app has mapped its "Workrun" window (the
// title may go on with the open workflow: "Workrun — Report").
func waitForWindow(t *testing.T, app *runningApp, xdotool string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	type found struct {
		out []byte
		err error
	}
	res := make(chan found, 1)
	go func() {
		out, err := exec.CommandContext(ctx, xdotool, "search", "--sync", "--onlyvisible", "--name", "^Workrun( |$)").Output()
		res <- found{out, err}
	}()
	select {
	case r := <-res:
		if r.err != nil {
			t.Fatalf("no Workrun window within 90 s: %v\nworkrun output:\n%s", r.err, app.out.String())
		}
		return strings.Fields(string(r.out))[0]
	case err := <-app.done:
		app.done <- err // keep it for the caller
		t.Fatalf("workrun exited before showing its window: %v\noutput:\n%s", err, app.out.String())
	}
	return ""
}

func xdo(t *testing.T, xdotool string, args ...string) string {
	t.Helper()
	out, err := exec.Command(xdotool, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("xdotool %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func windowSize(t *testing.T, xdotool, win string) (w, h int) {
	t.Helper()
	for _, line := range strings.Split(xdo(t, xdotool, "getwindowgeometry", "--shell", win), "\n") {
		k, v, _ := strings.Cut(line, "=")
		n, _ := strconv.Atoi(v)
		switch k {
		case "WIDTH":
			w = n
		case "HEIGHT":
			h = n
		}
	}
	return w, h
}

type pictureStats struct {
	w, h     int
	colours  int     // distinct colours
	dominant float64 // share of pixels in the most common colour
	sum      uint64  // FNV-1a of the pixels, to tell equal frames
}

// blank reports whether a screenshot shows nothing: a window that has not
// drawn yet is one flat colour, while the frame's text, icons and panels give
// hundreds of colours (anti-aliasing) on a background that covers most of it.
func (s pictureStats) blank() bool { return s.colours < 16 || s.dominant > 0.995 }

// waitForPicture takes screenshots of the window until one is not blank: the
// first frames may come before Fyne has drawn the layout. It then waits a
// little for two equal frames, so that the saved picture shows the settled
// layout rather than one mid-resize.
func waitForPicture(t *testing.T, app *runningApp, importTool, win, path string, env ...string) pictureStats {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	var last pictureStats
	stableTries := 0
	for {
		cmd := exec.Command(importTool, "-window", win, "png:"+path)
		cmd.Env = append(os.Environ(), env...) // the last DISPLAY wins
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("import -window %s: %v\n%s", win, err, out)
		}
		prev := last
		last, err = readPicture(path)
		if err != nil {
			t.Fatalf("read screenshot: %v", err)
		}
		if !last.blank() {
			if last.sum == prev.sum || stableTries >= 10 {
				return last
			}
			stableTries++
		} else if time.Now().After(deadline) {
			t.Fatalf("the window stayed blank for 60 s: %d colours, most common %.1f%%\nworkrun output:\n%s",
				last.colours, 100*last.dominant, app.out.String())
		}
		select {
		case err := <-app.done:
			app.done <- err
			t.Fatalf("workrun exited while its window was being captured: %v\noutput:\n%s", err, app.out.String())
		case <-time.After(500 * time.Millisecond):
		}
	}
}

func readPicture(path string) (pictureStats, error) {
	f, err := os.Open(path)
	if err != nil {
		return pictureStats{}, err
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return pictureStats{}, fmt.Errorf("decode %s: %w", path, err)
	}
	return measure(img), nil
}

func measure(img image.Image) pictureStats {
	b := img.Bounds()
	counts := map[[4]uint32]int{}
	sum := fnv.New64a()
	var px [16]byte
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			counts[[4]uint32{r, g, bl, a}]++
			for i, v := range [4]uint32{r, g, bl, a} {
				binary.LittleEndian.PutUint32(px[4*i:], v)
			}
			sum.Write(px[:])
		}
	}
	most := 0
	for _, n := range counts {
		most = max(most, n)
	}
	s := pictureStats{w: b.Dx(), h: b.Dy(), colours: len(counts), sum: sum.Sum64()}
	if total := b.Dx() * b.Dy(); total > 0 {
		s.dominant = float64(most) / float64(total)
	}
	return s
}

func saveScreenshot(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("saved the screenshot to %s", to)
}

// waitGroupGone waits until no process is left in process group pgid and
// returns those still there after timeout.
func waitGroupGone(pgid int, timeout time.Duration) []string {
	deadline := time.Now().Add(timeout)
	for {
		if err := syscall.Kill(-pgid, 0); errors.Is(err, syscall.ESRCH) {
			return nil
		}
		if time.Now().After(deadline) {
			return groupMembers(pgid)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// groupMembers lists "pid (name) state" of the processes in group pgid.
func groupMembers(pgid int) []string {
	var found []string
	dirs, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range dirs {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp …; comm may hold spaces, so cut at the last ')'.
		s := string(data)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) > 2 && f[2] == strconv.Itoa(pgid) {
			found = append(found, strings.TrimSpace(s[:i+1])+" "+f[0])
		}
	}
	return found
}

// syncBuffer is a bytes.Buffer the app's output goroutines may share.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
