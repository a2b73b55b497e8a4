package output

import (
	"context"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
	"workrun/workrun"
)

// Kind is the "output" node kind.
type Kind struct{}

func (Kind) Type() string { return "output" }

type config struct {
	Fields []string `json:"fields"`
}

// Compile checks that config.fields names declared State fields.
func (Kind) Compile(spec workrun.NodeSpec, wf workrun.Workflow) (workrun.Step, error) {
	var c config
	if err := workrun.DecodeConfig(spec, &c); err != nil {
		return nil, err
	}
	if len(c.Fields) == 0 {
		return nil, texts.Fail(nil, msgCfgFieldsEmpty)
	}
	for _, f := range c.Fields {
		if _, ok := wf.State[f]; !ok {
			return nil, texts.Fail(nil, msgCfgFieldUndeclared, f)
		}
	}
	return step{fields: c.Fields, types: wf.State}, nil
}

type step struct {
	fields []string
	types  map[string]workrun.FieldType
}

func (s step) Reads() []string { return s.fields }
func (step) Writes() []string  { return nil }

func (s step) Run(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
	in := nc.Inputs()
	for _, f := range s.fields {
		v, ok := in[f]
		if !ok {
			nc.Log(texts.Msg(msgNotSet, f))
			continue
		}
		if r, ok := workrun.RefOf(v); ok {
			head, err := refHead(ctx, nc.Artifacts(), r)
			if err != nil {
				return nil, err
			}
			nc.Log(texts.Msg(msgRef, f, head, r.Size-int64(len(head)), r.Artifact))
			continue
		}
		if t := s.types[f]; t == workrun.FieldFile || t == workrun.FieldFiles {
			nc.Log(texts.Msg(msgValue, f, fileNames(ctx, nc.Artifacts(), v)))
			continue
		}
		nc.Log(texts.Msg(msgValue, f, workrun.FormatValue(v)))
	}
	return nil, nil
}

// fileNames names the files of a file or files value for a person — name,
// media type and size — instead of their artifact ids (issue 23 item 5);
// a file whose description cannot be read keeps its id, with the reason.
func fileNames(ctx context.Context, arts workrun.ArtifactStore, v any) string {
	var ids []string
	switch x := v.(type) {
	case string:
		ids = []string{x}
	case []any:
		for _, e := range x {
			if s, ok := e.(string); ok {
				ids = append(ids, s)
			}
		}
	}
	if len(ids) == 0 {
		return texts.Text(msgNoFiles)
	}
	parts := make([]string, 0, len(ids))
	for _, id := range ids {
		if arts == nil {
			parts = append(parts, id)
			continue
		}
		a, err := arts.Stat(ctx, id)
		if err != nil {
			parts = append(parts, texts.Text(msgFileUnread, id, err))
			continue
		}
		parts = append(parts, texts.Text(msgFile, a.Name, a.MediaType, a.Size))
	}
	return strings.Join(parts, ", ")
}

// ReadsRefs implements workrun.RefReader: a large value is shown by its
// beginning, read from its artifact, not loaded whole.
func (step) ReadsRefs() bool { return true }

// refHeadBytes is how much of a large value the node shows (a message is cut
// at 64 KiB anyway).
const refHeadBytes = 4 << 10

func refHead(ctx context.Context, arts workrun.ArtifactStore, r workrun.ValueRef) (string, error) {
	rc, err := workrun.OpenValue(ctx, arts, r)
	if err != nil {
		return "", err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, refHeadBytes))
	if err != nil {
		return "", fmt.Errorf("read value %s: %w", r.Artifact, err)
	}
	// Cut at a character boundary: drop a last rune the limit split.
	for i := 0; i < utf8.UTFMax && len(b) > 0; i++ {
		if r, size := utf8.DecodeLastRune(b); r != utf8.RuneError || size != 1 {
			break
		}
		b = b[:len(b)-1]
	}
	return string(b), nil
}

// Pure implements workrun.PureStep: the node has no effect outside the
// process, so its record and lines are written behind (docs/engine.md).
func (step) Pure() {}
