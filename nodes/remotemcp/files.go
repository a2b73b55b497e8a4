package remotemcp

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/url"
	"path"
	"time"

	"workrun/mcp"
	"workrun/remotecall"
	"workrun/workrun"
)

// buildArguments builds the tool's arguments object. The file limits are
// checked first, before anything is sent: file fields become embedded
// resources (name, media type, base64 bytes); artifact ids never leave the
// machine.
func (s *step) buildArguments(ctx context.Context, nc workrun.NodeContext) (json.RawMessage, string, error) {
	in := nc.Inputs()
	arts := nc.Artifacts()
	type fileArg struct {
		arg  string
		many bool
		ids  []string
	}
	var files []fileArg
	var infos []workrun.ArtifactInfo
	var total int64
	count := 0
	for _, a := range s.args {
		if a.field == "" {
			continue
		}
		t := s.types[a.field]
		if t != workrun.FieldFile && t != workrun.FieldFiles {
			continue
		}
		ids, err := artifactIDs(in[a.field], a.field)
		if err != nil {
			return nil, "", err
		}
		files = append(files, fileArg{arg: a.name, many: t == workrun.FieldFiles, ids: ids})
		count += len(ids)
	}
	if count > MaxFiles {
		return nil, "", texts.Error(ErrFiles, msgTooManyFiles, count, MaxFiles)
	}
	if count > 0 && arts == nil {
		return nil, "", fmt.Errorf("file arguments: no artifact store available")
	}
	for _, f := range files {
		for i, id := range f.ids {
			info, err := arts.Stat(ctx, id)
			if err != nil {
				return nil, "", fmt.Errorf("file argument %s (%d): %w", f.arg, i+1, err)
			}
			infos = append(infos, info)
			total += info.Size
		}
	}
	if total > MaxFileBytes {
		return nil, "", texts.Error(ErrFiles, msgFilesTooLarge, total, int64(MaxFileBytes))
	}
	obj := map[string]json.RawMessage{}
	k := 0
	for _, f := range files {
		var blocks []json.RawMessage
		for range f.ids {
			b, err := embed(ctx, arts, infos[k])
			k++
			if err != nil {
				return nil, "", err
			}
			blocks = append(blocks, b)
		}
		switch {
		case f.many:
			b, _ := json.Marshal(blocks)
			obj[f.arg] = b
		case len(blocks) == 1:
			obj[f.arg] = blocks[0]
		}
	}
	for _, a := range s.args {
		if _, done := obj[a.name]; done {
			continue
		}
		switch {
		case a.literal != nil:
			obj[a.name] = a.literal
		case a.field != "":
			t := s.types[a.field]
			if t == workrun.FieldFile || t == workrun.FieldFiles {
				continue // an empty file field sends nothing
			}
			v, ok := in[a.field]
			if !ok || v == nil {
				continue
			}
			b, err := json.Marshal(v)
			if err != nil {
				return nil, "", fmt.Errorf("argument %s: %w", a.name, err)
			}
			obj[a.name] = b
		default:
			b, _ := json.Marshal(workrun.ExpandTemplate(a.tmpl, in))
			obj[a.name] = b
		}
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, "", err
	}
	summary := fmt.Sprintf("%d arguments, %d files (%d bytes)", len(obj), count, total)
	return b, summary, nil
}

// embed reads one artifact into an embedded resource block.
func embed(ctx context.Context, arts workrun.ArtifactStore, info workrun.ArtifactInfo) (json.RawMessage, error) {
	rc, _, err := arts.Open(ctx, info.ID)
	if err != nil {
		return nil, fmt.Errorf("read file %s: %w", info.Name, err)
	}
	defer rc.Close()
	var raw bytes.Buffer
	enc := base64.NewEncoder(base64.StdEncoding, &raw)
	if _, err := io.Copy(enc, io.LimitReader(rc, MaxFileBytes+1)); err != nil {
		return nil, fmt.Errorf("read file %s: %w", info.Name, err)
	}
	enc.Close()
	u := url.URL{Scheme: "file", Path: "/" + info.Name}
	return json.Marshal(map[string]any{"type": "resource", "resource": map[string]any{
		"uri": u.String(), "name": info.Name, "mimeType": info.MediaType, "blob": raw.String(),
	}})
}

func artifactIDs(v any, field string) ([]string, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case string:
		if x == "" {
			return nil, nil
		}
		return []string{x}, nil
	case []string:
		return x, nil
	case []any:
		var ids []string
		for _, e := range x {
			id, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("file argument: field %s holds %T, not an artifact id", field, e)
			}
			ids = append(ids, id)
		}
		return ids, nil
	}
	return nil, fmt.Errorf("file argument: field %s holds %T, not a file", field, v)
}

// savedResult is what a call commits on success, reused on resume.
type savedResult struct {
	Text  string          `json:"text"`
	JSON  json.RawMessage `json:"json,omitempty"`
	Files []string        `json:"files,omitempty"` // local artifact ids
}

