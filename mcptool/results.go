package mcptool

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"mime"
	"net/url"
	"path"
	"strings"
	"time"

	"workrun/mcp"
	"workrun/workrun"
)

// Outputs are the State fields a tool's result goes into (docs/remote-mcp.md
// M9): text blocks into Output (text), structuredContent into OutputJSON
// (json), files into OutputFiles (files). An empty name keeps nothing.
type Outputs struct {
	Output, OutputJSON, OutputFiles string
}

// Writes lists the fields the outputs name.
func (o Outputs) Writes() []string {
	var w []string
	for _, f := range []string{o.Output, o.OutputJSON, o.OutputFiles} {
		if f != "" {
			w = append(w, f)
		}
	}
	return w
}

// savedResult is what a call commits on success, reused on resume. A text
// or structuredContent longer than workrun.InlineValueLimit is kept once,
// as an artifact, and only its reference is in the record (TextRef,
// JSONRef); the node's output is that reference too (docs/engine.md
// "Large values").
type savedResult struct {
	Text    string          `json:"text"`
	TextRef any             `json:"text_ref,omitempty"` // a workrun.ValueRef; read back by workrun.RefOf
	JSON    json.RawMessage `json:"json,omitempty"`
	JSONRef any             `json:"json_ref,omitempty"`
	Files   []string        `json:"files,omitempty"` // local artifact ids
}

// Save keeps a successful result: its files as local artifacts (the
// artifact store cleans the names and checks the media type against the
// bytes), resource links listed, never downloaded. It returns the saved
// form (for the call record), which Values turns into the node's outputs.
func (o Outputs) Save(ctx context.Context, nc workrun.NodeContext, r *mcp.ToolResult) (json.RawMessage, error) {
	files, err := o.saveFiles(ctx, nc, r.Content)
	if err != nil {
		return nil, err
	}
	saved := savedResult{Files: files}
	if o.Output != "" && r.SpooledText() {
		// Longer than the inline limit and not in memory: streamed from
		// the client's spool into the artifact store.
		ref, err := workrun.PutValue(ctx, nc.Artifacts(), workrun.FieldText, r.TextReader(), nc.RunID(), nc.NodeID())
		if err != nil {
			return nil, fmt.Errorf("save the tool's text: %w", err)
		}
		saved.TextRef = ref
	} else if o.Output != "" {
		if text := r.Text(); len(text) > workrun.InlineValueLimit {
			ref, err := workrun.PutValue(ctx, nc.Artifacts(), workrun.FieldText, strings.NewReader(text), nc.RunID(), nc.NodeID())
			if err != nil {
				return nil, fmt.Errorf("save the tool's text: %w", err)
			}
			saved.TextRef = ref
		} else {
			saved.Text = text
		}
	}
	if rd, ok := r.StructuredReader(); ok && o.OutputJSON != "" {
		// Spooled: checked JSON, longer than the inline limit.
		ref, err := workrun.PutValue(ctx, nc.Artifacts(), workrun.FieldJSON, rd, nc.RunID(), nc.NodeID())
		if err != nil {
			return nil, fmt.Errorf("save the tool's structuredContent: %w", err)
		}
		saved.JSONRef = ref
	} else if sc := bytes.TrimSpace(r.StructuredContent); o.OutputJSON != "" && len(sc) > 0 && json.Valid(sc) {
		if len(sc) > workrun.InlineValueLimit {
			ref, err := workrun.PutValue(ctx, nc.Artifacts(), workrun.FieldJSON, bytes.NewReader(sc), nc.RunID(), nc.NodeID())
			if err != nil {
				return nil, fmt.Errorf("save the tool's structuredContent: %w", err)
			}
			saved.JSONRef = ref
		} else {
			saved.JSON = sc
		}
	}
	return json.Marshal(saved)
}

func (o Outputs) saveFiles(ctx context.Context, nc workrun.NodeContext, content []mcp.Content) ([]string, error) {
	var ids []string
	n := 0
	for _, b := range content {
		var name, mt, data string
		var raw []byte
		switch b.Type {
		case "resource_link":
			nc.Log(texts.Msg(msgLinkNotDownloaded, RedactURL(b.URI)))
			continue
		case "image", "audio":
			n++
			mt, data = b.MimeType, b.Data
			name = fmt.Sprintf("%s-%d%s", b.Type, n, extFor(mt))
		case "resource":
			if b.Resource == nil {
				continue
			}
			n++
			mt = b.Resource.MimeType
			name = b.Resource.Name
			if name == "" {
				name = nameFromURI(b.Resource.URI)
			}
			if name == "" {
				name = fmt.Sprintf("resource-%d%s", n, extFor(mt))
			}
			if b.Resource.Blob == "" {
				raw = []byte(b.Resource.Text)
			} else {
				data = b.Resource.Blob
			}
		default:
			continue
		}
		if raw == nil {
			var err error
			raw, err = base64.StdEncoding.DecodeString(data)
			if err != nil {
				nc.Log(texts.Msg(msgFileInvalid, Clip(name, 100), "invalid base64"))
				continue
			}
		}
		if o.OutputFiles == "" {
			nc.Log(texts.Msg(msgFileNotKept, Clip(name, 100)))
			continue
		}
		arts := nc.Artifacts()
		if arts == nil {
			return nil, fmt.Errorf("save remote file %s: no artifact store available", Clip(name, 100))
		}
		info, err := arts.Put(ctx, name, mt, bytes.NewReader(raw), nc.RunID(), nc.NodeID())
		if err != nil {
			return nil, fmt.Errorf("save remote file %s: %w", Clip(name, 100), err)
		}
		nc.Log(texts.Msg(msgFileSaved, info.Name, info.MediaType, info.Size))
		ids = append(ids, info.ID)
	}
	return ids, nil
}

