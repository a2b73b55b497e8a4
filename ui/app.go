package ui

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"net/url"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"workrun/assets"
	"workrun/ui/canvas"
	"workrun/ui/credentials"
	"workrun/ui/document"
	"workrun/ui/inspector"
	"workrun/ui/panes"
	"workrun/ui/records"
	"workrun/ui/remotetasks"
	"workrun/ui/runpanel"
	"workrun/ui/tooltip"
	"workrun/workrun"
)

// AppID is the Fyne app id, as in FyneApp.toml.
const AppID = "app.workrun.desktop"

// Run opens the "Workrun" window and blocks until it is closed.
func Run(d Deps) error {
	a := app.NewWithID(AppID)
	// Fyne catches SIGTERM only once ShowAndRun is under way; until then a
	// SIGTERM would kill the process without the clean exit (engine Close,
	// store flush) that a quit gives.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer func() { signal.Stop(sigs); close(sigs) }() // ends the goroutine below
	a.SetIcon(fyne.NewStaticResource("icon.png", assets.Icon))
	// The language is decided once, here: the person's saved choice, else
	// the one main passed (the system's), else English. The window gets it
	// as its localizer; SetupLanguage sets Fyne's and the engine's to match.
	if p := a.Preferences().String("lang"); p != "" {
		d.Lang = p
	}
	d.Lang = workrun.NewLocalizer(d.Lang).Language()
	SetupLanguage(d.Lang)
	w := NewWindow(a, d)
	// From here Fyne runs what fyne.Do is handed on its loop, until the
	// loop is marked stopping (uithread.go).
	w.loop.start()
	// A signal that came while the window was being built waits in sigs.
	// The window's context ends first, so no app goroutine hands the
	// driver work while it shuts down; Fyne's own signal watcher may quit
	// the loop first, and then the quit below is dropped.
	go func() {
		if _, ok := <-sigs; ok {
			w.stop()
			fyne.Do(func() {
				if w.loop.runs() {
					w.exit()
				}
			})
		}
	}()
	a.Lifecycle().SetOnStopped(w.loop.markStopping)
	a.Lifecycle().SetOnStarted(func() {
		go func() {
			if err := takeSignals(sigs); err != nil {
				fyne.LogError("take SIGINT/SIGTERM from Fyne's watcher", err)
			}
		}()
		// Never larger than the screen's work area: the whole of it below
		// 1600×1000, else 1280×800, or the size the person left it at on
		// a screen of this size; the dividers too are kept per screen size.
		if s, ok := screenSize(); ok {
			w.screenKey = s.key()
			sc := w.win.Canvas().Scale()
			if sc <= 0 {
				sc = 1
			}
			w.screenArea = fyne.NewSize(float32(s.workW)/sc, float32(s.workH)/sc)
			w.panes.UseScreen(w.screenKey)
			w.win.Resize(windowSizeFor(s, w.win.Canvas().Scale(), w.app.Preferences().String(prefWindowSize+w.screenKey)))
		}
		if w.app.Preferences().Bool(prefServeHere) {
			w.applyServeHere() // publish.go
		}
	})
	w.win.SetCloseIntercept(w.requestQuit)
	w.win.ShowAndRun()
	w.loop.markStopping()
	// Only a loop that Fyne ended by itself comes here (every quit of ours
	// ends in w.exit, exit.go): save what changed without touching the
	// widgets.
	w.saveAtExit()
	w.Close()
	return nil
}

// Window is the app layer: it owns the window's context (canceled in
// Close), every goroutine and store call, and hands data to the widgets it
// composes. Its state is grouped by concern.
type Window struct {
	deps Deps
	app  fyne.App
	win  fyne.Window
	wfs  workrun.WorkflowStore
	ctx  context.Context
	stop context.CancelFunc

	editorState // the open workflow and the workflow list
	views       // the widgets
	eventPump   // the engine subscription
	demoAgent   // the built-in demo agent this window started
	demoMCP     // the built-in demo MCP server this window started (help_samples.go)
	statusLine  // the condition the status bar states, if any (status.go)

	rs runState // run-related app state (run.go)

	closed bool      // Close ran (exit.go)
	loop   loopState // whether Fyne's loop still runs fyne.Do's functions (uithread.go)
	// serving is what serving from this window came to last (publish.go).
	serving serveHereState
	// screenKey names the screen's size ("1440x900"): the window's size and
	// dividers are remembered per screen size (screen.go).
	screenKey string
	// screenArea is the screen's work area (in the window's units; zero
	// until known): the room a separate window gets (screen.go fit).
	screenArea fyne.Size

	loc workrun.Localizer // the words, in the window's language
}

// editorState is the workflow being edited and what is known about it.
type editorState struct {
	wfID  string // "" while the workflow was never saved
	doc   *document.Document
	recs  []workrun.WorkflowRecord // the workflow list, as last read
	probs []Problem                // the open workflow's validation problems
}

