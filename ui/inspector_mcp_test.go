package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/google/go-cmp/cmp"

	"workrun/mcp/demoserver"
	"workrun/nodes/remotemcp"
	"workrun/ui/inspector"
	"workrun/ui/tooltip"
	"workrun/workrun"
)

// mcpWorkflow has one Remote MCP Tool node "m" with config c.
func mcpWorkflow(c Config) workrun.Workflow {
	return workrun.Workflow{Name: "mcp", State: map[string]workrun.FieldType{"q": workrun.FieldText, "n": workrun.FieldNumber,
		"report": workrun.FieldText, "data": workrun.FieldJSON, "files": workrun.FieldFiles},
		Nodes: []workrun.NodeSpec{{ID: "start", Type: "start"}, {ID: "m", Type: "remote_mcp", Title: "Search", Config: EncodeConfig(c)}},
		Edges: []workrun.Edge{{From: "start", To: "m"}}}
}

// searchSchema has required and optional properties of several types, in
// an order that is not alphabetical.
const searchSchema = `{"type":"object","properties":{
	"query":{"type":"string","description":"What to look for"},
	"ratio":{"type":"number"},
	"limit":{"type":"integer","description":"How many results"},
	"exact":{"type":"boolean","description":"Match the words exactly"},
	"tags":{"type":"array","items":{"type":"string"}},
	"filter":{"type":"object"},
	"note":{"type":["string","null"],"title":"A note"}},
	"required":["query","limit"]}`

var fakeTools = []MCPTool{
	{Name: "search", Title: "Web search", Description: "Searches the web and returns the best pages.", TaskSupport: "optional", InputSchema: json.RawMessage(searchSchema)},
	{Name: "ping", Description: "Answers pong.", TaskSupport: "forbidden"},
	{Name: "solve", Title: "Solver", Description: "Runs a long solver.", TaskSupport: "required", InputSchema: json.RawMessage(`{"type":"object"}`)},
}

// testMCP presses Test connection and waits for its result.
func testMCP(t *testing.T, in *inspector.Inspector) {
	t.Helper()
	done := make(chan struct{})
	in.OnTested = func() { close(done) }
	b := in.Widget("test").(*widget.Button)
	if b.Disabled() {
		t.Fatal("Test connection is disabled")
	}
	fyne.DoAndWait(func() { test.Tap(b) })
	<-done
}

func mcpNodeConfig(t *testing.T, w *Window) (json.RawMessage, Config) {
	t.Helper()
	n, ok := w.doc.Node("m")
	if !ok {
		t.Fatal("node m is gone")
	}
	c, err := DecodeConfig(n.Config)
	if err != nil {
		t.Fatalf("config %s: %v", n.Config, err)
	}
	return n.Config, c
}

