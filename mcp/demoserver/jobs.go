package demoserver

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// job is a legacy job: the answer to start_job, polled with get_job_result.
type job struct {
	id, label string
	ends      time.Time
	cancelled bool
}

func jobStatus(id, status, message string, extra map[string]any) result {
	v := map[string]any{"status": status, "job_id": id, "message": message}
	for k, x := range extra {
		v[k] = x
	}
	b, _ := json.Marshal(v)
	r := textResult(string(b))
	r.StructuredContent = v
	return r
}

func startJob(_ context.Context, s *Server, c *call) (result, error) {
	var a struct {
		Seconds *float64 `json:"seconds"`
		Label   string   `json:"label"`
	}
	if err := decodeArgs(c.args, &a); err != nil {
		return result{}, err
	}
	secs := 3.0
	if a.Seconds != nil {
		secs = *a.Seconds
	}
	s.mu.Lock()
	s.nextJob++
	j := &job{id: fmt.Sprintf("job-%d", s.nextJob), label: a.Label, ends: time.Now().Add(time.Duration(secs * float64(time.Second)))}
	s.jobs[j.id] = j
	s.mu.Unlock()
	return jobStatus(j.id, "running", fmt.Sprintf("Poll with get_job_result(job_id=%s)", j.id), nil), nil
}

func jobArg(raw json.RawMessage) (string, error) {
	var a struct {
		JobID string `json:"job_id"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return "", err
	}
	return a.JobID, nil
}

func getJob(_ context.Context, s *Server, c *call) (result, error) {
	id, err := jobArg(c.args)
	if err != nil {
		return result{}, err
	}
	s.mu.Lock()
	j, ok := s.jobs[id]
	s.mu.Unlock()
	switch {
	case !ok:
		r := textResult("unknown job " + id)
		r.IsError = true
		return r, nil
	case j.cancelled:
		return jobStatus(id, "cancelled", "the job was cancelled", nil), nil
	case time.Now().Before(j.ends):
		return jobStatus(id, "running", fmt.Sprintf("still running; poll again with get_job_result(job_id=%s)", id), nil), nil
	}
	return jobStatus(id, "completed", "done", map[string]any{"result": fmt.Sprintf("job %s (%s) finished", id, j.label)}), nil
}

func cancelJob(_ context.Context, s *Server, c *call) (result, error) {
	id, err := jobArg(c.args)
	if err != nil {
		return result{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	j, ok := s.jobs[id]
	switch {
	case !ok:
		r := textResult("unknown job " + id)
		r.IsError = true
		return r, nil
	case !time.Now().Before(j.ends) && !j.cancelled:
		return jobStatus(id, "completed", "the job had already finished", nil), nil
	}
	j.cancelled = true
	return jobStatus(id, "cancelled", "the job was cancelled", nil), nil
}
