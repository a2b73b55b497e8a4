package workrun

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// InlineValueLimit is the largest text or JSON value (in bytes, JSON
// encoded for json fields) kept in place in State, node records and call
// records. A longer one is kept once in the artifact store and every record
// holds its ValueRef instead (docs/engine.md "Large values").
const InlineValueLimit = 256 << 10

// ValueRef is a large text or JSON State value kept once, as an artifact:
// State, node outputs, the next node's inputs and a remote call's record
// hold this reference, never a copy of the value. A node that can use the
// reference as it is (stream it, show it) implements RefReader; every other
// node receives the value itself, read back by the engine before its Run.
type ValueRef struct {
	Artifact string    `json:"artifact"` // artifact id
	Type     FieldType `json:"type"`     // FieldText or FieldJSON
	Size     int64     `json:"size"`     // bytes of the value (JSON encoded for json)
	SHA256   string    `json:"sha256,omitempty"`
}

// refKey marks a reference in its JSON form, {"$ref": {...}}, so a stored
// record reads back as a ValueRef and not as a JSON object.
const refKey = "$ref"

// MarshalJSON writes the reference as {"$ref": {...}}.
func (r ValueRef) MarshalJSON() ([]byte, error) {
	type plain ValueRef // without this method
	return json.Marshal(map[string]plain{refKey: plain(r)})
}

// String describes the reference for a person or a log: the value's type,
// size and artifact, never its content.
func (r ValueRef) String() string {
	return fmt.Sprintf("[%s value, %s, artifact %s]", r.Type, byteSize(r.Size), r.Artifact)
}

// RefReader is implemented by steps that take ValueRefs in their inputs as
// they are (the Output node shows them; a node that streams a value reads
// it with OpenValue). Any other step gets each reference resolved to its
// value before Run.
type RefReader interface {
	ReadsRefs() bool
}

// ErrBadRef is returned for a reference whose artifact is not a value of
// its declared type.
var ErrBadRef = errors.New("bad value reference")

// RefOf reports whether v is a reference: a ValueRef, or its JSON form as
// decoded into any ({"$ref": {...}}).
func RefOf(v any) (ValueRef, bool) {
	switch x := v.(type) {
	case ValueRef:
		return x, true
	case *ValueRef:
		if x != nil {
			return *x, true
		}
	case map[string]any:
		if len(x) != 1 {
			return ValueRef{}, false
		}
		m, ok := x[refKey].(map[string]any)
		if !ok {
			return ValueRef{}, false
		}
		id, _ := m["artifact"].(string)
		t, _ := m["type"].(string)
		size, _ := m["size"].(float64)
		sum, _ := m["sha256"].(string)
		if id == "" || (t != string(FieldText) && t != string(FieldJSON)) {
			return ValueRef{}, false
		}
		return ValueRef{Artifact: id, Type: FieldType(t), Size: int64(size), SHA256: sum}, true
	}
	return ValueRef{}, false
}

// RestoreRefs turns the JSON form of each reference in v (as a store reads
// it back) into a ValueRef, in place, and returns v.
func RestoreRefs(v Values) Values {
	for k, x := range v {
		if _, ok := x.(map[string]any); !ok {
			continue
		}
		if r, ok := RefOf(x); ok {
			v[k] = r
		}
	}
	return v
}

// HasRefs reports whether any value of v is a reference.
func HasRefs(v Values) bool {
	for _, x := range v {
		if _, ok := RefOf(x); ok {
			return true
		}
	}
	return false
}