// TestInspectorMCP_TestConnectionListsTools: Test connection sends the typed
// URL and chosen credential and lists every tool with its title,
// description and task support; an error is shown plainly.
func TestInspectorMCP_TestConnectionListsTools(t *testing.T) {
	var gotURL, gotCred string
	check := func(_ context.Context, u, cred string) ([]MCPTool, error) {
		gotURL, gotCred = u, cred
		if strings.Contains(u, "down") {
			return nil, errors.New("initialize http://127.0.0.1:9/mcp: connection refused")
		}
		return fakeTools, nil
	}
	_, creds := newMemKeyring()
	if err := creds.Set(t.Context(), Credential{Name: "mcp-token", Origin: "http://127.0.0.1:41251", Kind: "bearer"}, "s3cret"); err != nil {
		t.Fatal(err)
	}
	// The list is read off the Fyne thread, and the test driver runs
	// fyne.Do on the calling goroutine: hold the read until the form is
	// built, then wait for the picker to be filled.
	release, credsDone := make(chan struct{}), make(chan struct{}, 1)
	list := creds.ListFunc
	creds.ListFunc = func(ctx context.Context) ([]Credential, error) { <-release; return list(ctx) }
	w := newTestWindow(t, Deps{CheckMCP: check, Credentials: creds})
	w.OpenWorkflow("", mcpWorkflow(Config{URL: "http://127.0.0.1:41251/mcp", TimeoutSeconds: 120, Task: "auto"}))
	in := w.insp
	in.OnCredentialsShown = func() { credsDone <- struct{}{} }
	w.doc.Select("m", false)
	close(release)
	<-credsDone
	if got := texts(in.Object()); !strings.Contains(strings.Join(got, "\n"), "Test the connection and choose a tool") {
		t.Errorf("before a test the arguments do not say what to do: %q", got)
	}
	testMCP(t, in)
	if gotURL != "http://127.0.0.1:41251/mcp" || gotCred != "" {
		t.Errorf("checked %q with credential %q", gotURL, gotCred)
	}
	// Compared without spaces: a wrapped label is drawn a line at a time.
	flat := func(s string) string { return strings.Join(strings.Fields(s), "") }
	shown := flat(strings.Join(texts(in.Object()), ""))
	for _, want := range []string{"✓ 3 tools", "search — Web search", "task optional · Searches the web and returns the best pages.",
		"ping", "no tasks (plain call) · Answers pong.", "solve — Solver", "task required · Runs a long solver."} {
		if !strings.Contains(shown, flat(want)) {
			t.Errorf("tool list lacks %q:\n%s", want, shown)
		}
	}
	// The test calls no tool and changes nothing in the workflow.
	if _, c := mcpNodeConfig(t, w); c.Tool != "" || c.Arguments != nil {
		t.Errorf("a test changed the config: %+v", c)
	}
	// The chosen credential is tested by name; its secret never reaches the window.
	cred := in.Widget("credential").(*widget.Select)
	if !slices.Contains(cred.Options, "mcp-token") {
		t.Fatalf("credential choices %q", cred.Options)
	}
	cred.SetSelected("mcp-token")
	testMCP(t, in)
	if gotCred != "mcp-token" {
		t.Errorf("tested with credential %q", gotCred)
	}
	if _, c := mcpNodeConfig(t, w); c.Credential != "mcp-token" {
		t.Errorf("credential %q not applied", c.Credential)
	}
	in.Widget("url").(*widget.Entry).SetText("http://127.0.0.1:9/down")
	testMCP(t, in)
	if got := in.TestResult(); !strings.HasPrefix(got, "✗ ") || !strings.Contains(got, "connection refused") {
		t.Errorf("error result %q", got)
	}
	if in.Widget("use:search") != nil || in.Widget("tools").Visible() {
		t.Error("the failed test still shows the earlier tool list")
	}
}

