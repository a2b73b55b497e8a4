package ui

import (
	"context"
	"fmt"
	"io"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"

	"workrun/workrun"
)

// newRemotePanel makes a remote task panel whose file results save through
// the artifact store (none when the window has no artifact store).
func (w *Window) newRemotePanel() *RemotePanel {
	if w.deps.Artifacts == nil {
		return NewRemotePanel(nil)
	}
	return NewRemotePanel(w.saveArtifact)
}

// readTasks reads a run's remote task records and the file results found
// in its Remote Agent nodes' outputs; it runs off the UI thread.
func (w *Window) readTasks(ctx context.Context, runID string) ([]workrun.RemoteCall, map[string][]workrun.ArtifactInfo, error) {
	if w.deps.RemoteCalls == nil || runID == "" {
		return nil, nil, nil
	}
	ts, err := w.deps.RemoteCalls(ctx, runID)
	if err != nil {
		return nil, nil, err
	}
	return ts, w.fileResults(ctx, runID, ts), nil
}

// fileResults finds the artifacts each Remote Agent node wrote into file
// fields. A result that cannot be read is left out: the task record above
// it still shows.
func (w *Window) fileResults(ctx context.Context, runID string, ts []workrun.RemoteCall) map[string][]workrun.ArtifactInfo {
	runs, arts := w.deps.Runs, w.deps.Artifacts
	if runs == nil || arts == nil || len(ts) == 0 {
		return nil
	}
	r, err := runs.GetRun(ctx, runID)
	if err != nil {
		return nil
	}
	nrs, err := runs.NodeRuns(ctx, runID)
	if err != nil {
		return nil
	}
	out := map[string][]workrun.ArtifactInfo{}
	for _, n := range nrs {
		if n.Type != "remote_agent" {
			continue
		}
		for field, v := range n.Outputs {
			var ids []string
			switch r.Workflow.State[field] {
			case workrun.FieldFile:
				if s, ok := v.(string); ok {
					ids = append(ids, s)
				}
			case workrun.FieldFiles:
				if xs, ok := v.([]any); ok {
					for _, x := range xs {
						if s, ok := x.(string); ok {
							ids = append(ids, s)
						}
					}
				}
			}
			for _, id := range ids {
				if a, err := arts.Stat(ctx, id); err == nil {
					out[n.NodeID] = append(out[n.NodeID], a)
				}
			}
		}
	}
	return out
}

// saveArtifact asks where to save a file result and copies it there off
// the UI thread.
func (w *Window) saveArtifact(a workrun.ArtifactInfo) {
	d := dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
		if err != nil {
			w.showError(err)
			return
		}
		if wc == nil {
			return // the person cancelled
		}
		var copyErr error
		w.background(func() {
			copyErr = w.copyArtifact(wc, a.ID)
			if err := wc.Close(); err != nil && copyErr == nil {
				copyErr = fmt.Errorf("save file result: %w", err)
			}
		}, func() { w.showError(copyErr) })
	}, w.win)
	d.SetFileName(a.Name)
	d.Resize(dialogSize(w.win))
	d.Show()
}

// copyArtifact writes the artifact id to dst.
func (w *Window) copyArtifact(dst io.Writer, id string) error {
	rc, _, err := w.deps.Artifacts.Open(w.ctx, id)
	if err != nil {
		return fmt.Errorf("open file result: %w", err)
	}
	defer rc.Close()
	if _, err := io.Copy(dst, rc); err != nil {
		return fmt.Errorf("save file result: %w", err)
	}
	return nil
}
