package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
)

// ErrNotDiscoverResult: a server/discover answer that is not a valid
// 2026-07-28 discover result (docs/remote-mcp.md M2 "Detection"): an empty
// or malformed result, a missing required member, or no version this client
// speaks among its supportedVersions. Connect falls back to initialize on it
// unless 2026-07-28 was pinned.
var ErrNotDiscoverResult = errors.New("mcp: not a 2026-07-28 server/discover result")

// discoverResultTypeComplete is the only resultType a discover result has.
const discoverResultTypeComplete = "complete"

// ParseDiscoverResult reads a server/discover result (the JSON-RPC result
// member) the way docs/remote-mcp.md M2 "Detection" says: it is a
// 2026-07-28 server's answer only when it is a JSON object with every member
// the revision requires — resultType "complete", supportedVersions (a
// non-empty list of strings), capabilities (an object), ttlMs (an integer
// ≥ 0) and cacheScope (a string) — and supportedVersions names a version
// this client speaks. Anything else is ErrNotDiscoverResult, with what was
// wrong. The server's name is read from _meta (2026-07-28) or the top level.
func ParseDiscoverResult(raw []byte) (*InitializeResult, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, fmt.Errorf("%w: the result is not a JSON object (%s)", ErrNotDiscoverResult, clipString(strings.TrimSpace(string(raw)), 80))
	}
	var missing []string
	for _, k := range []string{"resultType", "supportedVersions", "capabilities", "ttlMs", "cacheScope"} {
		if v, ok := m[k]; !ok || bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%w: the result has no %s", ErrNotDiscoverResult, strings.Join(missing, ", "))
	}
	var rt string
	if json.Unmarshal(m["resultType"], &rt) != nil || rt != discoverResultTypeComplete {
		return nil, fmt.Errorf("%w: resultType is %s, not \"complete\"", ErrNotDiscoverResult, clipString(string(m["resultType"]), 40))
	}
	var sup []string
	if json.Unmarshal(m["supportedVersions"], &sup) != nil || len(sup) == 0 {
		return nil, fmt.Errorf("%w: supportedVersions is not a non-empty list of strings (%s)", ErrNotDiscoverResult, clipString(string(m["supportedVersions"]), 80))
	}
	var caps map[string]json.RawMessage
	if json.Unmarshal(m["capabilities"], &caps) != nil || caps == nil {
		return nil, fmt.Errorf("%w: capabilities is not an object", ErrNotDiscoverResult)
	}
	var ttl float64
	if json.Unmarshal(m["ttlMs"], &ttl) != nil || ttl < 0 || ttl != math.Trunc(ttl) {
		return nil, fmt.Errorf("%w: ttlMs is not an integer ≥ 0 (%s)", ErrNotDiscoverResult, clipString(string(m["ttlMs"]), 40))
	}
	var scope string
	if json.Unmarshal(m["cacheScope"], &scope) != nil {
		return nil, fmt.Errorf("%w: cacheScope is not a string", ErrNotDiscoverResult)
	}
	spoken := false
	for _, v := range sup {
		if speaks(v) {
			spoken = true
			break
		}
	}
	if !spoken {
		return nil, fmt.Errorf("%w: supportedVersions lists %s, none of which this client speaks", ErrNotDiscoverResult, clipString(strings.Join(sup, ", "), 200))
	}
	var res InitializeResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotDiscoverResult, err)
	}
	// 2026-07-28 servers name themselves in the result's _meta.
	var meta struct {
		Meta struct {
			ServerInfo *Implementation `json:"io.modelcontextprotocol/serverInfo"`
		} `json:"_meta"`
	}
	if json.Unmarshal(raw, &meta) == nil && meta.Meta.ServerInfo != nil && res.ServerInfo.Name == "" {
		res.ServerInfo = *meta.Meta.ServerInfo
	}
	return &res, nil
}

// speaks reports whether this client speaks protocol version v.
func speaks(v string) bool {
	for _, s := range SupportedVersions {
		if s == v {
			return true
		}
	}
	return false
}
