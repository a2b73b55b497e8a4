package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strings"

	"workrun/workrun"
)

// fromFlags are `workrun run`'s flags for running part of a workflow
// (docs/workflow-format.md#running-part-of-a-workflow): --from NODE or
// --only NODE, --pin-from RUN, --pin NODE.FIELD=JSON.
type fromFlags struct {
	from, only, pinFrom *string
	pins                repeated
}

func addFromFlags(fs *flag.FlagSet) *fromFlags {
	f := &fromFlags{from: fs.String("from", "", ""), only: fs.String("only", "", ""), pinFrom: fs.String("pin-from", "", "")}
	fs.Var(&f.pins, "pin", "")
	return f
}

// runFrom is what the flags ask for; ok is false for a whole run. A usage
// mistake is an error.
func (f *fromFlags) runFrom(wf workrun.Workflow) (workrun.RunFrom, bool, error) {
	rf := workrun.RunFrom{Node: *f.from, PinRun: *f.pinFrom}
	switch {
	case *f.from != "" && *f.only != "":
		return rf, false, fmt.Errorf("use --from or --only, not both")
	case *f.only != "":
		rf.Node, rf.Only = *f.only, true
	case *f.from == "":
		if *f.pinFrom != "" || len(f.pins) > 0 {
			return rf, false, fmt.Errorf("--pin-from and --pin need --from NODE or --only NODE")
		}
		return rf, false, nil
	}
	for _, p := range f.pins {
		target, raw, ok := strings.Cut(p, "=")
		node, field, ok2 := strings.Cut(target, ".")
		if !ok || !ok2 || node == "" || field == "" {
			return rf, false, fmt.Errorf("--pin %q: want NODE.FIELD=JSON", p)
		}
		var v any
		if err := json.Unmarshal([]byte(raw), &v); err != nil {
			if wf.State[field] != workrun.FieldText {
				return rf, false, fmt.Errorf("--pin %s: not a JSON value: %w", target, err)
			}
			v = raw // a text field may be given bare: --pin a.answer=hello
		}
		if rf.Pins == nil {
			rf.Pins = map[string]workrun.Values{}
		}
		if rf.Pins[node] == nil {
			rf.Pins[node] = workrun.Values{}
		}
		rf.Pins[node][field] = v
	}
	return rf, true, nil
}

// startRun starts the whole workflow, or the part the flags name; with
// part of it and no --input or --file, the inputs are the pinned run's.
func startRun(ctx context.Context, e *workrun.Engine, wf workrun.Workflow, in workrun.Values, rf workrun.RunFrom, part bool) (string, error) {
	ctx = workrun.WithStartedBy(ctx, workrun.StartedBy{Kind: workrun.StartedByPerson})
	if !part {
		return e.Start(ctx, "", wf, in)
	}
	if len(in) == 0 {
		in = nil
	}
	return e.StartFrom(ctx, "", wf, in, rf)
}
