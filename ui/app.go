package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"workrun/assets"
	"workrun/workrun"
)

// AppID is the Fyne app id, as in FyneApp.toml.
const AppID = "app.workrun.desktop"

// Run opens the "Workrun" window and blocks until it is closed.
func Run(d Deps) error {
	SetupLanguage(d.Lang)
	a := app.NewWithID(AppID)
	// Fyne catches SIGTERM only once ShowAndRun is under way; until then a
	// SIGTERM would kill the process without the clean exit (engine Close,
	// store flush) that a quit gives.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	go func() {
		if _, ok := <-sigs; ok {
			fyne.Do(a.Quit)
		}
	}()
	a.SetIcon(fyne.NewStaticResource("icon.png", assets.Icon))
	if d.Lang == "" {
		if p := a.Preferences().String("lang"); p != "" {
			SetupLanguage(p)
		}
	}
	w := NewWindow(a, d)
	w.win.ShowAndRun()
	w.Close()
	return nil
}

// Window is the main window and everything in it.
type Window struct {
	deps Deps
	app  fyne.App
	win  fyne.Window
	wfs  workrun.WorkflowStore
	ctx  context.Context
	stop context.CancelFunc

	wfID    string
	doc     *Document
	recs    []workrun.WorkflowRecord
	list    *widget.List
	cv      *CanvasView
	insp    *Inspector
	probs   []Problem
	probBox *widget.List
	panel   *RunPanel
	tasks   *RemotePanel
	records *RecordsView
	tabs    *container.AppTabs
	runBtn  *widget.Button
	stopBtn *widget.Button
	status  *widget.Label
	undoBtn *widget.Button
	redoBtn *widget.Button

	// applied, when set before the first event, is called after each event
	// was shown (tests wait on it; the test driver runs fyne.Do inline).
	applied  func(Event)
	pumpDone chan struct{} // closed when the event goroutine has ended

	rs runState // run-related app state (run.go)

	demoURL  string
	demoStop func()
	unsub    func()
}

// NewWindow builds the window without showing it (tests use the test app).
func NewWindow(a fyne.App, d Deps) *Window {
	if e, ok := d.Engine.(*workrun.Engine); ok && e == nil {
		d.Engine = nil // a nil *Engine in the interface is no engine
	}
	w := &Window{deps: d, app: a, wfs: d.Workflows}
	if w.wfs == nil {
		w.wfs = newMemWorkflows()
	}
	w.ctx, w.stop = context.WithCancel(context.Background())
	w.win = a.NewWindow("Workrun")
	w.win.Resize(fyne.NewSize(1280, 800))
	w.doc = NewDocument(workrun.Workflow{Name: lang.X("wf.untitled", "Untitled workflow")})
	w.build()
	w.subscribe()
	w.reloadList("")
	w.newWorkflow()
	if len(w.recs) == 0 {
		w.setStatus(lang.X("help.first", "New here? Help → Sample: Remote Agent demo starts the demo agent and opens a workflow you can run at once."))
	}
	w.noteInterrupted()
	switch d.AutoRun {
	case "remote":
		w.autoRun(SampleRemote)
	case "parallel":
		w.autoRun(SampleParallel)
	}
	return w
}

// autoRun opens a sample and runs it with its sample inputs.
func (w *Window) autoRun(sample func(string) workrun.Workflow) {
	w.openSample(sample)
	if w.deps.Engine == nil || len(w.probs) > 0 {
		w.setStatus(lang.X("help.autorun_failed", "cannot run the sample"))
		return
	}
	wf := w.doc.Workflow()
	in := workrun.Values{}
	for k, v := range SampleInputs[wf.Name] {
		in[k] = v
	}
	w.launch(wf, in)
}

// Close ends the event subscription and the demo agent.
func (w *Window) Close() {
	if w.unsub != nil {
		w.unsub()
	}
	if w.demoStop != nil {
		w.demoStop()
	}
	w.stop()
}

// Canvas returns the canvas view (tests drive it).
func (w *Window) Canvas() *CanvasView { return w.cv }

// FyneWindow returns the Fyne window.
func (w *Window) FyneWindow() fyne.Window { return w.win }

