package workrun

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"syscall"
	"time"
)

// A run's final status on a full disk (docs/engine.md "When the disk is
// full"). The final status (and a Stop's "stopping") is retried for
// Engine.SaveRetryFor; when the store still refuses it, a store that is an
// UnsavedKeeper keeps it in space it reserved when it opened, and from then
// on reads of the run report it as UnsavedRun says: interrupted, because
// its final state could not be saved, with what it had ended as. Such a run
// is never resumed (so a failed run never becomes succeeded, and a person's
// Stop is never undone); `workrun stop` still ends it.

// InterruptedByUnsaved: the run's final state could not be saved (the disk
// was full); the reason says what it had ended as. Not resumable.
const InterruptedByUnsaved Interruption = "unsaved"

// DefaultSaveRetryFor is how long a final status the store refuses is tried
// again.
const DefaultSaveRetryFor = 6 * time.Second

// ErrUnsavedRun: Resume of a run whose final state could not be saved; it
// wraps ErrNotResumable.
var ErrUnsavedRun = fmt.Errorf("its final state could not be saved (run it again): %w", ErrNotResumable)

// UnsavedKeeper is a RunStore that can keep a run's status it refused (a
// full disk) outside its database, in space reserved beforehand, so that
// the status is not lost with the process; reads of the run then report it
// as UnsavedRun says, and the next start saves that report.
type UnsavedKeeper interface {
	// KeepUnsaved keeps r (its status, reason, failed node and end); cause
	// is the store's refusal.
	KeepUnsaved(r Run, cause error) error
}

const (
	msgFinalUnsaved     msgID = "workrun.final_unsaved"
	msgFinalUnsavedFull msgID = "workrun.final_unsaved_full"
	msgUnsavedNotKept   msgID = "workrun.unsaved_not_kept"
	msgStopNotSaved     msgID = "workrun.stop_not_saved"
	msgEndedAs          msgID = "workrun.ended_as"
	msgEndedAsAt        msgID = "workrun.ended_as_at"
)

var unsavedTexts = NewCatalog(map[msgID][2]string{
	msgFinalUnsaved:     {"the final state could not be saved (%v); %s", "最终状态无法保存（%v）；%s"},
	msgFinalUnsavedFull: {"the final state could not be saved (disk full); %s", "最终状态无法保存（磁盘已满）；%s"},
	msgUnsavedNotKept:   {"the run's status %s could not be kept either: %v", "运行状态 %s 也无法保留：%v"},
	msgStopNotSaved:     {"Stop could not be saved, so the run goes on (press Stop again): %v", "无法保存“停止”，运行继续（请再次停止）：%v"},
	msgEndedAs:          {"the run had ended %s: %s", "运行当时已结束为 %s：%s"},
	msgEndedAsAt:        {"the run had ended %s at node %s: %s", "运行当时已在节点 %[2]s 结束为 %[1]s：%[3]s"},
})

// UnsavedRun is how a run r whose status could not be saved (kept by an
// UnsavedKeeper) is reported: interrupted (InterruptedByUnsaved), its reason
// saying that the final state could not be saved and what r had ended as.
// FailedNode and EndedAt are r's.
func UnsavedRun(r Run, diskFull bool, cause string) Run {
	status := r.Status
	if status == RunStopping {
		status = RunStopped // the abort had begun; it ends failed or stopped
		if r.FailedNode != "" {
			status = RunFailed
		}
	}
	var ended string
	if r.FailedNode != "" {
		ended = unsavedTexts.Text(msgEndedAsAt, status, r.FailedNode, r.Reason)
	} else {
		ended = unsavedTexts.Text(msgEndedAs, status, r.Reason)
	}
	r.Status, r.Interruption = RunInterrupted, InterruptedByUnsaved
	if diskFull {
		r.Reason = unsavedTexts.Text(msgFinalUnsavedFull, ended)
	} else {
		r.Reason = unsavedTexts.Text(msgFinalUnsaved, cause, ended)
	}
	if r.EndedAt.IsZero() {
		r.EndedAt = time.Now().UTC()
	}
	return r
}

// IsDiskFull reports whether err is a store's "no space left" refusal.
func IsDiskFull(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, syscall.ENOSPC) {
		return true
	}
	s := err.Error()
	return strings.Contains(s, "disk is full") || strings.Contains(s, "no space left")
}

func (e *Engine) saveRetryFor() time.Duration {
	if e.SaveRetryFor > 0 {
		return e.SaveRetryFor
	}
	return DefaultSaveRetryFor
}

// saveFinal saves r — a final status, or the "stopping" that begins an
// abort — and publishes it. A refusal is tried again, with doubling
// pauses, for SaveRetryFor; then it is reported and, with an
// UnsavedKeeper, kept (and the report form published). It returns an error
// only when r was neither saved nor kept.
func (e *Engine) saveFinal(r Run) error { return e.saveFinalChecked(r, nil) }

// saveFinalChecked is saveFinal for a run whose records were written
// behind: before each try, lost says whether the store gave one of them up,
// and such a run is never saved succeeded (it fails: its record is not
// whole).
func (e *Engine) saveFinalChecked(r Run, lost func() error) error {
	ctx := context.Background()
	update := func() error {
		if lost != nil && r.Status == RunSucceeded {
			if err := lost(); err != nil {
				r.Status, r.Reason = RunFailed, texts.Text(msgSaveFailed, err)
			}
		}
		return e.runs.UpdateRun(ctx, r)
	}
	err := update()
	end := time.Now().Add(e.saveRetryFor())
	for wait := 50 * time.Millisecond; err != nil && time.Now().Add(wait).Before(end); wait *= 2 {
		time.Sleep(wait)
		err = update()
	}
	if err == nil {
		e.publishRun(r)
		return nil
	}
	e.report(r.ID, "", texts.Msg(msgRunNotSaved, r.Status, err))
	k, ok := e.runs.(UnsavedKeeper)
	if !ok {
		return err
	}
	if kerr := k.KeepUnsaved(r, err); kerr != nil {
		e.report(r.ID, "", unsavedTexts.Msg(msgUnsavedNotKept, r.Status, kerr))
		return errors.Join(err, kerr)
	}
	e.publishRun(UnsavedRun(r, IsDiskFull(err), err.Error()))
	return nil
}
