package remoteagent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"workrun/a2a"
	"workrun/workrun"
)

// buildParts turns the node's inputs into message parts: the message
// template filled in (one text part, left out when it comes out blank),
// then text, number and boolean fields as text parts in the order listed,
// json fields as data parts, then the attachments as inline file parts. The attachment limits are
// checked here, before anything is sent (docs/remote-agent.md R14). Artifact ids stay local:
// a file part carries only its name, media type and bytes.
func (s *step) buildParts(ctx context.Context, nc workrun.NodeContext) ([]a2a.Part, partCounts, error) {
	in := nc.Inputs()
	var parts []a2a.Part
	var n partCounts
	if msg := workrun.ExpandTemplate(s.cfg.Message, in); strings.TrimSpace(msg) != "" {
		parts = append(parts, a2a.Part{Text: msg})
		n.texts++
	}
	for _, f := range s.cfg.Inputs {
		v, ok := in[f]
		if !ok || v == nil {
			continue
		}
		if s.types[f] == workrun.FieldJSON {
			b, err := json.Marshal(v)
			if err != nil {
				return nil, partCounts{}, fmt.Errorf("input %s: %w", f, err)
			}
			parts = append(parts, a2a.Part{Data: b})
			continue
		}
		parts = append(parts, a2a.Part{Text: textOf(v)})
		n.texts++
	}
	ids, err := attachmentIDs(in, s.cfg.Attachments)
	if err != nil {
		return nil, partCounts{}, err
	}
	if len(ids) > MaxFiles {
		return nil, partCounts{}, fmt.Errorf("%w: %d files; at most %d files may be sent per request. Nothing was sent", ErrAttachments, len(ids), MaxFiles)
	}
	arts := nc.Artifacts()
	if len(ids) > 0 && arts == nil {
		return nil, partCounts{}, fmt.Errorf("attachments: no artifact store available")
	}
	var total int64
	infos := make([]workrun.ArtifactInfo, len(ids))
	for i, id := range ids {
		info, err := arts.Stat(ctx, id)
		if err != nil {
			return nil, partCounts{}, fmt.Errorf("attachment %d: %w", i+1, err)
		}
		infos[i] = info
		total += info.Size
	}
	if total > MaxFileBytes {
		return nil, partCounts{}, fmt.Errorf("%w: %d bytes (%s) of files; at most %d bytes (20 MiB) may be sent per request. Nothing was sent",
			ErrAttachments, total, mib(total), int64(MaxFileBytes))
	}
	for _, info := range infos {
		id := info.ID
		parts = append(parts, a2a.Part{
			Filename:  info.Name,
			MediaType: info.MediaType,
			Source: &a2a.FileSource{Size: info.Size, Open: func() (io.ReadCloser, error) {
				rc, _, err := arts.Open(ctx, id)
				return rc, err
			}},
		})
	}
	if len(parts) == 0 {
		return nil, partCounts{}, fmt.Errorf("nothing to send: the input fields %s are empty", strings.Join(s.Reads(), ", "))
	}
	n.files, n.bytes = len(infos), total
	n.data = len(parts) - n.texts - n.files
	return parts, n, nil
}

// partCounts says what a message carries, for the "Sending to" line.
type partCounts struct {
	texts, data, files int
	bytes              int64
}

func mib(n int64) string { return strconv.FormatFloat(float64(n)/(1<<20), 'f', 2, 64) + " MiB" }

// textOf renders a text, number or boolean value.
func textOf(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	return fmt.Sprint(v)
}

// attachmentIDs collects the artifact ids held by file and files fields.
func attachmentIDs(in workrun.Values, fields []string) ([]string, error) {
	var ids []string
	for _, f := range fields {
		switch v := in[f].(type) {
		case nil:
		case string:
			if v != "" {
				ids = append(ids, v)
			}
		case []string:
			ids = append(ids, v...)
		case []any:
			for _, x := range v {
				id, ok := x.(string)
				if !ok {
					return nil, fmt.Errorf("attachments: field %s holds %T, not an artifact id", f, x)
				}
				ids = append(ids, id)
			}
		default:
			return nil, fmt.Errorf("attachments: field %s holds %T, not a file", f, v)
		}
	}
	return ids, nil
}

// saveFiles keeps the inline file outputs as local artifacts; the artifact
// store cleans the name and checks the MIME type against the bytes. Links are
// listed, never downloaded (docs/remote-agent.md R15).
func (c *call) saveFiles(ctx context.Context, parts []resultFile) ([]string, error) {
	var ids []string
	for _, p := range parts {
		if p.url != "" {
			c.log(msgURLNotDownloaded, redactURL(p.url)) // log redacts the secret too
			continue
		}
		name := c.red.String(p.name)
		if name == "" {
			name = "file"
		}
		if c.s.cfg.OutputFiles == "" {
			c.log(msgFileNotKept, name)
			continue
		}
		arts := c.nc.Artifacts()
		if arts == nil {
			return nil, fmt.Errorf("save remote file %s: no artifact store available", name)
		}
		mediaType := c.red.String(p.mediaType)
		src := p.open()
		if textLike(mediaType, p.open()) {
			// A text or JSON file is redacted like a text part (as it
			// streams in, a secret across two reads included).
			src = c.red.Reader(io.NopCloser(src))
		}
		info, err := arts.Put(ctx, name, mediaType, src, c.nc.RunID(), c.nc.NodeID())
		if err != nil {
			return nil, fmt.Errorf("save remote file %s: %w", name, err)
		}
		c.log(msgFileSaved, info.Name, info.MediaType, info.Size)
		ids = append(ids, info.ID)
	}
	return ids, nil
}

// messageFiles lists the file and link parts of a message answer.
func messageFiles(parts []a2a.Part) []resultFile {
	var out []resultFile
	for _, p := range parts {
		switch {
		case p.URL != "":
			out = append(out, resultFile{url: p.URL})
		case p.IsRaw():
			raw := p.Raw
			out = append(out, resultFile{name: p.Filename, mediaType: p.MediaType, size: int64(len(raw)),
				open: func() io.Reader { return bytes.NewReader(raw) }})
		}
	}
	return out
}

// textLike reports whether a file is text or JSON: by its declared media
// type, or by its first bytes (a file declared as octet-stream may be text).
func textLike(mediaType string, r io.Reader) bool {
	mt, _, _ := mime.ParseMediaType(mediaType)
	if strings.HasPrefix(mt, "text/") || strings.HasSuffix(mt, "json") || strings.HasSuffix(mt, "+xml") || mt == "application/xml" {
		return true
	}
	head := make([]byte, 512)
	n, _ := io.ReadFull(r, head)
	return strings.HasPrefix(http.DetectContentType(head[:n]), "text/")
}
