// Package ui is the Workrun desktop window (Fyne). It adds no behaviour the
// command line lacks and never touches SQLite or the network itself: every
// effect goes through the interfaces collected in Deps, which package desktop
// fills.
// Run opens the window; every Deps field may be nil (the window then
// disables what needs it and keeps workflows in memory).
//
// App layer and widgets. Window is the app layer: the methods on *Window
// (app.go, run.go, run_from.go, app_history.go, record_window.go,
// app_credentials.go, about.go and inspect_app.go) own the window's context, w.ctx, canceled in
// Close; every goroutine: a piece of work goes through Window.background
// (work off the UI thread, then a function on it), besides which there are
// only the event pump, the duration ticker and Run's signal watcher; every
// call to Deps (engine, stores, keyring, network), with contexts derived
// from w.ctx; and every fyne.Do, made only by Window.do, which serialises
// those functions (the test driver runs fyne.Do on the calling goroutine)
// and drops them once the window is closed or Fyne's loop is marked
// stopping (uithread.go: an explicit state the app layer sets, not a
// goroutine id). Window itself only composes
// state grouped by concern: editorState (the open workflow), views (the
// widgets), eventPump, demoAgent and runState.
//
// A widget holds no *Window and no Deps: it takes data through its
// constructor and setters (SetRuns, ShowResult, SetList…), reports what
// the person did through callback fields (OnReload, OnOpen, OnSave,
// OnDelete, a file chooser…), and changes only its own widgets, on the UI
// thread. It starts no goroutine, makes no fyne.Do and reads no store;
// dialogs it opens (a confirmation) are UI, not work. The widget packages
// under ui/ (records: the run records; credentials: the credentials form;
// runpanel: the run panel, its node values and a question's form;
// canvas: the workflow canvas, its palette and minimap; inspector: the
// form of what is selected, its Triggers section included; remotetasks:
// the Remote tasks tab; runinputs: the Run dialog's form; panes: the
// body's panes and dividers; tooltip: the tooltip layer and the buttons
// and labels that use it; document: the
// canvas's editing model and its config helpers, plain Go) are held to that by
// architecture_test.go (TestWidgetPackages): they import only the
// engine's types, assets and each other, and word their labels through
// the Localizer they declare, which the app layer hands them
// (app_widgets.go, runpanel_app.go, inspect_app.go), together with its own wording of what
// the rest of the window says too (an error's translation, a status, a
// duration stay here); the canvas gets the node kinds' labels, icons and
// palette groups, and the wording of statuses and problems, the same way
// (canvasWording), the inspector the kinds' descriptions too
// (inspectorWording), the Remote tasks tab the window's remote-state and
// id wording (remoteTasksWording). Dialogs are the app layer's: the views
// of Publish as agent, Remote work, Sign in and the pinned inputs of Run
// from here live here beside the code that opens them, and keep the
// widget rules by convention.
//
// Engine events arrive on one subscription channel; the pump goroutine
// collects a frame's worth (16 ms) and applies them in one batch with one
// redraw, and waits for it before taking the next batch, so a stream of
// thousands of events a second costs one redraw per frame. Remote task
// records, a run's stored history, the run records list, artifacts,
// credential lists and keyring calls are read off the UI thread; nothing
// reads the store per event on it. The workflow list and saves, and the
// engine commands (start, resume, decide) are still made on the UI thread:
// they are short, and the next step (autosave before switching, Run after
// saving) needs their result at once.
//
// Editing. The canvas edits a document.Document (ui/document): a pure Go
// value holding a workrun.Workflow, with commands (add, move, connect,
// delete, copy/paste, duplicate, config changes) and an undo stack of
// snapshots; what a new node starts with (its title in the window's
// language, its kind's default config) the app layer hands it
// (Window.newNode). The canvas.View (ui/canvas) renders it (nodes with icon, title and status badge; edges with
// arrowheads) and sends it commands; dragging a node moves only that node
// and its edges until the drop, which is one undoable command (docs/product.md W1).
// fyne.io/x/fyne's diagramwidget was evaluated first: it has draggable
// nodes and links with arrowheads, but no zoom or fit, no undo, and keeps
// its model in its widgets; a small hand-written canvas over the Document
// keeps every edit a testable command and draws 200 nodes in one frame.
// The palette, a new node's config and the inspector's form come from the
// node kinds' own descriptions (Deps.Kinds, workrun.KindInfo): one editor
// per config key by its value kind, keys not described kept as they are.
// The window declares no kind's keys or checks; the problems it shows are
// the engine's (each kind's Compile, through Engine.Validate).
// A template key (workrun.ValueTemplate: the Remote Agent's message and answers) is
// typed with completion of the State fields its description allows, and
// workrun.CheckTemplate, the check the kind's Compile makes, is shown
// beside it; a State field made from a node's form is one undo step with
// the node's use of it (Document.CreateField, docs/remote-agent.md R3.2).
//
// Runs. The run panel shows a run's status, duration and failure reason on
// top; every node with its status and duration (ticking while it runs; a
// sibling stopped by a failure says which node failed); and the selected
// node's inputs and outputs above its messages, in a virtualised list that
// scrolls 100,000 lines smoothly (docs/product.md W5, W6). It offers Stop while running
// ("stopping…" until the engine reports the abort hooks done) and for every
// interrupted run (its unfinished remote tasks then get their cancel),
// Resume only for a run interrupted by exit, Approve/Reject and an answer
// box for runs waiting for a person, and Run again (a new run) for ended
// runs and for a run a remote agent interrupted asking for input — never
// Continue (docs/remote-agent.md R12). A run another process executes (a
// caller's run in `workrun serve`) sends this engine no events: the app
// layer follows it from the store (run.go, followRun) until it ends, and
// its Stop asks that process (docs/serve.md S6). The remote task panel follows the run shown and lists the
// saved remote task records and file results with no query, fetch or cancel
// buttons (docs/remote-agent.md R8). Run records list runs in sortable columns (workflow, status,
// started, duration, reason), filtered by workflow and status.
//
// Languages. English and Simplified Chinese (docs/conventions.md §9). The
// language is decided once at start (Run: the person's choice saved in
// Settings, else Deps.Lang, which main sets to the system's; a C locale
// means English) and held by the window as its localizer, a
// workrun.Localizer made from that explicit language: Window.loc, handed to
// each view it builds (a loc field) and to each text function (a loc
// parameter), and to the widget packages as their Localizer. Nothing reads
// the language from the environment while drawing; two windows of two
// languages live side by side.
// Window.SetLanguage makes a new localizer and rebuilds the widgets,
// keeping the run shown, the zoom and the selection. The words are one
// workrun.Catalog, windowWords (window_words.go), beside the failure,
// publishing, trigger and question tables, all read by key (the labels
// only the run panel says are its own catalogue, in ui/runpanel). What is
// process-wide is set in one place, SetupLanguage, at start and on a
// switch: the language the engine writes new failure reasons in
// (workrun.SetLanguage) and Fyne's own words (dialog buttons), which Fyne
// 2.7 takes from go-locale; fyneLanguage names the language through our
// patched go-locale, writing no environment variable. Node messages are
// catalogue keys with arguments, rendered when shown (MessageText), so
// switching language re-renders old runs; saved reasons and errors that
// carry internal words ("context canceled", an exit status, TASK_STATE_…)
// read as sentences (HumanError).
// The theme (theme.go) draws Chinese with the system's CJK font found
// through fontconfig, or with the WenQuanYi Micro Hei subset embedded in
// package assets where the system has none, so Chinese never renders as
// boxes.
package ui
