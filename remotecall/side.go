package remotecall

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"workrun/workrun"
)

// A side record is a node kind's bookkeeping beside a call: the questions
// a remote asked and the answers committed before they are sent
// (docs/remote-agent.md R8, docs/remote-mcp.md). It is a call record of its
// own, keyed by the call's key and a suffix ("send/input"), holding the
// kind's state as JSON in Result. It is always Ended: nothing follows or
// cancels it, `workrun tasks` does not list it, and the cancel table reads
// only the call's own record.

// SideKey is the call key of the side record suffix of the call callKey.
func SideKey(callKey, suffix string) string { return callKey + "/" + suffix }

// IsSideKey reports whether a call key names a side record
// (workrun.RemoteCall.IsSide).
func IsSideKey(callKey string) bool { return workrun.RemoteCall{CallKey: callKey}.IsSide() }

// LoadSide reads the side record suffix of main into v; ok is false when
// it was never saved.
func LoadSide(ctx context.Context, st Store, main workrun.RemoteCall, suffix string, v any) (ok bool, err error) {
	r, err := st.GetRemoteCall(ctx, main.RunID, main.NodeID, SideKey(main.CallKey, suffix))
	switch {
	case errors.Is(err, workrun.ErrNotFound):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("read %s record: %w", suffix, err)
	}
	if err := json.Unmarshal(r.Result, v); err != nil {
		return false, fmt.Errorf("read %s record: %w", suffix, err)
	}
	return true, nil
}

// SaveSide commits v as the side record suffix of main, with status (the
// remote state it was saved in) and every secret red knows redacted. It
// returns once the record is committed.
func SaveSide(ctx context.Context, st Store, main workrun.RemoteCall, suffix, status string, v any, red *Redactor) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("save %s record: %w", suffix, err)
	}
	rec := workrun.RemoteCall{RunID: main.RunID, NodeID: main.NodeID, CallKey: SideKey(main.CallKey, suffix),
		AgentURL: main.AgentURL, Origin: main.Origin, MessageID: main.MessageID, TaskID: main.TaskID,
		RemoteState: status, Result: b, Ended: true}
	if red != nil {
		rec = red.Record(rec)
	}
	if err := st.SaveRemoteCall(ctx, rec); err != nil {
		return fmt.Errorf("save %s record: %w", suffix, err)
	}
	return nil
}
