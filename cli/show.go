package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"workrun/workrun"
)

func init() {
	register(&Command{
		Name:    "show",
		Args:    "RUN_ID [--json] [--lang en|zh]",
		Summary: "show a run: status, failure reason and node, each node's status and messages, remote tasks, artifacts",
		Run:     showCommand,
	})
}

// shownNode is one node of `workrun show`.
type shownNode struct {
	workrun.NodeRun
	Messages []workrun.Message `json:"messages"`
}

// shownRemoteCall is a saved Remote Agent call, without its raw result.
type shownRemoteCall struct {
	NodeID        string    `json:"node_id"`
	CallKey       string    `json:"call_key,omitempty"`
	AgentURL      string    `json:"agent_url"`
	Origin        string    `json:"origin,omitempty"`
	MessageID     string    `json:"message_id,omitempty"`
	TaskID        string    `json:"task_id,omitempty"`
	ContextID     string    `json:"context_id,omitempty"`
	RemoteState   string    `json:"remote_state,omitempty"`
	StatusText    string    `json:"status_text,omitempty"`
	CancelOutcome string    `json:"cancel_outcome,omitempty"`
	CancelText    string    `json:"cancel_text,omitempty"`
	Ended         bool      `json:"ended"`
	HasResult     bool      `json:"has_result"`
	CreatedAt     time.Time `json:"created_at"`
	UpdatedAt     time.Time `json:"updated_at"`
}

type shownRun struct {
	Run         workrun.Run            `json:"run"`
	Nodes       []shownNode            `json:"nodes"`
	RemoteCalls []shownRemoteCall      `json:"remote_calls"`
	Artifacts   []workrun.ArtifactInfo `json:"artifacts"`
}

func showCommand(ctx context.Context, env *Env, args []string) int {
	fs := flag.NewFlagSet("show", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "")
	langFlag := fs.String("lang", "", "")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return usageError(env, "show: "+err.Error())
	}
	if len(pos) != 1 {
		return usageError(env, "show needs a run id")
	}
	lang, err := readerLanguage(env, *langFlag)
	if err != nil {
		return usageError(env, "show: "+err.Error())
	}
	svc, code := openRunStore(ctx, env)
	if svc == nil {
		return code
	}
	defer closeServices(env, svc)
	sr, err := loadRun(ctx, svc, pos[0], lang)
	if err != nil {
		return reportRunError(env, err)
	}
	// Messages are rendered now, in the reader's language; JSON also
	// keeps each one's key and arguments.
	for _, n := range sr.Nodes {
		for i, m := range n.Messages {
			n.Messages[i].Text = m.In(lang)
		}
	}
	if *asJSON {
		enc := json.NewEncoder(&jsonTerm{w: env.Stdout})
		enc.SetIndent("", "  ")
		_ = enc.Encode(sr)
		return ExitOK
	}
	printRun(env.Stdout, sr, lang)
	return ExitOK
}

func loadRun(ctx context.Context, svc *Services, id, lang string) (shownRun, error) {
	r, err := svc.Runs.GetRun(ctx, id)
	if err != nil {
		return shownRun{}, err
	}
	recs, err := svc.Runs.NodeRuns(ctx, id)
	if err != nil {
		return shownRun{}, err
	}
	msgs, err := svc.Runs.Messages(ctx, id)
	if err != nil {
		return shownRun{}, err
	}
	sr := shownRun{Run: r, Nodes: []shownNode{}, RemoteCalls: []shownRemoteCall{}, Artifacts: []workrun.ArtifactInfo{}}
	byID := map[string]workrun.NodeRun{}
	for _, n := range recs {
		byID[n.NodeID] = n
	}
	// Every node of the workflow, in its order; never-started ones are pending.
	for _, spec := range r.Workflow.Nodes {
		n, ok := byID[spec.ID]
		if !ok {
			n = workrun.NodeRun{RunID: id, NodeID: spec.ID, Type: spec.Type, Status: workrun.NodePending}
		}
		sn := shownNode{NodeRun: n, Messages: []workrun.Message{}}
		for _, m := range msgs {
			if m.NodeID == spec.ID {
				sn.Messages = append(sn.Messages, m)
			}
		}
		sr.Nodes = append(sr.Nodes, sn)
	}
	if svc.RemoteCalls != nil {
		calls, err := svc.RemoteCalls.RemoteCallsForRun(ctx, id)
		if err != nil {
			return shownRun{}, err
		}
		for _, c := range calls {
			sr.RemoteCalls = append(sr.RemoteCalls, shownRemoteCall{NodeID: c.NodeID, CallKey: c.CallKey, AgentURL: c.AgentURL,
				Origin: c.Origin, MessageID: c.MessageID, TaskID: c.TaskID, ContextID: c.ContextID,
				RemoteState: c.RemoteState, StatusText: c.StatusText, CancelOutcome: c.CancelOutcome,
				CancelText: c.CancelText, Ended: c.Ended, HasResult: c.Result != nil,
				CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt})
		}
	}
	// Artifacts the run's nodes made, then the files its inputs and State
	// refer to (an imported input was made by no node).
	seen := map[string]bool{}
	if svc.RunArtifacts != nil {
		made, err := svc.RunArtifacts.ArtifactsForRun(ctx, id)
		if err != nil {
			return shownRun{}, err
		}
		for _, a := range made {
			seen[a.ID] = true
			sr.Artifacts = append(sr.Artifacts, a)
		}
	}
	if svc.Artifacts != nil {
		for _, aid := range artifactIDs(r, recs) {
			if seen[aid] {
				continue
			}
			info, err := svc.Artifacts.Stat(ctx, aid)
			if err != nil {
				info = workrun.ArtifactInfo{ID: aid, Name: texts.In(lang, msgShowMissing, err.Error())}
			}
			sr.Artifacts = append(sr.Artifacts, info)
		}
	}
	return sr, nil
}

