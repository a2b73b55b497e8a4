package remotemcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"workrun/mcp"
	"workrun/remotecall"
	"workrun/workrun"
)

// jobPoll is how often a legacy job is polled; such servers announce no
// interval.
const jobPoll = 2 * time.Second

// jobReply is the small JSON a legacy long tool answers with.
type jobReply struct {
	Status  string `json:"status"`
	JobID   string `json:"job_id"`
	Message string `json:"message"`
}

// readJob finds a legacy job answer in structuredContent or in the first
// text block.
func readJob(r *mcp.ToolResult) (jobReply, bool) {
	if r == nil || r.IsError {
		return jobReply{}, false
	}
	var j jobReply
	if len(r.StructuredContent) > 0 && json.Unmarshal(r.StructuredContent, &j) == nil && j.JobID != "" && j.Status != "" {
		return j, true
	}
	for _, c := range r.Content {
		if c.Type == "text" {
			t := strings.TrimSpace(c.Text)
			if strings.HasPrefix(t, "{") && json.Unmarshal([]byte(t), &j) == nil && j.JobID != "" && j.Status != "" {
				return j, true
			}
			break
		}
	}
	return jobReply{}, false
}

// jobOf returns the job id of an answer that starts a legacy job.
func jobOf(r *mcp.ToolResult) string {
	j, ok := readJob(r)
	if !ok {
		return ""
	}
	switch strings.ToLower(j.Status) {
	case "running", "pending", "queued", "working", "started", "submitted":
		return j.JobID
	}
	return ""
}

// followJob polls get_job_result until the job ends. Only the job is read;
// the tool that started it is never called again.
func (c *call) followJob(ctx context.Context, srv MCPClient) (workrun.Values, error) {
	id := c.Record().TaskID
	args, _ := json.Marshal(map[string]string{"job_id": id})
	failures := 0
	for {
		if err := sleep(ctx, jobPoll); err != nil {
			return nil, err
		}
		if c.Aborted() {
			return nil, remotecall.ErrAborted
		}
		gctx, cancel := context.WithTimeout(ctx, c.s.timeout)
		res, err := srv.CallTool(gctx, mcp.CallParams{Name: "get_job_result", Arguments: args})
		cancel()
		if err == nil && res.Task != nil {
			err = fmt.Errorf("%w: get_job_result answered with a task", mcp.ErrProtocol)
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if gone(err) {
				return nil, c.statusUnknown(ctx, parseLink(c.Record().ContextID).Session)
			}
			if serr := c.signInStop(ctx, err); serr != nil {
				return nil, serr
			}
			failures++
			if failures >= maxReadFailures {
				return nil, reason([]error{err}, msgJobReadFailed, id, failures, why(err))
			}
			c.log(msgReadAgain, id, clip(err.Error(), 300))
			continue
		}
		failures = 0
		r := res.Result
		if r.IsError {
			if err := c.Update(ctx, func(rec *workrun.RemoteCall) {
				rec.Ended, rec.RemoteState, rec.StatusText = true, mcp.StatusFailed, clip(r.Text(), 2000)
			}); err != nil {
				return nil, err
			}
			var out workrun.Values
			if c.s.cfg.Output != "" {
				out = workrun.Values{c.s.cfg.Output: clip(r.Text(), 2000)}
			}
			return out, workrun.KnownFailure(texts.Error(ErrToolError, msgToolError, "get_job_result", clip(r.Text(), 2000)))
		}
		j, ok := readJob(r)
		if !ok {
			// A final answer that is not a status object is the result.
			return c.finish(ctx, srv, r)
		}
		switch strings.ToLower(j.Status) {
		case "running", "pending", "queued", "working", "started", "submitted":
			if err := c.applyTask(ctx, &mcp.Task{TaskID: id, Status: mcp.StatusWorking, StatusMessage: j.Message}); err != nil {
				return nil, err
			}
		case "completed", "complete", "done", "succeeded", "success", "finished":
			if err := c.Update(ctx, func(rec *workrun.RemoteCall) { rec.RemoteState = mcp.StatusCompleted }); err != nil {
				return nil, err
			}
			return c.finish(ctx, srv, r)
		default:
			status := mcp.StatusFailed
			if strings.HasPrefix(strings.ToLower(j.Status), "cancel") {
				status = mcp.StatusCancelled
			}
			if err := c.applyTask(ctx, &mcp.Task{TaskID: id, Status: status, StatusMessage: j.Message}); err != nil {
				return nil, err
			}
			return nil, c.remoteFailed(c.Record())
		}
	}
}
