// Package inspector is the inspector widget: the form of what is selected
// on the canvas — a node's title and config keys, an edge's branch and
// port, or (nothing selected) the workflow's name and State — built from
// each node kind's own description (workrun.KindInfo, handed in through
// Wording.Kind): one editor per config key by its value kind, keys not
// described kept as they are (document.MergeConfig). It holds the
// template editor with completion of State fields and the new-field row
// (inspector_template.go), the Remote MCP Tool's and Tool App's tool
// picker and argument form (inspector_mcp.go), failure handling
// (inspector_policy.go), Sign in (inspector_signin.go) and the start
// node's Triggers section (triggers.go).
//
// Every edit applies as it is typed, through the InspectorEdits the app
// layer wires to the open document; a value that cannot be applied is
// marked in place and kept as Pending, never dropped without a word. What
// needs the world — the engine's checks (Check, Fields), connection tests
// (OnTestAgent, OnTestMCP, OnTestToolApp), the saved credentials
// (OnCredentials), Sign in, a trigger's fires and timer (TriggerHooks) —
// is asked through callback fields; the app layer runs it off the UI
// thread and answers through the reply function each callback carries, on
// the UI thread. Its labels come from the Localizer it declares and its
// own catalogues (catalog.go, policy_text.go, triggers_text.go); what the
// rest of the window words too — a kind's name and icon, an error as a
// sentence, a count, line breaks — comes from the app layer's Wording.
// Every call is made on the UI goroutine; the inspector starts no
// goroutine and calls no fyne.Do (docs/ARCHITECTURE.md).
//
// Widget, Keys, Problems, ProblemsInPlace and TestResult read what the
// form shows, as a person reads it; the window's tests check it through
// them.
package inspector
