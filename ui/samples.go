package ui

import (
	"workrun/ui/document"
	"workrun/workrun"
)

func pos(x, y float32) *workrun.Position { return &workrun.Position{X: x, Y: y} }

// SampleInputs are the run inputs the samples' inputs dialog starts with,
// by the sample's name in each language (noteSample): the built-in demo
// agent reads its behaviour from the message's first word ("echo …",
// "hang", "slow N", …).
var SampleInputs = map[string]map[string]string{}

func init() {
	noteSample("sample.remote.name", "Remote Agent demo", map[string][2]string{"question": {"sample.remote.question", "echo Hello from Workrun"}})
	noteSample("sample.parallel.name", "Parallel branches, one fails", map[string][2]string{"question": {"", "hang"}})
	noteSample("sample.tool_app.name", "Tool App demo", map[string][2]string{"name": {"", "Ada"}})
}

// SampleRemote is the Remote Agent demo: a question goes to the agent at
// agentURL and its answer comes out.
func SampleRemote(loc workrun.Localizer, agentURL string) workrun.Workflow {
	return workrun.Workflow{
		Name:  loc.X("sample.remote.name", "Remote Agent demo"),
		State: map[string]workrun.FieldType{"question": workrun.FieldText, "answer": workrun.FieldText, "files": workrun.FieldFiles},
		Nodes: []workrun.NodeSpec{
			{ID: "start", Type: "start", Title: loc.X("sample.remote.start", "Question"), Position: pos(40, 120)},
			// The demo's "file" answer comes with a file: kept in files.
			{ID: "ask", Type: "remote_agent", Title: loc.X("sample.remote.ask", "Ask the agent"), Position: pos(300, 120),
				Config: document.EncodeConfig(map[string]any{"url": agentURL, "message": "{{question}}", "output": "answer", "output_files": "files", "timeout_seconds": workrun.RemoteTimeoutDefaultSeconds})},
			{ID: "end", Type: "output", Title: loc.X("sample.remote.end", "Answer"), Position: pos(560, 120), Config: document.EncodeConfig(map[string]any{"fields": []string{"answer", "files"}})},
		},
		Edges: []workrun.Edge{{From: "start", To: "ask"}, {From: "ask", To: "end"}},
	}
}

// SampleParallel runs a Remote Agent next to a local branch that fails after
// a moment, so the best-effort cancel of the remote task can be watched
// (docs/remote-agent.md R2, R9–R11): "Remote task: requesting cancellation…" then its outcome.
// With the question "hang" the demo agent works until it is canceled.
func SampleParallel(loc workrun.Localizer, agentURL string) workrun.Workflow {
	return workrun.Workflow{
		Name: loc.X("sample.parallel.name", "Parallel branches, one fails"),
		State: map[string]workrun.FieldType{
			"question": workrun.FieldText, "answer": workrun.FieldText, "check": workrun.FieldText,
		},
		Nodes: []workrun.NodeSpec{
			{ID: "start", Type: "start", Title: loc.X("sample.parallel.start", "Question"), Position: pos(40, 160)},
			{ID: "ask", Type: "remote_agent", Title: loc.X("sample.parallel.ask", "Slow remote work"), Position: pos(300, 60),
				Config: document.EncodeConfig(map[string]any{"url": agentURL, "message": "{{question}}", "output": "answer", "timeout_seconds": workrun.RemoteTimeoutDefaultSeconds})},
			{ID: "check", Type: "process", Title: loc.X("sample.parallel.check", "Local check (fails)"), Position: pos(300, 260),
				Config: document.EncodeConfig(map[string]any{"command": []string{"sh", "-c", "sleep 2; echo 'check failed' >&2; exit 3"}, "timeout_seconds": 30, "stdout": "check"})},
			{ID: "join", Type: "join", Title: loc.X("sample.parallel.join", "Both branches"), Position: pos(560, 160)},
			{ID: "end", Type: "output", Title: loc.X("sample.parallel.end", "Results"), Position: pos(800, 160), Config: document.EncodeConfig(map[string]any{"fields": []string{"answer", "check"}})},
		},
		Edges: []workrun.Edge{
			{From: "start", To: "ask"}, {From: "start", To: "check"},
			{From: "ask", To: "join"}, {From: "check", To: "join"}, {From: "join", To: "end"},
		},
	}
}
