package workrun

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// MaxWorkflowFileBytes caps a workflow file (8 MiB): a larger file is
// refused before it is parsed.
const MaxWorkflowFileBytes = 8 << 20

// maxJSONDepth bounds the nesting checkDuplicateKeys follows.
const maxJSONDepth = 1000

var (
	// ErrWorkflowTooLarge: the workflow file is over MaxWorkflowFileBytes.
	ErrWorkflowTooLarge = errors.New("workflow file too large")
	// ErrDuplicateKey: a JSON object names the same key twice. JSON
	// decoders silently keep the last one, so a second "command" would
	// quietly replace the first: refused instead.
	ErrDuplicateKey = errors.New("duplicate key")
)

// ReadWorkflow reads a workflow file (docs/workflow-format.md): at most
// MaxWorkflowFileBytes, one JSON object with no duplicate key anywhere and
// no unknown field. Errors name the problem and where it is.
func ReadWorkflow(r io.Reader) (Workflow, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxWorkflowFileBytes+1))
	if err != nil {
		return Workflow{}, fmt.Errorf("read workflow: %w", err)
	}
	if len(b) > MaxWorkflowFileBytes {
		return Workflow{}, fmt.Errorf("the file is larger than %d MiB: %w", MaxWorkflowFileBytes>>20, ErrWorkflowTooLarge)
	}
	return DecodeWorkflow(b)
}

// DecodeWorkflow decodes a workflow file's bytes strictly (see ReadWorkflow).
func DecodeWorkflow(b []byte) (Workflow, error) {
	if err := checkDuplicateKeys(b); err != nil {
		return Workflow{}, err
	}
	var wf Workflow
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&wf); err != nil {
		return Workflow{}, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return Workflow{}, errors.New("trailing data after the workflow object")
	}
	return wf, nil
}

// jsonFrame is one open object or array of checkDuplicateKeys.
type jsonFrame struct {
	object bool
	keys   map[string]bool
	key    string // object: the key whose value comes next
	inKey  bool   // object: key is set, its value not read yet
	index  int    // array: the index of the next value
	path   string
}

// checkDuplicateKeys walks b's tokens and refuses an object that names a
// key twice, saying which key, where (a path such as nodes[1].config) and
// on which line. Malformed JSON is left to the decoder's error.
func checkDuplicateKeys(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var stack []jsonFrame
	// valuePath is the path of the value about to start.
	valuePath := func() string {
		if len(stack) == 0 {
			return ""
		}
		f := &stack[len(stack)-1]
		if f.object {
			if f.path == "" {
				return f.key
			}
			return f.path + "." + f.key
		}
		return f.path + "[" + strconv.Itoa(f.index) + "]"
	}
	// valueDone moves the enclosing frame past one value.
	valueDone := func() {
		if len(stack) == 0 {
			return
		}
		f := &stack[len(stack)-1]
		if f.object {
			f.inKey = false
		} else {
			f.index++
		}
	}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return nil // the decoder reports it with its own words
		}
		top := len(stack) - 1
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				if len(stack) >= maxJSONDepth {
					return fmt.Errorf("%s is nested more than %d levels deep", where(valuePath()), maxJSONDepth)
				}
				stack = append(stack, jsonFrame{object: t == '{', path: valuePath()})
			default:
				stack = stack[:top]
				valueDone()
			}
		case string:
			if top >= 0 && stack[top].object && !stack[top].inKey {
				f := &stack[top]
				if f.keys == nil {
					f.keys = map[string]bool{}
				}
				if f.keys[t] {
					return fmt.Errorf("%w %q in %s (line %d): a key may appear only once",
						ErrDuplicateKey, t, where(f.path), lineAt(b, dec.InputOffset()))
				}
				f.keys[t], f.key, f.inKey = true, t, true
				continue
			}
			valueDone()
		default:
			valueDone()
		}
	}
}

func where(path string) string {
	if path == "" {
		return "the top-level object"
	}
	return path
}

// lineAt is the 1-based line of byte offset off in b.
func lineAt(b []byte, off int64) int {
	return bytes.Count(b[:min(int(off), len(b))], []byte("\n")) + 1
}