// build makes every widget and the menus; it is called again when the
// language changes.
func (w *Window) build() {
	applyTheme(w.app)
	w.cv = NewCanvasView(w.doc, false)
	w.cv.OnSelect = func() { w.insp.Show() }
	w.cv.OnError = func(err error) { w.setStatus(err.Error()) }
	w.doc.OnChange = w.docChanged

	w.insp = NewInspector(w)
	w.panel = NewRunPanel(w.deps.Runs, false)
	w.panel.OnStatus = w.cv.SetStatus
	w.panel.OnStop = w.stopRun
	w.panel.OnResume = w.resumeRun
	w.panel.OnRunAgain = w.runAgain
	w.panel.OnDecide = w.decide
	w.panel.OnRunChanged = w.refreshTasks
	w.tasks = NewRemotePanel(w.deps.RemoteCalls, w.deps.Runs, w.deps.Artifacts, w.win)
	w.records = NewRecordsView(w)

	w.list = widget.NewList(func() int { return len(w.recs) },
		func() fyne.CanvasObject { return widget.NewLabel("workflow name") },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			r := w.recs[i]
			o.(*widget.Label).SetText(r.Workflow.Name)
		})
	w.list.OnSelected = func(i widget.ListItemID) {
		if i < len(w.recs) && w.recs[i].ID != w.wfID {
			w.open(w.recs[i])
		}
	}
	listBar := container.NewGridWithColumns(3,
		w.button(lang.X("wf.new", "New"), theme.ContentAddIcon(), w.newWorkflow),
		w.button(lang.X("wf.rename", "Rename"), theme.DocumentCreateIcon(), w.renameWorkflow),
		w.button(lang.X("wf.duplicate", "Duplicate"), theme.ContentCopyIcon(), w.duplicateWorkflow),
		w.button(lang.X("wf.delete", "Delete"), theme.DeleteIcon(), w.deleteWorkflow),
		w.button(lang.X("wf.import", "Import"), theme.FolderOpenIcon(), w.importWorkflow),
		w.button(lang.X("wf.export", "Export"), theme.DownloadIcon(), w.exportWorkflow),
	)
	left := container.NewBorder(container.NewVBox(widget.NewLabelWithStyle(lang.X("wf.title", "Workflows"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), listBar), nil, nil, nil, w.list)

	palette := container.NewVBox(widget.NewLabelWithStyle(lang.X("palette.title", "Palette"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
	for _, k := range Kinds {
		palette.Add(newPaletteItem(w.cv, k))
	}

	w.runBtn = widget.NewButtonWithIcon(lang.X("run.run", "Run"), theme.MediaPlayIcon(), w.startRun)
	w.runBtn.Importance = widget.HighImportance
	w.stopBtn = widget.NewButtonWithIcon(lang.X("run.stop", "Stop"), theme.MediaStopIcon(), w.stopRun)
	w.stopBtn.Disable()
	w.undoBtn = widget.NewButtonWithIcon("", theme.ContentUndoIcon(), func() { w.doc.Undo() })
	w.redoBtn = widget.NewButtonWithIcon("", theme.ContentRedoIcon(), func() { w.doc.Redo() })
	bar := container.NewHBox(
		widget.NewButtonWithIcon(lang.X("wf.save", "Save"), theme.DocumentSaveIcon(), w.save),
		w.undoBtn, w.redoBtn,
		widget.NewButtonWithIcon("", theme.ZoomInIcon(), func() { w.cv.SetZoom(w.cv.Zoom() * 1.25) }),
		widget.NewButtonWithIcon("", theme.ZoomOutIcon(), func() { w.cv.SetZoom(w.cv.Zoom() / 1.25) }),
		widget.NewButtonWithIcon("", theme.ZoomFitIcon(), func() { w.cv.Fit() }),
		w.runBtn, w.stopBtn,
	)
	w.status = widget.NewLabel("")
	w.status.Truncation = fyne.TextTruncateEllipsis
	centre := container.NewBorder(bar, nil, container.NewVScroll(palette), nil, w.cv)

	w.probBox = widget.NewList(func() int { return len(w.probs) },
		func() fyne.CanvasObject { return widget.NewLabel("problem") },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			p := w.probs[i]
			text := p.Message
			if p.NodeID != "" {
				text = p.NodeID + ": " + text
			}
			o.(*widget.Label).SetText("⚠ " + text)
		})
	w.probBox.OnSelected = func(i widget.ListItemID) {
		if i < len(w.probs) && w.probs[i].NodeID != "" {
			w.doc.Select(w.probs[i].NodeID, false)
			w.insp.Show()
		}
		w.probBox.UnselectAll()
	}
	w.tabs = container.NewAppTabs(
		container.NewTabItem(lang.X("tab.run", "Run"), w.panel.Object()),
		container.NewTabItem(lang.X("tab.problems", "Problems"), w.probBox),
		container.NewTabItem(lang.X("tab.remote", "Remote tasks"), w.tasks.Object()),
		container.NewTabItem(lang.X("tab.records", "Run records"), w.records.Object()),
	)
	w.tabs.OnSelected = func(t *container.TabItem) {
		if t.Content == w.records.Object() {
			w.records.Reload()
		}
	}
	main := container.NewHSplit(centre, container.NewVScroll(w.insp.Object()))
	main.Offset = 0.74
	top := container.NewHSplit(left, main)
	top.Offset = 0.17
	body := container.NewVSplit(top, w.tabs)
	body.Offset = 0.5
	w.win.SetContent(container.NewBorder(nil, w.status, nil, nil, body))
	w.win.SetMainMenu(w.menu())
	w.shortcuts()
	w.docChanged()
}

func (w *Window) button(label string, icon fyne.Resource, f func()) *widget.Button {
	return widget.NewButtonWithIcon(label, icon, f)
}

func (w *Window) menu() *fyne.MainMenu {
	item := fyne.NewMenuItem
	file := fyne.NewMenu(lang.X("menu.file", "File"),
		item(lang.X("wf.new", "New"), w.newWorkflow),
		item(lang.X("wf.save", "Save"), w.save),
		item(lang.X("wf.import", "Import"), w.importWorkflow),
		item(lang.X("wf.export", "Export"), w.exportWorkflow),
	)
	edit := fyne.NewMenu(lang.X("menu.edit", "Edit"),
		item(lang.X("edit.undo", "Undo"), func() { w.doc.Undo() }),
		item(lang.X("edit.redo", "Redo"), func() { w.doc.Redo() }),
		item(lang.X("edit.copy", "Copy"), func() { w.doc.Copy() }),
		item(lang.X("edit.paste", "Paste"), func() { w.doc.Paste() }),
		item(lang.X("edit.duplicate", "Duplicate"), func() { w.doc.Duplicate() }),
		item(lang.X("edit.delete", "Delete"), func() { w.doc.DeleteSelection() }),
		item(lang.X("edit.select_all", "Select all"), func() { w.doc.SelectAll() }),
	)
	view := fyne.NewMenu(lang.X("menu.view", "View"),
		item(lang.X("view.zoom_in", "Zoom in"), func() { w.cv.SetZoom(w.cv.Zoom() * 1.25) }),
		item(lang.X("view.zoom_out", "Zoom out"), func() { w.cv.SetZoom(w.cv.Zoom() / 1.25) }),
		item(lang.X("view.fit", "Fit to view"), func() { w.cv.Fit() }),
	)
	run := fyne.NewMenu(lang.X("menu.run", "Run"),
		item(lang.X("run.run", "Run"), w.startRun),
		item(lang.X("run.stop", "Stop"), w.stopRun),
		item(lang.X("tab.records", "Run records"), func() { w.tabs.SelectIndex(3); w.records.Reload() }),
	)
	settings := fyne.NewMenu(lang.X("menu.settings", "Settings"),
		item(lang.X("cred.title", "Credentials…"), w.showCredentials),
		w.langItem("English", "en"),
		w.langItem("简体中文", "zh-Hans"),
	)
	help := fyne.NewMenu(lang.X("menu.help", "Help"),
		item(lang.X("help.demo", "Start demo agent"), w.startDemo),
		item(lang.X("help.sample_remote", "Sample: Remote Agent demo"), func() { w.openSample(SampleRemote) }),
		item(lang.X("help.sample_parallel", "Sample: parallel branches with a failure"), func() { w.openSample(SampleParallel) }),
		item(lang.X("help.about", "About Workrun"), func() {
			dialog.ShowInformation("Workrun", lang.X("help.about_text", "Workrun runs workflows on your machine and hands work to remote agents over A2A."), w.win)
		}),
	)
	return fyne.NewMainMenu(file, edit, view, run, settings, help)
}

// shortcuts binds the canvas keys (SPEC W1). Entries keep their own copy
// and paste because a focused widget receives shortcuts first.
func (w *Window) shortcuts() {
	c := w.win.Canvas()
	on := func(sc fyne.Shortcut, f func()) { c.AddShortcut(sc, func(fyne.Shortcut) { f() }) }
	custom := func(k fyne.KeyName, m fyne.KeyModifier) fyne.Shortcut {
		return &desktop.CustomShortcut{KeyName: k, Modifier: m}
	}
	ctrl := fyne.KeyModifierShortcutDefault
	on(&fyne.ShortcutUndo{}, func() { w.doc.Undo() })
	on(&fyne.ShortcutRedo{}, func() { w.doc.Redo() })
	on(custom(fyne.KeyZ, ctrl|fyne.KeyModifierShift), func() { w.doc.Redo() })
	on(&fyne.ShortcutCopy{}, func() { w.doc.Copy() })
	on(&fyne.ShortcutPaste{}, func() { w.doc.Paste() })
	on(&fyne.ShortcutSelectAll{}, func() { w.doc.SelectAll() })
	on(custom(fyne.KeyD, ctrl), func() { w.doc.Duplicate() })
	on(custom(fyne.KeyS, ctrl), w.save)
	c.SetOnTypedKey(func(ev *fyne.KeyEvent) {
		if ev.Name == fyne.KeyDelete || ev.Name == fyne.KeyBackspace {
			w.doc.DeleteSelection()
		}
	})
}

// docChanged refreshes everything that shows the document.
func (w *Window) docChanged() {
	w.cv.Refresh()
	w.validate()
	if w.undoBtn != nil {
		enable(w.undoBtn, w.doc.CanUndo())
		enable(w.redoBtn, w.doc.CanRedo())
	}
	w.insp.Show()
	w.updateTitle()
}

// updateTitle names the workflow and, while a run is shown, its status.
func (w *Window) updateTitle() {
	title := "Workrun — " + w.doc.wf.Name
	if w.doc.Dirty() {
		title += " •"
	}
	if w.panel.RunID() != "" && w.panel.Run().Status != "" {
		title += " — " + string(w.panel.Run().Status)
	}
	w.win.SetTitle(title)
}

func enable(b *widget.Button, on bool) {
	if on {
		b.Enable()
	} else {
		b.Disable()
	}
}

// validate collects the editor's and the engine's problems; Run stays
// disabled while any remain (SPEC W1).
func (w *Window) validate() {
	wf := w.doc.wf
	ps := CheckWorkflow(wf)
	if w.deps.Engine != nil {
		for _, p := range w.deps.Engine.Validate(cloneWorkflow(wf)) {
			if !slices.ContainsFunc(ps, func(q Problem) bool { return q.NodeID == p.NodeID && q.Message == p.Message }) {
				ps = append(ps, p)
			}
		}
	}
	w.probs = ps
	w.cv.SetProblems(ps)
	w.probBox.Refresh()
	w.updateRunButtons()
}

// Problems returns the current validation problems.
func (w *Window) Problems() []Problem { return slices.Clone(w.probs) }

// RunEnabled reports whether the Run button is enabled.
func (w *Window) RunEnabled() bool { return !w.runBtn.Disabled() }

func (w *Window) updateRunButtons() {
	active := w.panel.Active()
	enable(w.runBtn, len(w.probs) == 0 && w.deps.Engine != nil && !active)
	enable(w.stopBtn, w.deps.Engine != nil && w.panel.Stoppable())
}

func (w *Window) setStatus(text string) {
	w.status.SetText(time.Now().Format("15:04:05") + "  " + text)
}

func (w *Window) showError(err error) {
	if err == nil {
		return
	}
	w.setStatus(err.Error())
	dialog.ShowError(err, w.win)
}

// noteInterrupted says when runs interrupted by an exit wait to be resumed
// (R12, R13); it reads one index, never the history.
func (w *Window) noteInterrupted() {
	if w.deps.Runs == nil {
		return
	}
	rs, err := w.deps.Runs.RunsWithStatus(w.ctx, workrun.RunInterrupted)
	if err != nil || len(rs) == 0 {
		return
	}
	w.setStatus(fmt.Sprintf(lang.X("run.interrupted_note", "%d interrupted runs can be resumed: see Run records."), len(rs)))
	w.records.SetFilter("", workrun.RunInterrupted)
}

// ShowRun shows a run in the main run panel, live: Resume, Stop and the
// decisions apply to it.
func (w *Window) ShowRun(runID string) {
	if err := w.panel.Show(w.ctx, runID); err != nil {
		w.showError(err)
		return
	}
	r := w.panel.Run()
	w.cv.ClearStatus()
	if len(r.Workflow.Nodes) > 0 {
		w.wfID = r.WorkflowID
		w.doc = NewDocument(r.Workflow)
		w.doc.OnChange = w.docChanged
		w.cv.SetDocument(w.doc, false)
		w.docChanged()
		w.cv.Fit()
		for id, n := range w.panel.nodes {
			w.cv.SetStatus(id, n.Status)
		}
	}
	w.tasks.Show(w.ctx, runID)
	w.tabs.SelectIndex(0)
	w.updateRunButtons()
}

// --- workflows (SPEC W1) ---

func (w *Window) reloadList(selectID string) {
	recs, err := w.wfs.ListWorkflows(w.ctx)
	if err != nil {
		w.showError(fmt.Errorf("list workflows: %w", err))
		return
	}
	w.recs = recs
	w.list.Refresh()
	if selectID != "" {
		if i := slices.IndexFunc(recs, func(r workrun.WorkflowRecord) bool { return r.ID == selectID }); i >= 0 {
			w.list.Select(i)
		}
	}
	w.records.setWorkflows(recs)
}

func (w *Window) open(r workrun.WorkflowRecord) {
	w.wfID = r.ID
	w.setDocument(NewDocument(r.Workflow))
}

// OpenWorkflow shows wf as an unsaved (id "") or saved workflow.
func (w *Window) OpenWorkflow(id string, wf workrun.Workflow) {
	w.wfID = id
	w.setDocument(NewDocument(wf))
}

func (w *Window) setDocument(d *Document) {
	w.doc = d
	w.doc.OnChange = w.docChanged
	w.cv.SetDocument(d, false)
	w.panel.Clear()
	w.docChanged()
	w.cv.Fit()
}

func (w *Window) newWorkflow() {
	wf := workrun.Workflow{Name: lang.X("wf.untitled", "Untitled workflow"), State: map[string]workrun.FieldType{}}
	wf.Nodes = []workrun.NodeSpec{{ID: "start", Type: "start", Config: DefaultConfig("start"), Position: &workrun.Position{X: 40, Y: 120}}}
	w.OpenWorkflow("", wf)
	w.list.UnselectAll()
}

// Save saves the document as a new revision (creating it when new).
func (w *Window) save() {
	r, err := w.wfs.SaveWorkflow(w.ctx, w.wfID, w.doc.Workflow())
	if err != nil {
		w.showError(fmt.Errorf("save workflow: %w", err))
		return
	}
	w.wfID = r.ID
	w.doc.MarkSaved()
	w.docChanged()
	w.reloadList(r.ID)
	w.setStatus(lang.X("wf.saved", "Saved"))
}

func (w *Window) renameWorkflow() {
	e := widget.NewEntry()
	e.SetText(w.doc.wf.Name)
	dialog.ShowForm(lang.X("wf.rename", "Rename"), lang.X("ok", "OK"), lang.X("cancel", "Cancel"),
		[]*widget.FormItem{widget.NewFormItem(lang.X("wf.name", "Name"), e)}, func(ok bool) {
			if ok && e.Text != "" {
				w.doc.SetName(e.Text)
				if w.wfID != "" {
					w.save()
				}
			}
		}, w.win)
}

func (w *Window) duplicateWorkflow() {
	wf := w.doc.Workflow()
	wf.Name = fmt.Sprintf(lang.X("wf.copy_of", "%s (copy)"), wf.Name)
	r, err := w.wfs.SaveWorkflow(w.ctx, "", wf)
	if err != nil {
		w.showError(fmt.Errorf("duplicate workflow: %w", err))
		return
	}
	w.open(r)
	w.reloadList(r.ID)
}

func (w *Window) deleteWorkflow() {
	if w.wfID == "" {
		w.newWorkflow()
		return
	}
	id := w.wfID
	dialog.ShowConfirm(lang.X("wf.delete", "Delete"), fmt.Sprintf(lang.X("wf.delete_q", "Delete the workflow %q? Its run records stay."), w.doc.wf.Name), func(ok bool) {
		if !ok {
			return
		}
		if err := w.wfs.DeleteWorkflow(w.ctx, id); err != nil {
			w.showError(fmt.Errorf("delete workflow: %w", err))
			return
		}
		w.newWorkflow()
		w.reloadList("")
	}, w.win)
}

func (w *Window) importWorkflow() {
	dialog.ShowFileOpen(func(rc fyne.URIReadCloser, err error) {
		if err != nil || rc == nil {
			w.showError(err)
			return
		}
		defer rc.Close()
		b, err := io.ReadAll(io.LimitReader(rc, 16<<20))
		if err != nil {
			w.showError(err)
			return
		}
		wf, err := ImportWorkflow(b)
		if err != nil {
			w.showError(err)
			return
		}
		w.OpenWorkflow("", wf)
		w.save()
	}, w.win)
}

func (w *Window) exportWorkflow() {
	b, err := ExportWorkflow(w.doc.Workflow())
	if err != nil {
		w.showError(err)
		return
	}
	d := dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
		if err != nil || wc == nil {
			w.showError(err)
			return
		}
		defer wc.Close()
		if _, err := wc.Write(b); err != nil {
			w.showError(err)
			return
		}
		w.setStatus(lang.X("wf.exported", "Exported") + " " + wc.URI().Name())
	}, w.win)
	d.SetFileName(w.doc.wf.Name + ".json")
	d.SetFilter(storage.NewExtensionFileFilter([]string{".json"}))
	d.Show()
}