// Values turns a saved result into the node's outputs.
func (o Outputs) Values(raw json.RawMessage) (workrun.Values, error) {
	var r savedResult
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("read saved result: %w", err)
	}
	v := workrun.Values{}
	textRef, isTextRef := workrun.RefOf(r.TextRef)
	jsonRef, isJSONRef := workrun.RefOf(r.JSONRef)
	switch {
	case o.Output != "" && isTextRef:
		v[o.Output] = textRef
	case o.Output != "":
		v[o.Output] = r.Text
	}
	if o.OutputJSON != "" && isJSONRef {
		v[o.OutputJSON] = jsonRef
	} else if o.OutputJSON != "" && len(r.JSON) > 0 {
		var x any
		if err := json.Unmarshal(r.JSON, &x); err == nil {
			v[o.OutputJSON] = x
		}
	}
	if o.OutputFiles != "" {
		ids := make([]any, len(r.Files))
		for i, f := range r.Files {
			ids[i] = f
		}
		v[o.OutputFiles] = ids
	}
	return v, nil
}

func extFor(mt string) string {
	if exts, err := mime.ExtensionsByType(mt); err == nil && len(exts) > 0 {
		switch mt {
		case "image/png":
			return ".png"
		case "image/jpeg":
			return ".jpg"
		}
		return exts[0]
	}
	return ""
}

// nameFromURI is the last path segment of a resource URI.
func nameFromURI(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	p := u.Path
	if p == "" {
		p = u.Opaque
	}
	base := path.Base(p)
	if base == "." || base == "/" {
		return ""
	}
	return base
}

// RedactURL drops query and user info before a link is shown: links often
// carry access tokens.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(invalid link)"
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	return Clip(u.String(), 300)
}

// Clip shortens a server's text before it is shown or saved.
func Clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// OutputProblem is what is wrong with one output key: Field is not
// declared in State (Got empty), is of type Got instead of Want, or is
// already used by key Prev. A kind turns it into its own config error.
type OutputProblem struct {
	Key, Field string
	Got, Want  workrun.FieldType
	Prev       string
}

func (p *OutputProblem) Error() string {
	switch {
	case p.Prev != "":
		return fmt.Sprintf("%s: field %q is already used in %s", p.Key, p.Field, p.Prev)
	case p.Got == "":
		return fmt.Sprintf("%s: State has no field %q", p.Key, p.Field)
	}
	return fmt.Sprintf("%s: field %q is %s; expected %s", p.Key, p.Field, p.Got, p.Want)
}

// Check checks the outputs against the workflow's State: each field
// declared, of its type (text, json, files), and used once. It returns the
// output fields by the key naming them.
func (o Outputs) Check(state map[string]workrun.FieldType) (map[string]string, error) {
	outs := map[string]string{}
	for _, f := range []struct {
		key, name string
		want      workrun.FieldType
	}{{"output", o.Output, workrun.FieldText}, {"output_json", o.OutputJSON, workrun.FieldJSON}, {"output_files", o.OutputFiles, workrun.FieldFiles}} {
		if f.name == "" {
			continue
		}
		t, ok := state[f.name]
		switch {
		case !ok:
			return nil, &OutputProblem{Key: f.key, Field: f.name, Want: f.want}
		case t != f.want:
			return nil, &OutputProblem{Key: f.key, Field: f.name, Got: t, Want: f.want}
		case outs[f.name] != "":
			return nil, &OutputProblem{Key: f.key, Field: f.name, Got: t, Want: f.want, Prev: outs[f.name]}
		}
		outs[f.name] = f.key
	}
	return outs, nil
}

// ProgressLine is the line a notifications/progress shows ("" for none):
// its message, with "(progress/total)" when the total is known.
func ProgressLine(params json.RawMessage) string {
	var p struct {
		Progress float64  `json:"progress"`
		Total    *float64 `json:"total"`
		Message  string   `json:"message"`
	}
	if json.Unmarshal(params, &p) != nil {
		return ""
	}
	line := Clip(p.Message, 300)
	if p.Total != nil && *p.Total > 0 {
		line = strings.TrimSpace(fmt.Sprintf("%s (%g/%g)", line, p.Progress, *p.Total))
	}
	return line
}

// Sleep waits d, or until ctx ends.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