// artifactIDs collects the artifact ids held in file and files fields of the
// run's inputs, State and node records.
func artifactIDs(r workrun.Run, recs []workrun.NodeRun) []string {
	var ids []string
	add := func(v workrun.Values) {
		for name, val := range v {
			switch r.Workflow.State[name] {
			case workrun.FieldFile:
				if s, ok := val.(string); ok && s != "" && !slices.Contains(ids, s) {
					ids = append(ids, s)
				}
			case workrun.FieldFiles:
				l, _ := val.([]any)
				for _, x := range l {
					if s, ok := x.(string); ok && s != "" && !slices.Contains(ids, s) {
						ids = append(ids, s)
					}
				}
			}
		}
	}
	add(r.Inputs)
	for _, n := range recs {
		add(n.Outputs)
	}
	add(r.State)
	return ids
}

// printRun prints sr for a person in lang: its own words come from the
// catalogue (cli/text.go); node messages' Text is already rendered in lang;
// everything that came from a workflow, an agent or a process is data and
// is escaped (see termText). A failure reason and a node's error are shown
// as saved: they were written in the language of the process that ran.
func printRun(w io.Writer, sr shownRun, lang string) {
	r := sr.Run
	line := func(id msgID, args ...any) { fmt.Fprintln(w, texts.In(lang, id, args...)) }
	line(msgShowRun, termLine(r.ID), termLine(r.WorkflowName))
	line(msgShowStatus, termLine(statusIn(lang, r)))
	if r.FailedNode != "" {
		line(msgShowFailedNode, termLine(r.FailedNode))
	}
	if r.Reason != "" {
		line(msgShowReason, termText(r.Reason, "  "))
	}
	line(msgShowStarted, r.CreatedAt.Local().Format(time.DateTime))
	if !r.StartedBy.IsZero() {
		line(msgShowStartedBy, termLine(r.StartedBy.In(lang)))
	}
	if !r.EndedAt.IsZero() {
		line(msgShowEnded, r.EndedAt.Local().Format(time.DateTime))
	}
	fmt.Fprintln(w, "\n"+texts.In(lang, msgShowNodes))
	for _, n := range sr.Nodes {
		line := fmt.Sprintf("  %s (%s): %s", termLine(n.NodeID), termLine(n.Type), termLine(wordIn(lang, "status", string(n.Status))))
		if n.Error != "" {
			line += " — " + termText(n.Error, "      ")
		}
		fmt.Fprintln(w, line)
		for _, m := range n.Messages {
			fmt.Fprintf(w, "    %s %s\n", m.Time.Local().Format("15:04:05"), termText(m.Text, "             "))
		}
		if n.Status == workrun.NodeInterrupted && n.Question != nil {
			printQuestion(w, lang, r.ID, n.NodeID, *n.Question)
		}
	}
	if len(sr.RemoteCalls) > 0 {
		fmt.Fprintln(w, "\n"+texts.In(lang, msgShowRemoteTasks))
		for _, c := range sr.RemoteCalls {
			if (workrun.RemoteCall{CallKey: c.CallKey}).IsSide() {
				continue // a kind's bookkeeping beside the call (its questions), not a task
			}
			task := termLine(c.TaskID)
			if c.TaskID == "" {
				task = texts.In(lang, msgShowNoTask)
			}
			fmt.Fprint(w, "  "+texts.In(lang, msgShowTask, termLine(c.NodeID), termLine(c.AgentURL), task, termLine(remoteStateIn(lang, c.RemoteState))))
			if c.Ended {
				fmt.Fprint(w, texts.In(lang, msgShowCallEnded))
			}
			if c.MessageID != "" {
				fmt.Fprint(w, texts.In(lang, msgShowMessageID, termLine(c.MessageID)))
			}
			if c.CancelOutcome != "" {
				fmt.Fprint(w, texts.In(lang, msgShowCancel, termLine(cancelIn(lang, c))))
			}
			fmt.Fprintln(w)
			if c.StatusText != "" {
				fmt.Fprintf(w, "    %s\n", oneLine(c.StatusText, 200))
			}
		}
	}
	if len(sr.Artifacts) > 0 {
		fmt.Fprintln(w, "\n"+texts.In(lang, msgShowArtifacts))
		for _, a := range sr.Artifacts {
			fmt.Fprintln(w, "  "+texts.In(lang, msgShowArtifact, termLine(a.ID), termLine(a.Name), termLine(a.MediaType), a.Size))
		}
	}
}

// statusIn is a run's status in lang, with the cause of an interruption.
func statusIn(lang string, r workrun.Run) string {
	if r.Status == workrun.RunInterrupted && r.Interruption != "" {
		return texts.In(lang, msgShowInterrupted, wordIn(lang, "cause", string(r.Interruption)))
	}
	return wordIn(lang, "status", string(r.Status))
}

// remoteStateIn is a saved remote task state in lang: in English the wire
// word as saved (what the CLI always printed), in Chinese its name.
func remoteStateIn(lang, s string) string {
	if !workrun.IsChinese(lang) || s == "" {
		return s
	}
	return wordIn(lang, "remote", remoteStateWord(s))
}

// cancelIn is a call's cancel outcome in lang: in English the outcome word
// and the line saved with it; in Chinese the outcome's name (the saved line
// is in the language of the process that sent the cancel).
func cancelIn(lang string, c shownRemoteCall) string {
	if !workrun.IsChinese(lang) {
		return strings.TrimSpace(c.CancelOutcome + " " + c.CancelText)
	}
	return wordIn(lang, "cancel", c.CancelOutcome)
}