// TestInspectorMCP_ChoosingToolBuildsArgumentForm: choosing a tool builds one
// entry per property of its input schema, required ones first, else in the
// schema's order, with type,
// description and required mark; the required ones left empty are named.
func TestInspectorMCP_ChoosingToolBuildsArgumentForm(t *testing.T) {
	w := newTestWindow(t, Deps{CheckMCP: func(context.Context, string, string) ([]MCPTool, error) { return fakeTools, nil }})
	w.OpenWorkflow("", mcpWorkflow(Config{URL: "http://127.0.0.1:41251/mcp", TimeoutSeconds: 120, Task: "auto"}))
	w.doc.Select("m", false)
	in := w.insp
	testMCP(t, in)
	fyne.DoAndWait(func() { test.Tap(in.Widget("use:search").(*tooltip.Button)) })
	if in.Widget("tools").(*widget.Accordion).Items[0].Open {
		t.Error("the tool list stays open after a tool was chosen")
	}

	var got []string
	for _, k := range in.Keys() {
		if strings.HasPrefix(k, "arguments.") {
			got = append(got, k)
		}
	}
	if len(got) != 7 {
		t.Fatalf("argument entries %v, want 7", got)
	}
	shown := strings.Join(texts(in.Object()), "\n")
	order := []string{"query (string) *  required", "What to look for", "limit (integer) *  required", "How many results",
		"ratio (number)", "exact (boolean)", "Match the words exactly", "tags (array)", "filter (object)", "note (string | null)", "A note"}
	last := -1
	for _, want := range order {
		i := strings.Index(shown, want)
		if i < 0 {
			t.Errorf("argument form lacks %q:\n%s", want, shown)
			continue
		}
		if i < last {
			t.Errorf("%q is out of order", want)
		}
		last = i
	}
	if strings.Contains(shown, "ratio (number) *") {
		t.Error("an optional property is marked required")
	}
	if !strings.Contains(shown, "required arguments left empty: query, limit") {
		t.Errorf("empty required arguments not named:\n%s", shown)
	}
	if _, c := mcpNodeConfig(t, w); c.Tool != "search" {
		t.Errorf("tool %q after choosing search", c.Tool)
	}
	if !in.Widget("use:search").(*tooltip.Button).Disabled() || in.Widget("use:solve").(*tooltip.Button).Disabled() {
		t.Error("the chosen tool's Use button is not the one disabled")
	}
	// Another tool: its own form, without the first tool's values; a
	// tool without properties says so. Undo brings the values back.
	in.Widget("arguments.query").(*inspector.TemplateEntry).SetText("{{q}}")
	fyne.DoAndWait(func() { test.Tap(in.Widget("use:solve").(*tooltip.Button)) })
	if in.Widget("arguments.query") != nil {
		t.Error("the search form stayed after choosing solve")
	}
	if shown := strings.Join(texts(in.Object()), "\n"); !strings.Contains(shown, "The tool takes no arguments.") {
		t.Errorf("solve's form:\n%s", shown)
	}
	if _, c := mcpNodeConfig(t, w); c.Tool != "solve" || c.Arguments != nil {
		t.Errorf("after choosing solve: tool %q arguments %v", c.Tool, c.Arguments)
	}
	w.doc.Undo()
	if _, c := mcpNodeConfig(t, w); c.Tool != "search" || c.Arguments["query"] != "{{q}}" {
		t.Errorf("after undo: tool %q arguments %v", c.Tool, c.Arguments)
	}
	if e, ok := in.Widget("arguments.query").(*inspector.TemplateEntry); !ok || e.Text != "{{q}}" {
		t.Error("undo did not bring the search form back")
	}
}