// views are the window's widgets; build makes them again when the
// language changes.
type views struct {
	list *widget.List
	cv   *canvas.View
	insp *inspector.Inspector
	// inspScroll scrolls the inspector (the wheel anywhere over it: wheel.go).
	inspScroll *container.Scroll
	probBox    *widget.List
	panel      *runpanel.Panel
	tasks      *remotetasks.Panel
	records    *records.View
	// openWork lists the open remote tasks of every run (openwork.go).
	openWork *OpenWorkView
	// publish is the Publish as agent… dialog's view while it is open;
	// credView the credentials dialog's.
	publish  *PublishView
	credView *credentials.View
	tabs     *container.AppTabs
	runBtn   *widget.Button
	stopBtn  *widget.Button
	undoBtn  *widget.Button
	redoBtn  *widget.Button
	status   *tooltip.Label
	tips     *tooltip.Layer
	panes    *panes.Panes
	palette  *canvas.Palette
	zoomLbl  *widget.Label
	// openURL hands a file or link to the desktop (the app's OpenURL).
	openURL func(*url.URL) error
}

// eventPump is the engine event subscription (run.go).
type eventPump struct {
	unsub    func()
	pumpDone chan struct{} // closed when the event goroutine has ended
	// applied, when set before the first event, is called after each event
	// was shown (tests wait on it; the test driver runs fyne.Do inline).
	applied func(Event)
	// pins is the form of outputs typed by hand for a run from a node
	// (run_from.go) while its dialog is shown; pinsAsked, when set (tests),
	// is called when it is shown.
	pins      *pinForm
	pinsAsked func()
}

// demoAgent is the demo agent started from Help (empty when none).
type demoAgent struct {
	demoURL  string
	demoStop func()
}

// NewWindow builds the window without showing it (tests use the test app).
func NewWindow(a fyne.App, d Deps) *Window {
	if e, ok := d.Engine.(*workrun.Engine); ok && e == nil {
		d.Engine = nil // a nil *Engine in the interface is no engine
	}
	setKinds(d.Kinds)
	w := &Window{deps: d, app: a, wfs: d.Workflows, loc: workrun.NewLocalizer(d.Lang)}
	w.openURL = a.OpenURL
	if w.wfs == nil {
		w.wfs = newMemWorkflows()
	}
	w.ctx, w.stop = context.WithCancel(context.Background())
	w.win = a.NewWindow("Workrun")
	w.win.Resize(fyne.NewSize(1280, 800))
	w.doc = document.NewDocument(workrun.Workflow{Name: w.loc.X("wf.untitled", "Untitled workflow")})
	w.build()
	w.subscribe()
	w.reloadList("")
	w.openLast()
	if len(w.recs) == 0 {
		w.setStatus(w.loc.X("help.first", "New here? Help → Sample: Remote Agent demo starts the demo agent and opens a workflow you can run at once."))
	}
	w.noteInterrupted()
	w.checkKeyring()
	return w
}

// Close ends the event subscription and the demo agent.
func (w *Window) Close() {
	if w.closed {
		return
	}
	w.closed = true
	if w.unsub != nil {
		w.unsub()
	}
	if w.demoStop != nil {
		w.demoStop()
	}
	if w.mcpStop != nil {
		w.mcpStop()
	}
	w.stop()
	w.quiesce()
}

