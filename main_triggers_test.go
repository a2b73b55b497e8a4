package main

import (
	"bytes"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zalando/go-keyring"

	"workrun/serve/trigger"
	"workrun/store"
	"workrun/workrun"
)

// triggerTick fires every second; a missed fire runs once after downtime.
const triggerTick = `{"name":"Tick","state":{"message":"text"},"publish":{"outputs":["message"]},
 "nodes":[{"id":"start","type":"start","config":{"triggers":[{"type":"schedule","cron":"*/1 * * * * *","missed":"run_once","overlap":"allow"}]}},
  {"id":"say","type":"set","config":{"values":{"message":"tick"}}}],
 "edges":[{"from":"start","to":"say"}]}`

const triggerHook = `{"name":"Hook","state":{"name":"text","message":"text"},"publish":{"inputs":["name"],"outputs":["message"]},
 "nodes":[{"id":"start","type":"start","config":{"triggers":[{"type":"webhook","auth":"hmac"}]}},
  {"id":"greet","type":"set","config":{"values":{"message":"Hello, {{name}}!"}}}],
 "edges":[{"from":"start","to":"greet"}]}`

func firesIn(t *testing.T, dataDir, wf string) []workrun.TriggerFire {
	t.Helper()
	st, err := store.Open(t.Context(), dataDir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	f, err := st.Fires(t.Context(), wf, 1000)
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(f, func(a, b workrun.TriggerFire) int { return a.At.Compare(b.At) })
	return f
}

func waitFires(t *testing.T, dataDir, wf string, n int) []workrun.TriggerFire {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if f := firesIn(t, dataDir, wf); len(f) >= n {
			return f
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("fewer than %d fires within 60 s: %+v", n, firesIn(t, dataDir, wf))
	return nil
}

// TestServeTriggers is issue 39's acceptance test against the real binary:
// a `*/1 * * * * *` schedule fires three times, SIGKILL, restart: no fire
// twice (one run per fire), none lost (the fires fell while down make one
// run, missed run_once); a webhook: a valid HMAC signature runs, a wrong
// or replayed one is 401 and runs nothing, the same Idempotency-Key twice
// makes one run.
func TestServeTriggers(t *testing.T) {
	bin := buildWorkrun(t)
	flows := t.TempDir()

	t.Run("ScheduleSIGKILLRestart", func(t *testing.T) {
		data := t.TempDir()
		tick := writeFlow(t, flows, "tick.json", triggerTick)
		s := startServe(t, bin, data, tick)
		before := waitFires(t, data, "tick", 3)
		if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		s.cmd.Wait() //nolint:errcheck // killed: its exit status is the signal
		killed := firesIn(t, data, "tick")
		time.Sleep(4 * time.Second) // down: three or four fires fall; run_once runs the latest
		s2 := startServe(t, bin, data, tick)
		waitFires(t, data, "tick", len(killed)+3)
		if err := s2.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		if err := s2.cmd.Wait(); err != nil {
			t.Fatalf("serve exit: %v %s", err, s2.err)
		}
		fires := firesIn(t, data, "tick")
		t.Logf("%d fires before SIGKILL (%d seen at 3), %d in all", len(killed), len(before), len(fires))
		gaps := 0
		for i, f := range fires {
			if f.State != workrun.FireStarted || f.TaskID == "" {
				t.Errorf("fire %s: %s %q", f.At.Format(time.TimeOnly), f.State, f.TaskID)
			}
			if f.At.Nanosecond() != 0 {
				t.Errorf("fire at %v is not on a second", f.At)
			}
			if i > 0 {
				switch d := f.At.Sub(fires[i-1].At); {
				case d <= 0:
					t.Errorf("fire %v twice", f.At)
				case d > time.Second:
					gaps++
					t.Logf("down from %s to %s: one run for %s (missed run_once)", fires[i-1].At.Format(time.TimeOnly), f.At.Format(time.TimeOnly), f.At.Format(time.TimeOnly))
				}
			}
		}
		if gaps != 1 {
			t.Errorf("%d gaps in the fire times, want 1 (the downtime): %+v", gaps, fires)
		}
		// One run per fire: the runs of the schedule are exactly the fires.
		var runs int
		tasks := map[string]bool{}
		for _, r := range runsIn(t, data) {
			if r.WorkflowName == "Tick" {
				runs++
			}
		}
		for _, f := range fires {
			tasks[f.TaskID] = true
		}
		if runs != len(fires) || len(tasks) != len(fires) {
			t.Fatalf("%d runs and %d tasks for %d fires", runs, len(tasks), len(fires))
		}
		t.Logf("%d fires, %d runs, no fire twice, one gap", len(fires), runs)
	})

	t.Run("WebhookHMAC", func(t *testing.T) {
		probe := "workrun-serve-probe-" + strings.ReplaceAll(t.Name(), "/", "-")
		if err := keyring.Set("workrun-test", probe, "x"); err != nil {
			missing(t, "no Secret Service reachable for webhook secrets: "+err.Error())
		}
		_ = keyring.Delete("workrun-test", probe) // a probe: nothing to keep
		data := t.TempDir()
		hook := writeFlow(t, flows, "hook.json", triggerHook)
		cmd := exec.Command(bin, "--data-dir", data, "serve", "webhook-secret", hook)
		cmd.Env = append(os.Environ(), "LANGUAGE=en")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("webhook-secret: %v %s", err, stderr.String())
		}
		secret := strings.TrimSpace(string(out))
		t.Cleanup(func() { keyring.Delete(trigger.SecretService, "hook") }) //nolint:errcheck // the keyring entry of a test
		if !strings.HasPrefix(secret, "whsec_") {
			t.Fatalf("secret %q", secret)
		}
		s := startServe(t, bin, data, hook)
		var url string
		for _, l := range s.lines {
			if u, ok := strings.CutPrefix(l, "webhook "); ok {
				url = u
			}
		}
		if !strings.HasSuffix(url, "/webhook/hook") {
			t.Fatalf("no webhook line: %q", s.lines)
		}
		send := func(body string, hdr map[string]string) int {
			t.Helper()
			req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			for k, v := range hdr {
				req.Header.Set(k, v)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			return res.StatusCode
		}
		hookRuns := func() int {
			n := 0
			for _, r := range runsIn(t, data) {
				if r.WorkflowName == "Hook" {
					n++
				}
			}
			return n
		}
		body := `{"name":"Ada"}`
		signed := map[string]string{trigger.SignatureHeader: trigger.SignatureValue(secret, time.Now(), []byte(body))}
		if code := send(body, signed); code != http.StatusAccepted {
			t.Fatalf("valid signature: %d %s", code, s.err)
		}
		if code := send(body, signed); code != http.StatusUnauthorized {
			t.Fatalf("replayed signature: %d", code)
		}
		if code := send(body, map[string]string{trigger.SignatureHeader: trigger.SignatureValue("whsec_wrong", time.Now(), []byte(body))}); code != http.StatusUnauthorized {
			t.Fatalf("wrong signature: %d", code)
		}
		if code := send(body, map[string]string{trigger.SignatureHeader: trigger.SignatureValue(secret, time.Now().Add(-10*time.Minute), []byte(body))}); code != http.StatusUnauthorized {
			t.Fatalf("old signature: %d", code)
		}
		if n := hookRuns(); n != 1 {
			t.Fatalf("%d runs after one valid and three refused requests", n)
		}
		for i := range 2 {
			hdr := map[string]string{trigger.SignatureHeader: trigger.SignatureValue(secret, time.Now().Add(time.Duration(i+2)*time.Second), []byte(body)), // a new t: a new signature
				"Idempotency-Key": "order-7"}
			if code := send(body, hdr); code != http.StatusAccepted {
				t.Fatalf("Idempotency-Key request %d: %d", i+1, code)
			}
		}
		if n := hookRuns(); n != 2 {
			t.Fatalf("%d runs, want 2 (the same Idempotency-Key twice is one run)", n)
		}
		raw, err := os.ReadFile(data + "/" + store.FileName)
		wal, _ := os.ReadFile(data + "/" + store.FileName + "-wal") // absent once checkpointed
		raw = append(raw, wal...)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(raw, []byte(secret)) {
			t.Fatal("the webhook secret is in SQLite")
		}
	})
}