// TestInspectorMCP_TypingSetsArguments: what is typed into the argument form
// is the node's arguments object as it is typed: templates verbatim, typed
// values as JSON of their type, empty ones left out; a value that is not
// of its type is marked and not applied. The result compiles in the node.
func TestInspectorMCP_TypingSetsArguments(t *testing.T) {
	w := newTestWindow(t, Deps{Engine: checkingEngine(), CheckMCP: func(context.Context, string, string) ([]MCPTool, error) { return fakeTools, nil }})
	wf := mcpWorkflow(Config{URL: "http://127.0.0.1:41251/mcp", TimeoutSeconds: 120, Task: "auto"})
	w.OpenWorkflow("", wf)
	w.doc.Select("m", false)
	in := w.insp
	testMCP(t, in)
	in.Widget("tool").(*widget.SelectEntry).SetText("search") // typed, not picked
	arg := func(name string) *widget.Entry {
		e, ok := in.Widget("arguments." + name).(*inspector.TemplateEntry)
		if !ok {
			t.Fatalf("no entry for argument %s", name)
		}
		return &e.Entry
	}
	typeInto := func(e *widget.Entry, s string) {
		fyne.DoAndWait(func() { w.win.Canvas().Focus(e) })
		test.Type(e, s)
	}
	typeInto(arg("query"), "news about {{q}} today")
	typeInto(arg("limit"), "{{n}}")
	typeInto(arg("ratio"), "0.5")
	typeInto(arg("exact"), "true")
	typeInto(arg("tags"), `["a", "b"]`)
	typeInto(arg("note"), "5")
	raw, c := mcpNodeConfig(t, w)
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("config is not JSON: %s", raw)
	}
	var args map[string]any
	if err := json.Unmarshal(m["arguments"], &args); err != nil {
		t.Fatalf("arguments %s: %v", m["arguments"], err)
	}
	want := map[string]any{"query": "news about {{q}} today", "limit": "{{n}}", "ratio": 0.5, "exact": true,
		"tags": []any{"a", "b"}, "note": "5"}
	if diff := cmp.Diff(want, args); diff != "" {
		t.Errorf("arguments (-want +got):\n%s\nraw %s", diff, raw)
	}
	if !strings.Contains(string(m["arguments"]), `"query":"news about {{q}} today"`) {
		t.Errorf("template not verbatim: %s", m["arguments"])
	}
	if c.Tool != "search" || c.URL != "http://127.0.0.1:41251/mcp" {
		t.Errorf("config %+v", c)
	}
	if shown := strings.Join(texts(in.Object()), "\n"); strings.Contains(shown, "left empty") {
		t.Errorf("required arguments reported empty after typing them:\n%s", shown)
	}
	// The node itself accepts what the form wrote.
	cur := w.doc.Workflow()
	if _, _, _, err := remotemcp.ParseConfig(raw, cur); err != nil {
		t.Errorf("the node refuses the config: %v\n%s", err, raw)
	}
	// A number argument that is neither a number nor a template is marked
	// and kept pending; the document keeps the last good value.
	arg("ratio").SetText("half")
	if ps := in.Problems(); len(ps) == 0 || !strings.Contains(ps[0], `argument ratio: "half" is not number`) {
		t.Errorf("problems %q", ps)
	}
	if in.Pending() == "" {
		t.Error("the bad value is not pending")
	}
	if raw2, _ := mcpNodeConfig(t, w); string(raw2) != string(raw) {
		t.Errorf("a bad value was applied: %s", raw2)
	}
	arg("ratio").SetText("")
	if _, c := mcpNodeConfig(t, w); c.Arguments["ratio"] != nil || in.Pending() != "" {
		t.Errorf("emptied argument kept: %v (pending %q)", c.Arguments, in.Pending())
	}
	// The other keys apply as they change.
	in.Widget("output").(*widget.Select).SetSelected("report")
	in.Widget("output_json").(*widget.Select).SetSelected("data")
	in.Widget("output_files").(*widget.Select).SetSelected("files")
	in.Widget("task").(*widget.Select).SetSelected("never (a plain call)")
	in.Widget("timeout_seconds").(*widget.Entry).SetText("601")
	if ps := in.Problems(); len(ps) == 0 || !strings.Contains(ps[0], "from 1 to 600") {
		t.Errorf("timeout 601: problems %q", ps)
	}
	in.Widget("timeout_seconds").(*widget.Entry).SetText("600")
	_, c = mcpNodeConfig(t, w)
	if c.Output != "report" || c.OutputJSON != "data" || c.OutputFiles != "files" || c.Task != "never" || c.TimeoutSeconds != 600 {
		t.Errorf("other keys not applied: %+v", c)
	}
	// The rebuilt form (another node, then back) shows the saved values
	// and the tool's schema without another test.
	w.doc.Select("start", false)
	w.doc.Select("m", false)
	if got := arg("query").Text; got != "news about {{q}} today" {
		t.Errorf("query after rebuild %q", got)
	}
	if got := arg("exact").Text; got != "true" {
		t.Errorf("exact after rebuild %q", got)
	}
	if in.Widget("arguments.filter") == nil {
		t.Error("the schema's empty properties are gone after a rebuild")
	}
}

