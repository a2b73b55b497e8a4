package mcptool

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"sort"

	"workrun/workrun"
)

// File limits per call, as for the Remote Agent (docs/remote-mcp.md M8).
const (
	MaxFiles     = 10
	MaxFileBytes = 20 << 20
)

// ErrFiles: the file arguments exceed the per-call limits.
var ErrFiles = errors.New("files over the limit")

// Argument is one compiled tool argument.
type Argument struct {
	Name     string
	Literal  json.RawMessage // not a string: sent as is
	Template string          // a string template
	Field    string          // the whole value is this one field
}

// Arguments are a tool's compiled arguments, sorted by name.
type Arguments []Argument

// ArgumentProblem is what is wrong with one argument: Key is
// "<configKey>.<name>"; Field the State field it names. A kind turns it
// into its own config error.
type ArgumentProblem struct {
	Key, Field string
	// FileInTemplate: a file field inside a longer template (it can only be
	// sent alone); otherwise the field is not declared in State.
	FileInTemplate bool
}

func (p *ArgumentProblem) Error() string {
	if p.FileInTemplate {
		return fmt.Sprintf("%s: file field %q can only be sent alone, as \"{{%s}}\"", p.Key, p.Field, p.Field)
	}
	return fmt.Sprintf("%s: State has no field %q", p.Key, p.Field)
}

// CompileArguments checks a config's arguments object (under configKey)
// against the workflow's State fields.
func CompileArguments(configKey string, raw map[string]json.RawMessage, state map[string]workrun.FieldType) (Arguments, error) {
	names := make([]string, 0, len(raw))
	for k := range raw {
		names = append(names, k)
	}
	sort.Strings(names)
	var args Arguments
	for _, k := range names {
		v := bytes.TrimSpace(raw[k])
		key := configKey + "." + k
		var s string
		if len(v) == 0 || v[0] != '"' || json.Unmarshal(v, &s) != nil {
			args = append(args, Argument{Name: k, Literal: json.RawMessage(v)})
			continue
		}
		a := Argument{Name: k, Template: s}
		if f, ok := workrun.TemplateSingleField(s); ok {
			if _, ok := state[f]; !ok {
				return nil, &ArgumentProblem{Key: key, Field: f}
			}
			a.Field = f
		} else {
			for _, f := range workrun.TemplateFields(s) {
				t, ok := state[f]
				if !ok {
					return nil, &ArgumentProblem{Key: key, Field: f}
				}
				if t == workrun.FieldFile || t == workrun.FieldFiles {
					return nil, &ArgumentProblem{Key: key, Field: f, FileInTemplate: true}
				}
			}
		}
		args = append(args, a)
	}
	return args, nil
}

// Reads lists the State fields the arguments name.
func (args Arguments) Reads() []string {
	var out []string
	for _, a := range args {
		for _, f := range workrun.TemplateFields(a.Template) {
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	return out
}

// Build builds the tool's arguments object from the values in. The file
// limits are checked first, before anything is sent: file fields become
// embedded resources (name, media type, base64 bytes). It returns the
// object and a summary line ("3 arguments, 1 files (120 bytes)").
func (args Arguments) Build(ctx context.Context, in workrun.Values, types map[string]workrun.FieldType, arts workrun.ArtifactStore) (json.RawMessage, string, error) {
	type fileArg struct {
		arg  string
		many bool
		ids  []string
	}
	var files []fileArg
	var infos []workrun.ArtifactInfo
	var total int64
	count := 0
	for _, a := range args {
		if a.Field == "" {
			continue
		}
		t := types[a.Field]
		if t != workrun.FieldFile && t != workrun.FieldFiles {
			continue
		}
		ids, err := artifactIDs(in[a.Field], a.Field)
		if err != nil {
			return nil, "", err
		}
		files = append(files, fileArg{arg: a.Name, many: t == workrun.FieldFiles, ids: ids})
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
	for _, a := range args {
		if _, done := obj[a.Name]; done {
			continue
		}
		switch {
		case a.Literal != nil:
			obj[a.Name] = a.Literal
		case a.Field != "":
			t := types[a.Field]
			if t == workrun.FieldFile || t == workrun.FieldFiles {
				continue // an empty file field sends nothing
			}
			v, ok := in[a.Field]
			if !ok || v == nil {
				continue
			}
			b, err := json.Marshal(v)
			if err != nil {
				return nil, "", fmt.Errorf("argument %s: %w", a.Name, err)
			}
			obj[a.Name] = b
		default:
			b, _ := json.Marshal(workrun.ExpandTemplate(a.Template, in))
			obj[a.Name] = b
		}
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, "", err
	}
	summary := texts.Text(msgArgumentsSummary, len(obj), count, total)
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
