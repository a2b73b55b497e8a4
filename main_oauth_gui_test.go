package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestGUISignIn is the window's Sign in, in the real window under Xvfb at
// 1024×700 and 1440×900, in English and Chinese: the Remote Agent sample's
// agent is pointed at an agent behind OAuth (the a2a-go demo agent with the
// tests' authorization server), Test connection says it wants a sign-in and
// offers Sign in…, the Sign in dialog's button opens the "browser" (curl,
// which follows the authorization server's 302 to Workrun's loopback
// listener), and the dialog says "Signed in to ORIGIN … with scopes …". The
// credential is then in the keyring and listed by `workrun credential
// list` from the same data directory, and chosen for the node. Screenshots
// of the signed-in dialog are kept (WORKRUN_SAVE_SCREENSHOT=1 copies them
// to assets/screenshots/).
func TestGUISignIn(t *testing.T) {
	g := newGUITest(t)
	curl := lookTool(t, "curl")
	for _, c := range []struct {
		lang string
		w, h int
	}{{"en", 1024, 700}, {"zh", 1024, 700}, {"en", 1440, 900}, {"zh", 1440, 900}} {
		t.Run(fmt.Sprintf("%s-%dx%d", c.lang, c.w, c.h), func(t *testing.T) {
			oa := startOAuthAgent(t, cardMetadata)
			tag := fmt.Sprintf("%s-%d", c.lang, c.w)
			home := filepath.Join(g.tmp, "home-"+tag)
			data := filepath.Join(g.tmp, "data-"+tag)
			if err := os.Mkdir(home, 0o700); err != nil {
				t.Fatal(err)
			}
			scr := startXvfb(t, c.w, c.h)
			scr.shots = filepath.Join(g.tmp, "steps-"+tag)
			if d := os.Getenv("WORKRUN_SIGNIN_STEPS"); d != "" {
				scr.shots = filepath.Join(d, tag)
			}
			env := append(withDisplay(appEnv(home), scr.display), sessionKeyring(t, home)...)
			env = append(env, "BROWSER="+curl+" -s -o /dev/null -L")
			if c.lang == "zh" {
				env = append(env, "LANG=zh_CN.UTF-8", "LANGUAGE=zh_CN")
			}
			app := startApp(t, g.bin, []string{"--data-dir", data}, env)
			win := scr.waitWindow(t, app, "^Workrun( |$)")
			time.Sleep(time.Second) // the window takes the screen's size once shown
			w0, h0 := scr.windowSize(t, win)
			scr.openWorkflowList(t, w0, c.lang)

			// Help → Sample: Remote Agent demo; select its agent and type
			// the protected agent's URL.
			sample := "Sample: Remote Agent demo"
			if c.lang == "zh" {
				sample = "示例：远程智能体演示"
			}
			scr.menuItem(t, menuHelpX(c.lang), sample)
			scr.waitTitle(t, app, win, "^Workrun — .+$")
			time.Sleep(2 * time.Second) // the sample is fitted into the canvas
			x, y := sampleNodeCentre(w0, h0, 300, 120)
			scr.click(t, x, y)
			time.Sleep(2 * time.Second) // the inspector shows the agent
			// Make room for the inspector as a person on a small screen
			// would: at 1024×700 the run panel's five rows leave the
			// inspector too short to show Test connection and Sign in….
			if div := runPanelDivider(t, g.importTool, scr); div < h0-150 {
				scr.drag(t, 600, div, 600, h0-150)
				time.Sleep(time.Second)
				if got := runPanelDivider(t, g.importTool, scr); got < signInButtonY+40 {
					scr.shot(t, "0-divider")
					t.Fatalf("the run panel's divider is at y=%d after dragging it from %d to %d (steps in %s)", got, div, h0-150, scr.shots)
				}
			}
			scr.click(t, w0-165, 276)
			time.Sleep(time.Second)
			scr.key(t, "ctrl+a")
			scr.typeText(t, oa.url)
			scr.shot(t, "1-url")
			// Test connection (the inspector's button under the URL).
			scr.click(t, w0-165, signInTestY)
			time.Sleep(2 * time.Second)
			scr.shot(t, "2-tested")
			// Sign in… under the test's result, then the dialog's Sign in.
			scr.click(t, w0-165, signInButtonY)
			time.Sleep(time.Second)
			scr.shot(t, "3-dialog")
			scr.key(t, "Return") // the cursor is in the dialog's URL field
			scr.shot(t, "3b-started")
			deadline := time.Now().Add(60 * time.Second)
			for time.Now().Before(deadline) && oa.as.Stats().CodeExchanges == 0 {
				time.Sleep(300 * time.Millisecond)
			}
			time.Sleep(2 * time.Second) // the dialog shows the outcome
			shot := filepath.Join(g.tmp, "signin-"+tag+".png")
			waitForPicture(t, app, g.importTool, win, shot, "DISPLAY="+scr.display)
			scr.shot(t, "4-signed-in")
			if os.Getenv("WORKRUN_SAVE_SCREENSHOT") != "" {
				saveScreenshot(t, shot, filepath.Join("assets", "screenshots", fmt.Sprintf("signin-%s-%dx%d.png", c.lang, c.w, c.h)))
			}
			if st := oa.as.Stats(); st.Authorizations != 1 || st.CodeExchanges != 1 {
				t.Fatalf("the authorization server saw %+v: the window did not sign in (steps in %s)\n%s", st, scr.shots, app.out.String())
			}
			quitApp(t, app)
			// The same session (keyring) as the window's.
			list := exec.Command(g.bin, "--data-dir", data, "credential", "list")
			list.Env = env
			out, err := list.CombinedOutput()
			name := strings.TrimPrefix(oa.url, "http://")
			if err != nil || !strings.Contains(string(out), name) || !strings.Contains(string(out), "agent:run") {
				t.Errorf("credential list after the window's sign-in: %v\n%s", err, out)
			}
			del := exec.Command(g.bin, "--data-dir", data, "credential", "delete", name)
			del.Env = env
			if out, err := del.CombinedOutput(); err != nil {
				t.Errorf("credential delete %s: %v\n%s", name, err, out)
			}
		})
	}
}

// Where the inspector's Test connection and Sign in… buttons are (x is
// w0-165): within both buttons in English and in Chinese, whose rows are
// a little shorter.
const (
	signInTestY   = 305
	signInButtonY = 345
)
