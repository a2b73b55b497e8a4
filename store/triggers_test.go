package store

import (
	"errors"
	"sync"
	"testing"
	"time"

	"workrun/workrun"
)

// Two stores on one file record the same fire at once: exactly one wins.
func TestRecordFireOnce(t *testing.T) {
	dir := t.TempDir()
	a, err := Open(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	at := time.Date(2026, 1, 1, 0, 0, 1, 0, time.UTC)
	var wg sync.WaitGroup
	wins := make(chan bool, 16)
	for i := range 16 {
		st := a
		if i%2 == 1 {
			st = b
		}
		wg.Go(func() {
			ok, err := st.RecordFire(t.Context(), workrun.TriggerFire{Workflow: "w", Trigger: 0, At: at, State: workrun.FirePending})
			if err != nil {
				t.Error(err)
			}
			wins <- ok
		})
	}
	wg.Wait()
	close(wins)
	n := 0
	for ok := range wins {
		if ok {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d stores recorded the same fire", n)
	}
	if err := a.SetFire(t.Context(), workrun.TriggerFire{Workflow: "w", At: at, State: workrun.FireStarted, TaskID: "t1"}); err != nil {
		t.Fatal(err)
	}
	if ok, _ := a.RecordFire(t.Context(), workrun.TriggerFire{Workflow: "w", Trigger: 1, At: at, State: workrun.FirePending}); !ok {
		t.Error("another trigger's fire at the same time was refused")
	}
	last, err := b.LastFire(t.Context(), "w", 0)
	if err != nil || last.State != workrun.FireStarted || last.TaskID != "t1" || !last.At.Equal(at) {
		t.Fatalf("last fire: %+v %v", last, err)
	}
	if _, err := b.LastFire(t.Context(), "other", 0); !errors.Is(err, workrun.ErrNotFound) {
		t.Fatalf("no fire: %v", err)
	}
	pend, err := b.Fires(t.Context(), "w", 0, workrun.FirePending, workrun.FireQueued)
	if err != nil || len(pend) != 1 || pend[0].Trigger != 1 {
		t.Fatalf("pending fires: %+v %v", pend, err)
	}
}

func TestSeeSignatureOnce(t *testing.T) {
	st := openTest(t)
	if ok, err := st.SeeSignature(t.Context(), "w", "abc"); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if ok, err := st.SeeSignature(t.Context(), "w", "abc"); ok || err != nil {
		t.Fatal("replay accepted", err)
	}
	if ok, _ := st.SeeSignature(t.Context(), "w2", "abc"); !ok {
		t.Fatal("another webhook's signature refused")
	}
}
