package ui

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	"fyne.io/fyne/v2"

	"workrun/ui/runpanel"
	"workrun/workrun"
)

// File values in node inputs and outputs (ui/runpanel/values.go): the app layer reads
// their descriptions from the artifact store off the UI thread, and opens
// or saves them. Without an artifact store they show by id only.

// wireFiles lets panel p (the window's, or a run record's in window win)
// show file values by name and open and save them.
func (w *Window) wireFiles(p *runpanel.Panel, win fyne.Window) {
	arts := w.deps.Artifacts
	if arts == nil {
		return
	}
	p.OnNeedFiles = func(ids []string) {
		infos, failed := map[string]workrun.ArtifactInfo{}, map[string]error{}
		w.background(func() {
			for _, id := range ids {
				a, err := arts.Stat(w.ctx, id)
				if err != nil {
					failed[id] = err
					continue
				}
				infos[id] = a
			}
		}, func() { p.KnowFiles(infos, failed) })
	}
	p.OnSaveFile = func(id string) {
		var a workrun.ArtifactInfo
		var err error
		w.background(func() { a, err = arts.Stat(w.ctx, id) }, func() {
			if err != nil {
				w.showErrorIn(win, fmt.Errorf("save file result: %w", err))
				return
			}
			w.saveArtifactIn(win, a)
		})
	}
	p.OnOpenFile = func(id string) {
		var path string
		var err error
		w.background(func() { path, err = w.openCopy(id) }, func() {
			if err == nil {
				err = w.openURL(&url.URL{Scheme: "file", Path: path})
			}
			if err != nil {
				w.showErrorIn(win, fmt.Errorf("open file result: %w", err))
			}
		})
	}
}

// openCopy copies artifact id under its own name into a new directory in
// the system's temporary directory, for the desktop's program for that
// type to open (it may read it after Workrun has quit, so it stays there).
func (w *Window) openCopy(id string) (string, error) {
	a, err := w.deps.Artifacts.Stat(w.ctx, id)
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "workrun-open-")
	if err != nil {
		return "", err
	}
	name := filepath.Base(filepath.Clean("/" + a.Name))
	if name == "/" || name == "." {
		name = a.ID
	}
	path := filepath.Join(dir, name)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", err
	}
	copyErr := w.copyArtifact(f, id)
	if err := f.Close(); err != nil && copyErr == nil {
		copyErr = err
	}
	if copyErr != nil {
		return "", errors.Join(copyErr, os.RemoveAll(dir))
	}
	return path, nil
}