// build makes every widget and the menus; it is called again when the
// language changes.
func (w *Window) build() {
	applyTheme(w.ctx, w.loc, w.app)
	w.tips = tooltip.NewLayer(w.win)
	w.cv = canvas.New(w.doc, false, w.loc, canvasWording(w.loc))
	w.cv.OnSelect = func() { w.insp.Show() }
	w.cv.OnError = func(err error) { w.setStatus(err.Error()) }
	w.cv.OnNodeMenu = w.nodeMenu // run_from.go
	w.cv.OnView = w.showZoom
	w.doc.OnChange = w.docChanged
	w.doc.NewNode = w.newNode

	w.insp = w.newInspector()
	w.panel = newRunPanel(w.loc, false) // the app layer reads the runs (loadRun, showRun)
	w.panel.OnStatus = w.cv.SetStatus
	w.panel.OnOpenURL = w.openLink // question.go
	w.panel.OnStop = w.stopRun
	w.panel.OnResume = w.resumeRun
	w.panel.OnRunAgain = w.runAgain
	w.panel.OnSignIn = w.signInForRun // runpanel_signin.go
	w.panel.OnDecide = w.decide
	if _, ok := w.deps.Engine.(PartStarter); ok {
		w.panel.OnRunFrom = w.runFrom // run_from.go
	}
	w.panel.OnRunChanged = func(runID string) {
		w.refreshTasks(runID)
		if w.panes != nil {
			w.panes.Refresh() // RunShown changed
		}
	}
	w.panel.OnPickRun = w.pickRun // app_runs.go
	w.wireFiles(w.panel, w.win)
	w.tasks = w.newRemotePanel()
	w.tasks.KindOf = kindIn(func() workrun.Workflow { return w.panel.Run().Workflow })
	w.tasks.NameOf = nameIn(func() workrun.Workflow { return w.panel.Run().Workflow })
	w.records = w.newRecordsView()
	w.openWork = w.newOpenWorkView()

	w.list = labelList(func() int { return len(w.recs) }, func(i int) string { return w.recs[i].Workflow.Name })
	w.list.OnSelected = func(i widget.ListItemID) {
		if i < len(w.recs) && w.recs[i].ID != w.wfID {
			r := w.recs[i]
			w.leave(func() { w.open(r); w.selectListed(r.ID) })
		}
	}
	tip := func(icon fyne.Resource, text string, f func()) *tooltip.Button {
		return tooltip.NewButton(w.tips, "", icon, text, f)
	}
	// GridWrap: the icons wrap onto a second row in a narrow list pane.
	listBar := container.NewGridWrap(fyne.NewSize(36, 36),
		tip(theme.ContentAddIcon(), w.loc.X("wf.new", "New")+"  (Ctrl+N)", w.newWorkflow),
		tip(theme.DocumentCreateIcon(), w.loc.X("wf.rename", "Rename"), w.renameWorkflow),
		tip(theme.ContentCopyIcon(), w.loc.X("wf.duplicate", "Duplicate"), w.duplicateWorkflow),
		tip(theme.DeleteIcon(), w.loc.X("wf.delete", "Delete"), w.deleteWorkflow),
		tip(theme.FolderOpenIcon(), w.loc.X("wf.import_tip", "Import a workflow file (.json)"), w.importWorkflow),
		tip(theme.DownloadIcon(), w.loc.X("wf.export_tip", "Export this workflow to a file (.json)"), w.exportWorkflow),
	)
	left := container.NewBorder(container.NewVBox(widget.NewLabelWithStyle(w.loc.X("wf.title", "Workflows"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), listBar), nil, nil, nil, w.list)

	w.palette = canvas.NewPalette(w.cv)

	runB := tooltip.NewButton(w.tips, w.loc.X("run.run", "Run"), theme.MediaPlayIcon(), w.loc.X("run.run_tip", "Save and run this workflow (Ctrl+R)"), w.runClicked)
	runB.Importance = widget.HighImportance
	stopB := tooltip.NewButton(w.tips, w.loc.X("run.stop", "Stop"), theme.MediaStopIcon(), w.loc.X("run.stop_tip", "Stop the run shown below"), w.stopRun)
	stopB.Disable()
	undoB := tip(theme.ContentUndoIcon(), w.loc.X("edit.undo", "Undo")+"  (Ctrl+Z)", func() { w.doc.Undo() })
	redoB := tip(theme.ContentRedoIcon(), w.loc.X("edit.redo", "Redo")+"  (Ctrl+Shift+Z)", func() { w.doc.Redo() })
	w.runBtn, w.stopBtn, w.undoBtn, w.redoBtn = &runB.Button, &stopB.Button, &undoB.Button, &redoB.Button
	w.zoomLbl = widget.NewLabel("100 %")
	bar := container.NewHBox(
		tip(theme.MenuIcon(), w.loc.X("view.toggle_list", "Show or hide the workflow list")+"  (Ctrl+L)", w.toggleList),
		tooltip.NewButton(w.tips, w.loc.X("wf.save", "Save"), theme.DocumentSaveIcon(), w.loc.X("wf.save_tip", "Save (Ctrl+S); Run and switching workflows save by themselves"), w.save),
		undoB, redoB,
		widget.NewSeparator(),
		tip(theme.ZoomOutIcon(), w.loc.X("view.zoom_out", "Zoom out")+"  (Ctrl+-)", w.zoomOut),
		w.zoomLbl,
		tip(theme.ZoomInIcon(), w.loc.X("view.zoom_in", "Zoom in")+"  (Ctrl+=)", w.zoomIn),
		tip(theme.ZoomFitIcon(), w.loc.X("view.fit", "Fit to view")+"  (Ctrl+0)", func() { w.cv.Fit() }),
		widget.NewSeparator(),
		runB, stopB,
	)
	toolbar := container.NewBorder(nil, nil, nil,
		tip(theme.ListIcon(), w.loc.X("view.toggle_inspector", "Show or hide the inspector")+"  (Ctrl+I)", w.toggleInspector), bar)
	w.status = tooltip.NewLabel(w.tips)
	centre := container.NewBorder(nil, nil, container.New(fixedWidth(panes.PaletteWidth), w.palette.Object()), nil, w.cv)

	// With no problem the list says so (a blank tab read as broken).
	w.probBox = labelList(func() int { return max(1, len(w.probs)) }, func(i int) string {
		if i >= len(w.probs) {
			return noProblems(w.loc)
		}
		p := w.probs[i]
		if p.NodeID != "" {
			return "⚠ " + p.NodeID + ": " + p.In(w.loc.Messages())
		}
		return "⚠ " + p.In(w.loc.Messages())
	})
	w.probBox.OnSelected = func(i widget.ListItemID) {
		if i < len(w.probs) && w.probs[i].NodeID != "" {
			w.doc.Select(w.probs[i].NodeID, false)
			w.panes.ShowInspector()
			w.insp.Show()
		}
		w.probBox.UnselectAll()
	}
	// Each tab scrolls inside its pane: a long line there is clipped and
	// scrolled to, never passed up as the window's minimum width.
	w.tabs = container.NewAppTabs(
		container.NewTabItem(w.loc.X("tab.run", "Run"), container.NewScroll(w.panel.Object())),
		container.NewTabItem(w.loc.X("tab.problems", "Problems"), w.probBox),
		container.NewTabItem(w.loc.X("tab.remote", "Remote tasks"), container.NewScroll(w.tasks.Object())),
		container.NewTabItem(w.loc.X("tab.records", "Run records"), container.NewScroll(w.records.Object())),
		container.NewTabItem(w.loc.X("tab.open_work", "Remote work"), container.NewVScroll(w.openWork.Object())),
	)
	records, openWork := w.tabs.Items[3], w.tabs.Items[4]
	w.tabs.OnSelected = func(t *container.TabItem) {
		switch t {
		case records:
			w.records.Reload()
		case openWork:
			w.openWork.Reload()
		}
	}
	w.inspScroll = container.NewVScroll(w.insp.Object())
	w.insp.OnSubjectChanged = w.inspScroll.ScrollToTop
	w.panes = panes.New(w.app.Preferences(), left, centre, wheelOver(w.inspScroll), w.tabs)
	w.panes.TopWant = w.palette.WantHeight
	// A question's form in view without dragging (docs/product.md "The
	// window"): the tab bar over the run panel plus the panel's need.
	w.panes.BottomWant = func() float32 {
		want := w.panel.WantHeight()
		if !w.panes.BottomChosen() { // the person's own height wins over the detail's fit
			want = max(want, w.panel.FitHeight())
		}
		if want > 0 {
			return want + w.tabs.MinSize().Height
		}
		return 0
	}
	w.panel.OnAskChanged = w.panes.Refresh
	w.panel.OnFitChanged = w.panes.Refresh
	w.panes.RunShown = func() bool { return w.panel.RunID() != "" }
	body := container.NewBorder(toolbar, w.status, nil, nil, w.panes)
	w.win.SetContent(container.NewStack(body, w.tips.Root()))
	w.win.SetMainMenu(w.menu())
	w.bindKeys()
	w.docChanged()
}

// labelList is a list of n() one-line labels, cut with an ellipsis where
// the pane is narrow; text(i) is row i.
func labelList(n func() int, text func(i int) string) *widget.List {
	return widget.NewList(n,
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(i widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(text(i)) })
}

// fixedWidth lays out its objects at one width, whatever they ask for.
type fixedWidth float32

func (f fixedWidth) MinSize(objs []fyne.CanvasObject) fyne.Size {
	h := float32(0)
	for _, o := range objs {
		h = max(h, o.MinSize().Height)
	}
	return fyne.NewSize(float32(f), h)
}

func (f fixedWidth) Layout(objs []fyne.CanvasObject, s fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.Position{})
		o.Resize(s)
	}
}