// finish turns a tool result into the node's outputs: text blocks to output,
// structuredContent to output_json, images, audio and embedded resources to
// artifacts; resource links are listed, never downloaded. isError fails the
// node with the tool's own text. The result is committed before returning.
func (c *call) finish(ctx context.Context, srv MCPClient, r *mcp.ToolResult) (workrun.Values, error) {
	if r == nil {
		return nil, fmt.Errorf("call tool %s: %w: no result", c.s.cfg.Tool, mcp.ErrProtocol)
	}
	if r.IsError {
		text := clip(r.Text(), 2000)
		if err := c.Update(ctx, func(rec *workrun.RemoteCall) {
			rec.Ended, rec.StatusText = true, text
			if rec.RemoteState == "" {
				rec.RemoteState = mcp.StatusCompleted
			}
		}); err != nil {
			return nil, err
		}
		c.closeSession(ctx, srv)
		return nil, texts.Error(ErrToolError, msgToolError, c.s.cfg.Tool, display(text))
	}
	files, err := c.saveFiles(ctx, r.Content)
	if err != nil {
		return nil, err
	}
	var structured json.RawMessage
	if len(bytes.TrimSpace(r.StructuredContent)) > 0 && json.Valid(r.StructuredContent) {
		structured = r.StructuredContent
	}
	res, err := json.Marshal(savedResult{Text: r.Text(), JSON: structured, Files: files})
	if err != nil {
		return nil, err
	}
	if err := c.Update(ctx, func(rec *workrun.RemoteCall) {
		rec.Result, rec.Ended = res, true
		if rec.TaskID != "" {
			rec.RemoteState = mcp.StatusCompleted
		}
	}); err != nil {
		return nil, err
	}
	c.log(msgCompleted, c.s.cfg.Tool)
	c.closeSession(ctx, srv)
	return c.s.valuesFromResult(res)
}

// closeSession ends the MCP session after the call is settled (never on an
// exit or failure: a resume or the abort's cancel still needs it).
func (c *call) closeSession(ctx context.Context, srv MCPClient) {
	if srv == nil || srv.Session() == "" {
		return
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), min(c.s.timeout, 10*time.Second))
	defer cancel()
	if err := srv.Close(cctx); err != nil {
		c.nc.Progress(texts.Msg(msgSessionEndError, clip(err.Error(), 300)))
	}
}

// saveFiles keeps file outputs as local artifacts; the artifact store cleans
// the names and checks the MIME type against the bytes.
func (c *call) saveFiles(ctx context.Context, content []mcp.Content) ([]string, error) {
	var ids []string
	n := 0
	for _, b := range content {
		var name, mt, data string
		var raw []byte
		switch b.Type {
		case "resource_link":
			c.log(msgLinkNotDownloaded, redactURL(b.URI))
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
				c.log(msgFileInvalid, clip(name, 100), "invalid base64")
				continue
			}
		}
		if c.s.cfg.OutputFiles == "" {
			c.log(msgFileNotKept, clip(name, 100))
			continue
		}
		arts := c.nc.Artifacts()
		if arts == nil {
			return nil, fmt.Errorf("save remote file %s: no artifact store available", clip(name, 100))
		}
		info, err := arts.Put(ctx, name, mt, bytes.NewReader(raw), c.nc.RunID(), c.nc.NodeID())
		if err != nil {
			return nil, fmt.Errorf("save remote file %s: %w", clip(name, 100), err)
		}
		c.log(msgFileSaved, info.Name, info.MediaType, info.Size)
		ids = append(ids, info.ID)
	}
	return ids, nil
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

// redactURL drops query and user info before a link is shown: links often
// carry access tokens.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(invalid link)"
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	return clip(u.String(), 300)
}

func (s *step) valuesFromResult(raw json.RawMessage) (workrun.Values, error) {
	var r savedResult
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("read saved result: %w", err)
	}
	v := workrun.Values{}
	if s.cfg.Output != "" {
		v[s.cfg.Output] = r.Text
	}
	if s.cfg.OutputJSON != "" && len(r.JSON) > 0 {
		var x any
		if err := json.Unmarshal(r.JSON, &x); err == nil {
			v[s.cfg.OutputJSON] = x
		}
	}
	if s.cfg.OutputFiles != "" {
		ids := make([]any, len(r.Files))
		for i, f := range r.Files {
			ids[i] = f
		}
		v[s.cfg.OutputFiles] = ids
	}
	return v, nil
}

// credential resolves the node's credential and checks it may go to the URL.
func (s *step) credential(ctx context.Context) (*mcp.Credential, error) {
	cred, err := remotecall.NamedCredential(ctx, s.kind.deps.Credentials, s.cfg.Credential)
	if cred == nil || err != nil {
		return nil, err
	}
	// mcp.New checks the origin binding and plain http again; checking here
	// gives the error before anything else happens.
	if _, err := mcp.New(s.cfg.URL, mcp.Options{Credential: cred}); err != nil {
		return nil, fmt.Errorf("credential %q: %w", s.cfg.Credential, err)
	}
	return cred, nil
}
