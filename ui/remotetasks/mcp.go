package remotetasks

import (
	"fmt"
	"strings"

	"workrun/workrun"
)

// isMCP tells a Remote MCP Tool call from a Remote Agent call: by the
// node's kind when the panel knows it, else by the record's saved link
// (which an MCP call writes before its first request).
func (p *Panel) isMCP(t workrun.RemoteCall) bool {
	if p.KindOf != nil {
		if k := p.KindOf(t.NodeID); k != "" {
			return p.words.CallsMCP(k)
		}
	}
	return strings.HasPrefix(t.ContextID, "protocol=")
}

// writeMCPCall writes an MCP call's server, its task (or job) and how it
// runs, in words: never the raw link, the ids short (Wording.ShortID); it
// returns the ids to offer a Copy of.
func writeMCPCall(loc Localizer, words Wording, b *strings.Builder, t workrun.RemoteCall) []idToCopy {
	fmt.Fprintf(b, fieldLine(loc)+"\n", loc.X("remote.server", "Server"), t.AgentURL)
	l := workrun.ParseMCPLink(t.ContextID) // written by nodes/remotemcp
	var ids []idToCopy
	switch {
	case l.Handle == "job":
		fmt.Fprintf(b, fieldLine(loc)+"\n", loc.X("remote.job", "Job"), words.ShortID(t.TaskID))
		ids = append(ids, idToCopy{loc.X("remote.copy_job", "Copy job id"), t.TaskID})
	case t.TaskID != "":
		fmt.Fprintf(b, fieldLine(loc)+"\n", loc.X("remote.task", "Task"), words.ShortID(t.TaskID))
		ids = append(ids, idToCopy{loc.X("remote.copy_task", "Copy task id"), t.TaskID})
	}
	how := loc.X("remote.mcp_call", "a tool call that answers directly")
	switch {
	case l.Handle == "job":
		how = loc.X("remote.mcp_job", "a job the server runs; its result is fetched with get_job_result")
	case l.Form == "extension":
		how = loc.X("remote.mcp_task_ext", "a task (Tasks extension)")
	case l.Form != "":
		how = loc.X("remote.mcp_task", "a task")
	case t.TaskID == "" && t.ContextID == "":
		how = loc.X("remote.mcp_not_connected", "not connected yet")
	}
	fmt.Fprintf(b, fieldLine(loc)+"\n", loc.X("remote.runs_as", "Runs as"), how)
	if l.Protocol != "" {
		fmt.Fprintf(b, fieldLine(loc)+"\n", loc.X("remote.protocol", "MCP version"), l.Protocol)
	}
	if l.Session != "" {
		fmt.Fprintf(b, fieldLine(loc)+"\n", loc.X("remote.session", "Session"), words.ShortID(l.Session))
		ids = append(ids, idToCopy{loc.X("remote.copy_session", "Copy session id"), l.Session})
	}
	return ids
}