func (w *Window) zoomIn()  { w.cv.SetZoom(w.cv.Zoom() * 1.25) }
func (w *Window) zoomOut() { w.cv.SetZoom(w.cv.Zoom() / 1.25) }

// showZoom shows the zoom factor in the toolbar.
func (w *Window) showZoom() {
	if w.zoomLbl != nil {
		w.zoomLbl.SetText(fmt.Sprintf("%d %%", int(math.Round(float64(w.cv.Zoom())*100))))
	}
}

func (w *Window) toggleList()      { w.panes.ToggleList() }
func (w *Window) toggleInspector() { w.panes.ToggleInspector() }

func (w *Window) menu() *fyne.MainMenu {
	item := func(label string, f func()) *fyne.MenuItem { return fyne.NewMenuItem(label, f) }
	// The keys come from one table (help_keys.go), which Help lists too.
	k := func(id string) *fyne.MenuItem { return w.binding(id).menuItem() }
	quit := w.binding("quit")
	file := fyne.NewMenu(w.loc.X("menu.file", "File"),
		k("new"),
		w.templatesItem(),
		k("save"),
		fyne.NewMenuItemSeparator(),
		k("import"),
		item(w.loc.X("wf.import_path_menu", "Import from a typed path…"), w.importFromPath),
		k("export"),
		fyne.NewMenuItemSeparator(),
		w.quitItem(quit.keys[0]),
	)
	edit := fyne.NewMenu(w.loc.X("menu.edit", "Edit"),
		k("undo"), k("redo"),
		fyne.NewMenuItemSeparator(),
		k("copy"), k("paste"), k("duplicate"), k("delete"), k("select_all"),
	)
	view := fyne.NewMenu(w.loc.X("menu.view", "View"),
		k("zoom_in"), k("zoom_out"), k("fit"),
		fyne.NewMenuItemSeparator(),
		k("toggle_list"), k("toggle_inspector"),
	)
	run := fyne.NewMenu(w.loc.X("menu.run", "Run"),
		k("run"),
		item(w.loc.X("run.stop", "Stop"), w.stopRun),
		item(w.loc.X("tab.records", "Run records"), func() { w.tabs.SelectIndex(3); w.records.Reload() }),
	)
	workflow := fyne.NewMenu(pubText(w.loc, msgPubMenu),
		item(pubText(w.loc, msgPubItem), w.showPublish),
	)
	settings := fyne.NewMenu(w.loc.X("menu.settings", "Settings"),
		item(w.loc.X("cred.title", "Credentials…"), w.showCredentials),
		w.langItem("English", "en"),
		w.langItem("简体中文", "zh-Hans"),
	)
	return fyne.NewMainMenu(file, edit, view, workflow, run, settings, w.helpMenu())
}