// PutValue stores a text or JSON value read from r as an artifact of the
// run's node and returns its reference. r is streamed, never held whole.
func PutValue(ctx context.Context, arts ArtifactStore, t FieldType, r io.Reader, runID, nodeID string) (ValueRef, error) {
	if arts == nil {
		return ValueRef{}, errors.New("keep large value: no artifact store available")
	}
	name, mt := "value.txt", "text/plain; charset=utf-8"
	if t == FieldJSON {
		name, mt = "value.json", "application/json"
	}
	info, err := arts.Put(ctx, name, mt, r, runID, nodeID)
	if err != nil {
		return ValueRef{}, fmt.Errorf("keep large value: %w", err)
	}
	return ValueRef{Artifact: info.ID, Type: t, Size: info.Size, SHA256: info.SHA256}, nil
}

// OpenValue streams the bytes of a referenced value: the text, or the JSON
// encoding. The caller closes it.
func OpenValue(ctx context.Context, arts ArtifactStore, r ValueRef) (io.ReadCloser, error) {
	if arts == nil {
		return nil, fmt.Errorf("read value %s: no artifact store available", r.Artifact)
	}
	rc, _, err := arts.Open(ctx, r.Artifact)
	if err != nil {
		return nil, fmt.Errorf("read value %s: %w", r.Artifact, err)
	}
	return rc, nil
}

// ResolveValue returns the value a reference stands for (a string for text,
// the decoded JSON for json); any other value is returned as it is.
func ResolveValue(ctx context.Context, arts ArtifactStore, v any) (any, error) {
	r, ok := RefOf(v)
	if !ok {
		return v, nil
	}
	rc, err := OpenValue(ctx, arts, r)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	switch r.Type {
	case FieldText:
		var b strings.Builder
		b.Grow(int(max(r.Size, 0)))
		if _, err := io.Copy(&b, rc); err != nil {
			return nil, fmt.Errorf("read value %s: %w", r.Artifact, err)
		}
		return b.String(), nil
	case FieldJSON:
		var x any
		if err := json.NewDecoder(rc).Decode(&x); err != nil {
			return nil, fmt.Errorf("read value %s: %w: %v", r.Artifact, ErrBadRef, err)
		}
		return x, nil
	}
	return nil, fmt.Errorf("read value %s: %w: type %q", r.Artifact, ErrBadRef, r.Type)
}

// ResolveRefs returns a copy of v with every reference resolved
// (ResolveValue); v itself is left as it is.
func ResolveRefs(ctx context.Context, arts ArtifactStore, v Values) (Values, error) {
	out := make(Values, len(v))
	for k, x := range v {
		nv, err := ResolveValue(ctx, arts, x)
		if err != nil {
			return nil, fmt.Errorf("input %s: %w", k, err)
		}
		out[k] = nv
	}
	return out, nil
}

// KeepLarge returns v, or a reference to it once stored, when v is a text
// longer than InlineValueLimit or a JSON value whose encoding is: the
// engine calls it on every node output, so a large value is stored once
// whichever node made it. A reference, a small value and a value of any
// other type are returned as they are.
func KeepLarge(ctx context.Context, arts ArtifactStore, t FieldType, v any, runID, nodeID string) (any, error) {
	if arts == nil || v == nil {
		return v, nil
	}
	if _, ok := RefOf(v); ok {
		return v, nil
	}
	switch t {
	case FieldText:
		s, ok := v.(string)
		if !ok || len(s) <= InlineValueLimit {
			return v, nil
		}
		return PutValue(ctx, arts, t, strings.NewReader(s), runID, nodeID)
	case FieldJSON:
		switch v.(type) {
		case map[string]any, []any, string:
		default:
			return v, nil // a number or boolean is never large
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil || buf.Len() <= InlineValueLimit {
			return v, nil // an encoding error is the output check's to report
		}
		return PutValue(ctx, arts, t, bytes.NewReader(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), runID, nodeID)
	}
	return v, nil
}

// byteSize shows a byte count as "8.0 MiB".
func byteSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

const msgWantRefType msgID = "workrun.want_ref_type"

var refTexts = NewCatalog(map[msgID][2]string{
	msgWantRefType: {"want %s, got a reference to a %s value", "应为 %s，实际为对 %s 值的引用"},
})
