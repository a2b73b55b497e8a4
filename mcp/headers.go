package mcp

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
)

// headerParam is one x-mcp-header annotation of a tool's inputSchema: the
// header name part and the property path (a chain of properties keys).
type headerParam struct {
	Name string
	Path []string
}

// errBadHeaderAnnotation: a tool's x-mcp-header annotation breaks the
// rules of streamable-http "Custom Headers from Tool Parameters"; the tool
// is left out of the list.
var errBadHeaderAnnotation = errors.New("invalid x-mcp-header annotation")

// headerParams reads the x-mcp-header annotations of an inputSchema. An
// annotation that is empty, not a header token, on a non-primitive (or
// number) property, duplicated (case-insensitively) or reachable other than
// through properties keys makes the whole tool invalid.
func headerParams(schema json.RawMessage) ([]headerParam, error) {
	if len(bytes.TrimSpace(schema)) == 0 || !bytes.Contains(schema, []byte("x-mcp-header")) {
		return nil, nil
	}
	var root any
	if err := json.Unmarshal(schema, &root); err != nil {
		return nil, fmt.Errorf("%w: inputSchema is not JSON: %v", errBadHeaderAnnotation, err)
	}
	var out []headerParam
	seen := map[string]bool{}
	var walk func(node any, path []string, static bool) error
	walk = func(node any, path []string, static bool) error {
		switch n := node.(type) {
		case []any:
			for _, v := range n {
				if err := walk(v, path, false); err != nil {
					return err
				}
			}
		case map[string]any:
			if raw, ok := n["x-mcp-header"]; ok {
				if err := checkAnnotation(raw, n, static, seen); err != nil {
					return fmt.Errorf("%w at %s: %v", errBadHeaderAnnotation, pathText(path), err)
				}
				name := raw.(string)
				seen[strings.ToLower(name)] = true
				out = append(out, headerParam{Name: name, Path: append([]string(nil), path...)})
			}
			for k, v := range n {
				switch {
				case k == "x-mcp-header":
				case k == "properties" && static:
					props, ok := v.(map[string]any)
					if !ok {
						if err := walk(v, path, false); err != nil {
							return err
						}
						continue
					}
					for name, sub := range props {
						if err := walk(sub, append(path, name), true); err != nil {
							return err
						}
					}
				default:
					if err := walk(v, path, false); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	// The root is statically reachable; so is every properties chain from it.
	if err := walk(root, nil, true); err != nil {
		return nil, err
	}
	return out, nil
}

func pathText(path []string) string {
	if len(path) == 0 {
		return "the schema root"
	}
	return strings.Join(path, ".")
}

func checkAnnotation(raw any, prop map[string]any, static bool, seen map[string]bool) error {
	name, ok := raw.(string)
	switch {
	case !ok:
		return errors.New("the value is not a string")
	case name == "":
		return errors.New("the header name is empty")
	case !isToken(name):
		return fmt.Errorf("%q is not an HTTP header token", name)
	case seen[strings.ToLower(name)]:
		return fmt.Errorf("%q is used twice", name)
	case !static:
		return fmt.Errorf("%q is not reachable through properties alone", name)
	}
	switch t := prop["type"].(type) {
	case string:
		if t != "string" && t != "integer" && t != "boolean" {
			return fmt.Errorf("%q is on a property of type %s (only string, integer, boolean)", name, t)
		}
	default:
		return fmt.Errorf("%q is on a property without one primitive type", name)
	}
	return nil
}

// isToken reports RFC 9110 token syntax (1*tchar).
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// headerValue encodes a header value as streamable-http "Value Encoding"
// says: plain when it is visible ASCII with inner spaces only, else
// =?base64?…?= (also for a plain value that looks like that form).
func headerValue(s string) string {
	plain := s == strings.TrimSpace(s) && !(strings.HasPrefix(s, "=?base64?") && strings.HasSuffix(s, "?="))
	for i := 0; plain && i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e {
			plain = false
		}
	}
	if plain {
		return s
	}
	return "=?base64?" + base64.StdEncoding.EncodeToString([]byte(s)) + "?="
}

// paramHeaders returns the Mcp-Param-* headers of a call: the argument at
// each annotated path, converted to text; absent or null values send none.
func paramHeaders(params []headerParam, args json.RawMessage) (http.Header, error) {
	if len(params) == 0 {
		return nil, nil
	}
	var root any
	d := json.NewDecoder(bytes.NewReader(args))
	d.UseNumber()
	if err := d.Decode(&root); err != nil {
		return nil, fmt.Errorf("arguments: %v", err)
	}
	h := http.Header{}
	for _, p := range params {
		v := root
		for _, k := range p.Path {
			m, ok := v.(map[string]any)
			if !ok {
				v = nil
				break
			}
			v = m[k]
		}
		var text string
		switch x := v.(type) {
		case nil:
			continue
		case string:
			text = x
		case bool:
			text = strconv.FormatBool(x)
		case json.Number:
			i, err := strconv.ParseInt(x.String(), 10, 64)
			if err != nil {
				f, ferr := x.Float64()
				if ferr != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53-1 {
					return nil, fmt.Errorf("argument %s for header %s is not an integer", pathText(p.Path), p.Name)
				}
				i = int64(f)
			}
			if i > 1<<53-1 || i < -(1<<53-1) {
				return nil, fmt.Errorf("argument %s for header %s is outside the safe integer range", pathText(p.Path), p.Name)
			}
			text = strconv.FormatInt(i, 10)
		default:
			return nil, fmt.Errorf("argument %s for header %s is not a string, integer or boolean", pathText(p.Path), p.Name)
		}
		h["Mcp-Param-"+p.Name] = []string{headerValue(text)}
	}
	return h, nil
}