// DemoWords explains the words the built-in demo agent acts on; the sample's
// inputs dialog and Help show it.
func DemoWords(loc workrun.Localizer) string {
	return loc.X("help.demo_words_text", `The demo agent acts on the first word of the question:
  echo TEXT — answers TEXT at once
  slow N — sends N progress updates, then answers
  file — answers with a report of the files it got and a file
  hang — works until the task is canceled (press Stop)
  uncancelable — works on and refuses to be canceled
  input — asks for more input (the run waits for it)
  auth — asks for authentication
  fail — the task fails with a message
  reject — the agent rejects the task
  message — answers with a message instead of a task
Anything else: it answers with this list of words.`)
}

func (w *Window) showDemoWords() {
	l := widget.NewLabel(DemoWords(w.loc))
	l.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustom(w.loc.X("help.demo_words", "What the demo agent understands"), w.loc.X("close", "Close"), l, w.win)
	d.Resize(w.fitDialog(fyne.NewSize(560, 320)))
	d.Show()
}

// docChanged refreshes everything that shows the document.
func (w *Window) docChanged() {
	defer w.recheckStatus() // status.go
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
	title := "Workrun — " + w.doc.Name()
	if w.doc.Dirty() {
		title += " •"
	}
	if w.panel.RunID() != "" && w.panel.Run().Status != "" {
		if w.panel.OpenQuestion() != nil {
			title += " — " + qText(w.loc, msgQStatus) // waits for the person, not "interrupted"
		} else {
			title += " — " + statusLabel(w.loc, string(w.panel.Run().Status))
		}
	}
	w.win.SetTitle(title)
	w.noteVersion()
}

func enable(b *widget.Button, on bool) {
	if on {
		b.Enable()
	} else {
		b.Disable()
	}
}

// validate collects the editor's and the engine's problems; Run stays
// disabled while any remain (docs/product.md W1).
func (w *Window) validate() {
	var ps []Problem
	if w.deps.Engine != nil {
		ps = w.deps.Engine.Validate(w.doc.Workflow()) // a copy: the engine cannot change the document
	}
	w.probs = ps
	w.cv.SetProblems(ps)
	w.probBox.Refresh()
	w.updateRunButtons()
}

func (w *Window) updateRunButtons() {
	active := w.panel.Active()
	enable(w.runBtn, len(w.probs) == 0 && w.deps.Engine != nil && !active)
	enable(w.stopBtn, w.deps.Engine != nil && w.panel.Stoppable())
}

func (w *Window) setStatus(text string) {
	w.holds = nil // an event replaces a condition's line
	w.status.SetText(time.Now().Format("15:04:05") + "  " + text)
}

func (w *Window) showError(err error) { w.showErrorIn(w.win, err) }

// showErrorIn is showError over win (a run record's window, or the main one).
func (w *Window) showErrorIn(win fyne.Window, err error) {
	if err == nil {
		return
	}
	w.setStatus(err.Error())
	dialog.ShowError(err, win)
}

// noteInterrupted says when runs interrupted by an exit wait to be resumed
// (docs/remote-agent.md R12, R13); it reads one index, never the history.
func (w *Window) noteInterrupted() {
	if w.deps.Runs == nil {
		return
	}
	var rs []workrun.Run
	var err error
	w.background(func() {
		rs, err = w.deps.Runs.RunsWithStatus(w.ctx, workrun.RunInterrupted)
	}, func() {
		switch {
		case err != nil:
			w.setStatus(fmt.Sprintf("%s: %s", w.loc.X("run.interrupted_read_failed", "Could not look for interrupted runs"), HumanError(w.loc, err.Error())))
		case len(rs) > 0:
			w.setStatus(countText(w.loc, len(rs), "run.interrupted_note", "%d interrupted run can be resumed: see Run records.", "%d interrupted runs can be resumed: see Run records."))
			w.records.SetFilter("", workrun.RunInterrupted)
		}
	})
}

// showRun reads a run off the UI thread and shows it in the main run
// panel, live: Resume, Stop and the decisions apply to it.
func (w *Window) showRun(runID string) {
	if w.deps.Runs == nil {
		return
	}
	w.readRun(runID, func(r workrun.Run, nrs []workrun.NodeRun, ms []workrun.Message, err error) {
		if err != nil {
			w.showError(err)
			return
		}
		w.showLoadedRun(r, nrs, ms)
	})
}