// --- language (Fyne lang, assets/translations) ---

// SetLanguage switches the window's language and remembers the choice.
func (w *Window) SetLanguage(code string) {
	SetupLanguage(code)
	w.app.Preferences().SetString("lang", code)
	w.rebuildKeeping(w.build)
}

// --- demo agent and samples ---

func (w *Window) startDemo() {
	if w.demoURL != "" {
		w.setStatus(lang.X("help.demo_running", "Demo agent running at") + " " + w.demoURL)
		return
	}
	if w.deps.StartDemoAgent == nil {
		w.showError(errors.New(lang.X("help.demo_missing", "this build has no demo agent")))
		return
	}
	u, stop, err := w.deps.StartDemoAgent()
	if err != nil {
		w.showError(fmt.Errorf("start demo agent: %w", err))
		return
	}
	w.demoURL, w.demoStop = u, stop
	w.setStatus(lang.X("help.demo_running", "Demo agent running at") + " " + u)
}

func (w *Window) openSample(make func(agentURL string) workrun.Workflow) {
	if w.demoURL == "" && w.deps.StartDemoAgent != nil {
		w.startDemo()
	}
	u := w.demoURL
	if u == "" {
		u = "http://127.0.0.1:41241"
	}
	w.OpenWorkflow("", make(u))
	w.save()
}

func (w *Window) showCredentials() {
	if w.deps.Credentials == nil {
		w.showError(errors.New(lang.X("cred.missing", "credentials are not available in this build")))
		return
	}
	v := NewCredentialsView(w.deps.Credentials, w.win)
	d := dialog.NewCustom(lang.X("cred.title", "Credentials…"), lang.X("close", "Close"), v.Object(), w.win)
	d.Resize(fyne.NewSize(640, 480))
	d.Show()
	v.Reload()
}

func desktopCustom(k fyne.KeyName, m fyne.KeyModifier) desktop.CustomShortcut {
	return desktop.CustomShortcut{KeyName: k, Modifier: m}
}