// TestInspectorMCP_DemoServer tests the connection to the built-in demo MCP
// server through the node's own connection test, chooses its research
// tool and fills in the form the server's schema describes.
func TestInspectorMCP_DemoServer(t *testing.T) {
	d := demoserver.New(demoserver.Options{})
	srv := httptest.NewServer(d.Mux())
	t.Cleanup(func() { srv.Close(); d.Close() })
	// main.go's wiring does this with the keyring's credentials.
	listed := 0 // how many tools the server listed
	check := func(ctx context.Context, u, cred string) ([]MCPTool, error) {
		rep, err := remotemcp.CheckNamed(ctx, u, cred, nil)
		if err != nil {
			return nil, err
		}
		var out []MCPTool
		listed = len(rep.Tools)
		for _, ti := range rep.Tools {
			b, err := json.Marshal(ti.InputSchema)
			if err != nil {
				return nil, err
			}
			out = append(out, MCPTool{Name: ti.Name, Title: ti.Title, Description: ti.Description, TaskSupport: ti.TaskSupport, InputSchema: b})
		}
		return out, nil
	}
	w := newTestWindow(t, Deps{CheckMCP: check})
	url := srv.URL + demoserver.Path
	w.OpenWorkflow("", mcpWorkflow(Config{URL: url, TimeoutSeconds: 120, Task: "auto"}))
	w.doc.Select("m", false)
	in := w.insp
	testMCP(t, in)
	shown := strings.Join(texts(in.Object()), "\n")
	if listed < 5 {
		t.Fatalf("the demo server listed %d tools", listed)
	}
	for _, want := range []string{fmt.Sprintf("✓ %d tools", listed), "research — Research (long-running)", "task optional", "echo — Echo", "no tasks (plain call)"} {
		if !strings.Contains(shown, want) {
			t.Errorf("demo tool list lacks %q:\n%s", want, shown)
		}
	}
	fyne.DoAndWait(func() { test.Tap(in.Widget("use:research").(*tooltip.Button)) })
	shown = strings.Join(texts(in.Object()), "\n")
	for _, want := range []string{"topic (string) *  required", "What to research", "stages (integer)", "Number of stages (default 4)"} {
		if !strings.Contains(shown, want) {
			t.Errorf("research form lacks %q:\n%s", want, shown)
		}
	}
	in.Widget("arguments.topic").(*inspector.TemplateEntry).SetText("{{q}}")
	in.Widget("arguments.stages").(*inspector.TemplateEntry).SetText("2")
	raw, c := mcpNodeConfig(t, w)
	if diff := cmp.Diff(map[string]any{"topic": "{{q}}", "stages": 2.0}, c.Arguments); diff != "" || c.Tool != "research" {
		t.Errorf("tool %q arguments (-want +got):\n%s", c.Tool, diff)
	}
	if _, _, _, err := remotemcp.ParseConfig(raw, w.doc.Workflow()); err != nil {
		t.Errorf("the node refuses the config: %v\n%s", err, raw)
	}
}

// TestInspectorMCP_ArgumentCompletes: a tool argument's value is a
// template; "{{" lists the State fields under its entry as in the Remote
// Agent's message, Enter inserts one, and the node's arguments take it.
func TestInspectorMCP_ArgumentCompletes(t *testing.T) {
	w := newTestWindow(t, Deps{Engine: checkingEngine(), CheckMCP: func(context.Context, string, string) ([]MCPTool, error) { return fakeTools, nil }})
	w.OpenWorkflow("", mcpWorkflow(Config{URL: "http://127.0.0.1:41251/mcp", TimeoutSeconds: 120, Task: "auto"}))
	w.doc.Select("m", false)
	in := w.insp
	testMCP(t, in)
	in.Widget("tool").(*widget.SelectEntry).SetText("search")
	e, ok := in.Widget("arguments.query").(*inspector.TemplateEntry)
	if !ok {
		t.Fatalf("the query argument's editor is %T, want a template entry", in.Widget("arguments.query"))
	}
	fyne.DoAndWait(func() { w.win.Canvas().Focus(e) })
	test.Type(e, "about {{")
	names := buttonTexts(e.Completions())
	want := []string{"data  (JSON)", "files  (files)", "n  (number)", "q  (text)", "report  (text)"}
	if !slices.Equal(names, want) {
		t.Fatalf("after {{ the list offers %q, want %q", names, want)
	}
	test.Type(e, "q")
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if e.Text != "about {{q}}" || e.Completions() != nil {
		t.Fatalf("after Enter: text %q, list %q", e.Text, buttonTexts(e.Completions()))
	}
	if _, c := mcpNodeConfig(t, w); c.Arguments["query"] != "about {{q}}" {
		t.Errorf("arguments %v", c.Arguments)
	}
	test.Type(e, " {{zz")
	for _, b := range e.Completions() {
		if strings.HasPrefix(b.Text, "Create the field") {
			t.Errorf("a tool argument offers %q (no new-field row there)", b.Text)
		}
	}
}