// showLoadedRun shows a run read from the store in the main run panel; the
// run's workflow replaces the open one (as saved now when it is saved:
// app_runs.go showSavedRun).
func (w *Window) showLoadedRun(r workrun.Run, nrs []workrun.NodeRun, ms []workrun.Message) {
	if w.showSavedRun(r, nrs, ms) {
		return
	}
	runID := r.ID
	w.panel.Load(r, nrs, ms)
	w.showCaller(runID)
	r = w.panel.Run()
	w.cv.ClearStatus()
	if len(r.Workflow.Nodes) > 0 {
		// The run's workflow replaces the open one: save that first.
		if w.doc.Dirty() {
			w.saveNow()
		}
		w.wfID = r.WorkflowID
		w.doc = document.NewDocument(r.Workflow)
		w.doc.OnChange = w.docChanged
		w.doc.NewNode = w.newNode
		w.cv.SetDocument(w.doc, false)
		w.docChanged()
		w.cv.Fit()
		for id, n := range w.panel.NodeRuns() {
			w.cv.SetStatus(id, runpanel.ShownStatus(n))
		}
	}
	w.refreshTasks(runID)
	w.tabs.SelectIndex(0)
	w.updateRunButtons()
	w.refreshRecent()
}

// --- workflows (docs/product.md W1) ---

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
	w.records.SetWorkflows(recs)
}

func (w *Window) open(r workrun.WorkflowRecord) {
	w.wfID = r.ID
	w.app.Preferences().SetString(prefLastWorkflow, r.ID)
	w.setDocument(document.NewDocument(r.Workflow))
	w.showLatestRun()
}

// prefLastWorkflow keeps the id of the saved workflow last opened or
// saved, which the next start opens again.
const prefLastWorkflow = "workflow.last"

// openLast opens the saved workflow the person worked on last, or a new
// one when there is none (or it was deleted since).
func (w *Window) openLast() {
	id := w.app.Preferences().String(prefLastWorkflow)
	if i := slices.IndexFunc(w.recs, func(r workrun.WorkflowRecord) bool { return r.ID == id }); id != "" && i >= 0 {
		w.open(w.recs[i])
		w.selectListed(id)
		return
	}
	w.newEmpty()
}

// OpenWorkflow shows wf as an unsaved (id "") or saved workflow.
func (w *Window) OpenWorkflow(id string, wf workrun.Workflow) {
	w.wfID = id
	w.setDocument(document.NewDocument(wf))
}

func (w *Window) setDocument(d *document.Document) {
	w.doc = d
	w.doc.OnChange = w.docChanged
	w.doc.NewNode = w.newNode
	w.cv.SetDocument(d, false)
	w.panel.Clear()
	w.docChanged()
	w.cv.Fit()
}

// newWorkflow starts a new workflow and saves it at once, so that it is in
// the workflow list (selected) from the start, not only after a Save.
func (w *Window) newWorkflow() {
	w.leave(func() {
		w.newEmpty()
		w.saveNow()
	})
}

func (w *Window) newEmpty() {
	wf := workrun.Workflow{Name: w.loc.X("wf.untitled", "Untitled workflow"), State: map[string]workrun.FieldType{}}
	wf.Nodes = []workrun.NodeSpec{{ID: "start", Type: "start", Title: KindLabel(w.loc, "start"), Config: DefaultConfig(w.loc, "start"), Position: &workrun.Position{X: 40, Y: 120}}}
	w.OpenWorkflow("", wf)
	w.selectListed("")
}

// Save saves the document as a new revision (creating it when new).
func (w *Window) save() { w.saveNow() }

// saveNow saves and reports whether it worked; a failure is shown.
func (w *Window) saveNow() bool {
	r, err := w.wfs.SaveWorkflow(w.ctx, w.wfID, w.doc.Workflow())
	if err != nil {
		w.showError(fmt.Errorf("save workflow: %w", err))
		return false
	}
	w.wfID = r.ID
	w.app.Preferences().SetString(prefLastWorkflow, r.ID)
	w.doc.MarkSaved()
	w.docChanged()
	w.reloadList("")
	w.selectListed(r.ID)
	w.setStatus(w.loc.X("wf.saved", "Saved"))
	return true
}

func (w *Window) renameWorkflow() {
	e := widget.NewEntry()
	e.SetText(w.doc.Name())
	dialog.ShowForm(w.loc.X("wf.rename", "Rename"), w.loc.X("ok", "OK"), w.loc.X("cancel", "Cancel"),
		[]*widget.FormItem{widget.NewFormItem(w.loc.X("wf.name", "Name"), e)}, func(ok bool) {
			if ok && e.Text != "" {
				w.doc.SetName(e.Text)
				if w.wfID != "" {
					w.save()
				}
			}
		}, w.win)
}

func (w *Window) duplicateWorkflow() { w.leave(w.duplicateNow) }

func (w *Window) duplicateNow() {
	wf := w.doc.Workflow()
	wf.Name = fmt.Sprintf(w.loc.X("wf.copy_of", "%s (copy)"), wf.Name)
	r, err := w.wfs.SaveWorkflow(w.ctx, "", wf)
	if err != nil {
		w.showError(fmt.Errorf("duplicate workflow: %w", err))
		return
	}
	w.open(r)
	w.reloadList("")
	w.selectListed(r.ID)
}

func (w *Window) deleteWorkflow() {
	if w.wfID == "" {
		w.newEmpty()
		return
	}
	id := w.wfID
	dialog.ShowConfirm(w.loc.X("wf.delete", "Delete"), fmt.Sprintf(w.loc.X("wf.delete_q", "Delete the workflow %q? Its run records stay."), w.doc.Name()), func(ok bool) {
		if !ok {
			return
		}
		if err := w.wfs.DeleteWorkflow(w.ctx, id); err != nil {
			w.showError(fmt.Errorf("delete workflow: %w", err))
			return
		}
		w.newEmpty()
		w.reloadList("")
	}, w.win)
}

func (w *Window) importWorkflow() { w.leave(w.chooseImport) }

func (w *Window) chooseImport() {
	d := dialog.NewFileOpen(func(rc fyne.URIReadCloser, err error) {
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
		w.importData(wf, uriPath(rc.URI()))
	}, w.win)
	d.SetFilter(storage.NewExtensionFileFilter([]string{".json"}))
	d.Resize(dialogSize(w.win))
	d.Show()
}

// importFromPath imports the workflow file at a path typed or pasted in.
func (w *Window) importFromPath() {
	w.leave(func() {
		e := widget.NewEntry()
		e.SetPlaceHolder("/home/me/flows/report.json")
		d := dialog.NewForm(w.loc.X("wf.import_path_menu", "Import from a typed path…"), w.loc.X("wf.import", "Import"), w.loc.X("cancel", "Cancel"),
			[]*widget.FormItem{widget.NewFormItem(w.loc.X("wf.path", "File"), e)}, func(ok bool) {
				if ok {
					w.importPath(strings.TrimSpace(e.Text))
				}
			}, w.win)
		// The path is typed at once and Enter imports it: the person came
		// to type a path, not to aim at the entry first.
		e.OnSubmitted = func(string) { d.Submit() }
		d.Show()
		w.win.Canvas().Focus(e)
	})
}

// importPath reads and imports the workflow file at path.
func (w *Window) importPath(path string) {
	f, err := os.Open(path)
	if err != nil {
		w.showError(fmt.Errorf("import workflow: %w", err))
		return
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 16<<20))
	if err != nil {
		w.showError(fmt.Errorf("import workflow: %w", err))
		return
	}
	wf, err := ImportWorkflow(b)
	if err != nil {
		w.showError(err)
		return
	}
	w.importData(wf, path)
}

// importData opens an imported workflow under a name that tells it from
// the original and saves it.
func (w *Window) importData(wf workrun.Workflow, from string) {
	wf.Name = fmt.Sprintf(w.loc.X("wf.imported_name", "%s (imported)"), wf.Name)
	w.OpenWorkflow("", wf)
	if w.saveNow() {
		w.setStatus(fmt.Sprintf(w.loc.X("wf.imported", "Imported %s as %q"), from, wf.Name))
	}
}

// uriPath is the path of a file URI, or the URI itself.
func uriPath(u fyne.URI) string {
	if u.Scheme() == "file" {
		return u.Path()
	}
	return u.String()
}

// dialogSize is a file dialog's size: large, but inside the window.
func dialogSize(win fyne.Window) fyne.Size {
	s := win.Canvas().Size()
	return fyne.NewSize(min(900, s.Width-40), min(600, s.Height-40))
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
		w.setStatus(fmt.Sprintf(w.loc.X("wf.exported_to", "Exported %q to %s"), w.doc.Name(), uriPath(wc.URI())))
	}, w.win)
	d.SetFileName(w.doc.Name() + ".json")
	d.SetFilter(storage.NewExtensionFileFilter([]string{".json"}))
	d.Resize(dialogSize(w.win))
	d.Show()
}

// saveArtifact asks where to save a file result and copies it there off
// the UI thread.
func (w *Window) saveArtifact(a workrun.ArtifactInfo) { w.saveArtifactIn(w.win, a) }

// saveArtifactIn is saveArtifact with its dialog over win.
func (w *Window) saveArtifactIn(win fyne.Window, a workrun.ArtifactInfo) {
	d := dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
		if err != nil {
			w.showErrorIn(win, err)
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
		}, func() { w.showErrorIn(win, copyErr) })
	}, win)
	d.SetFileName(a.Name)
	d.Resize(dialogSize(win))
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

// --- language (Fyne lang, assets/translations) ---

// SetLanguage switches the window's language and remembers the choice.
func (w *Window) SetLanguage(code string) {
	SetupLanguage(code)
	w.loc = workrun.NewLocalizer(code)
	w.app.Preferences().SetString("lang", code)
	w.rebuildKeeping(w.build)
}

// --- demo agent and samples ---

func (w *Window) startDemo() {
	w.startBuiltIn(builtIn{url: &w.demoURL, stop: &w.demoStop, start: w.deps.StartDemoAgent,
		running: w.loc.X("help.demo_running", "Demo agent running at"),
		missing: w.loc.X("help.demo_missing", "this build has no demo agent"),
		failed:  "start demo agent"})
}

// DemoAgentURL is where Workrun starts its built-in demo agent when the
// port is free, the address "workrun demo-agent" serves on too: the sample
// stores it, so it keeps working after a restart.
const DemoAgentURL = "http://127.0.0.1:41241"

// openSample opens the sample workflow, reusing the saved copy when there is
// one (Help → Sample twice opens the same workflow, not a second copy). The
// sample points at the demo agent this window started.
func (w *Window) openSample(make func(loc workrun.Localizer, agentURL string) workrun.Workflow) {
	if w.demoURL == "" && w.deps.StartDemoAgent != nil {
		w.startDemo()
	}
	u := w.demoURL
	if u == "" {
		u = DemoAgentURL
	}
	w.openSampleAt(make(w.loc, u), u, workrun.ProtocolA2A)
}

// openSampleAt opens wf, or its saved copy moved to the demo server at u
// (its nodes that call protocol on loopback), and saves it.
func (w *Window) openSampleAt(wf workrun.Workflow, u, protocol string) {
	w.leave(func() {
		w.reloadList("")
		if i := slices.IndexFunc(w.recs, func(r workrun.WorkflowRecord) bool { return sameSample(r.Workflow.Name, wf.Name) }); i >= 0 {
			r := w.recs[i]
			w.open(r)
			w.pointAtDemo(u, protocol)
			if w.doc.Dirty() {
				w.save()
			}
			w.selectListed(r.ID)
			return
		}
		w.OpenWorkflow("", wf)
		w.save()
	})
}

// pointAtDemo moves the open workflow's nodes that call protocol on
// loopback at the demo server's path to url (the demo server had to take
// another port).
func (w *Window) pointAtDemo(url, protocol string) {
	for _, n := range w.doc.Workflow().Nodes {
		cfg := n.Config
		for _, key := range keysOf(n.Type, workrun.ValueURL, protocol) {
			if u := document.ConfigString(cfg, key); u != url && isLoopbackDemo(u, url) {
				cfg = document.WithConfigKey(cfg, key, url)
			}
		}
		if !bytes.Equal(cfg, n.Config) {
			w.doc.SetConfig(n.ID, cfg)
		}
	}
}

// isLoopbackDemo reports whether u is a loopback address with the same
// path as the demo server's demo (any port).
func isLoopbackDemo(u, demo string) bool {
	const lo = "http://127.0.0.1:"
	if !strings.HasPrefix(u, lo) || !strings.HasPrefix(demo, lo) {
		return false
	}
	path := func(s string) string {
		s = strings.TrimPrefix(s, lo)
		if i := strings.IndexByte(s, '/'); i >= 0 {
			return s[i:]
		}
		return ""
	}
	return path(u) == path(demo)
}

// usesDemo reports whether a Remote Agent node of wf calls the demo agent's
// fixed address.
func usesDemo(wf workrun.Workflow) bool { return callsURL(wf, workrun.ProtocolA2A, DemoAgentURL) }

// callsURL reports whether a node of wf calls protocol at url.
func callsURL(wf workrun.Workflow, protocol, url string) bool {
	for _, n := range wf.Nodes {
		for _, key := range keysOf(n.Type, workrun.ValueURL, protocol) {
			if strings.TrimSuffix(document.ConfigString(n.Config, key), "/") == url {
				return true
			}
		}
	}
	return false
}

// runClicked is the Run button: it refuses while the inspector holds a
// value it could not apply, saves, starts the demo agent when the workflow
// calls it, and then asks for the inputs.
func (w *Window) runClicked() {
	if p := w.insp.Pending(); p != "" {
		w.fixFirst(p)
		return
	}
	if w.wfID == "" || w.doc.Dirty() {
		if !w.saveNow() {
			return
		}
	}
	if w.demoURL == "" && w.deps.StartDemoAgent != nil && usesDemo(w.doc.Workflow()) {
		w.startDemo()
	}
	if w.mcpURL == "" && w.deps.StartDemoMCP != nil && usesDemoMCP(w.doc.Workflow()) {
		w.startDemoMCP()
	}
	w.askInputs()
}

// leave runs then once the open workflow may be replaced: unsaved changes
// are saved first (autosave), and a value the inspector could not apply is
// only dropped after the user agreed.
func (w *Window) leave(then func()) {
	save := func() {
		if w.doc.Dirty() && !w.saveNow() {
			w.selectListed(w.wfID)
			return
		}
		then()
	}
	p := w.insp.Pending()
	if p == "" {
		save()
		return
	}
	dialog.ShowConfirm(w.loc.X("wf.unapplied_title", "Value not applied"),
		fmt.Sprintf(w.loc.X("wf.unapplied", "%s\n\nThis value is not valid and was not applied. Discard it and go on?"), p),
		func(ok bool) {
			if ok {
				w.insp.Discard()
				save()
			} else {
				w.selectListed(w.wfID)
			}
		}, w.win)
}

// selectListed marks the workflow id in the list without opening it.
func (w *Window) selectListed(id string) {
	i := slices.IndexFunc(w.recs, func(r workrun.WorkflowRecord) bool { return r.ID == id })
	on := w.list.OnSelected
	w.list.OnSelected = nil
	if i >= 0 {
		w.list.Select(i)
	} else {
		w.list.UnselectAll()
	}
	w.list.OnSelected = on
}

// noProblems is the Problems tab's one row when there is none.
func noProblems(loc workrun.Localizer) string {
	return loc.X("problems.none", "No problems: the workflow can run.")
}

// credentialsTitle is the credentials dialog's title (the menu item that
// opens it ends in "…").
func credentialsTitle(loc workrun.Localizer) string { return loc.X("cred.dialog_title", "Credentials") }
