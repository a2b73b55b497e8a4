package workrun

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Problem is one reason a workflow cannot run, located on a node (NodeID) or
// an edge (EdgeIndex into Workflow.Edges; -1 when not on an edge). A problem
// of the whole workflow (its State, its start node) has neither.
type Problem struct {
	NodeID    string `json:"node_id,omitempty"`
	EdgeIndex int    `json:"edge_index"`
	Message   string `json:"message"`
}

func (p Problem) String() string {
	switch {
	case p.NodeID != "" && p.EdgeIndex >= 0:
		return fmt.Sprintf("node %q, edge %d: %s", p.NodeID, p.EdgeIndex, p.Message)
	case p.NodeID != "":
		return fmt.Sprintf("node %q: %s", p.NodeID, p.Message)
	case p.EdgeIndex >= 0:
		return fmt.Sprintf("edge %d: %s", p.EdgeIndex, p.Message)
	}
	return p.Message
}

// ValidationError carries the problems that keep a workflow from running.
type ValidationError struct {
	Problems []Problem
}

func (e *ValidationError) Error() string {
	parts := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		parts[i] = p.String()
	}
	return "invalid workflow: " + strings.Join(parts, "; ")
}

func (e *ValidationError) Is(target error) bool { return target == ErrInvalidWorkflow }

// Validate returns every problem that keeps wf from running; none means it can
// run. It checks State types, node types and configs (Kind.Compile), declared
// reads and writes, edges, branches, cycles, reachability from the start node,
// and that every field a node reads is provided by a node before it.
func (e *Engine) Validate(wf Workflow) []Problem {
	_, probs := e.compile(wf)
	return probs
}

func (e *Engine) compile(wf Workflow) (map[string]Step, []Problem) {
	var probs []Problem
	nodeProblem := func(id, format string, args ...any) {
		probs = append(probs, Problem{NodeID: id, EdgeIndex: -1, Message: fmt.Sprintf(format, args...)})
	}
	edgeProblem := func(i int, id, format string, args ...any) {
		probs = append(probs, Problem{NodeID: id, EdgeIndex: i, Message: fmt.Sprintf(format, args...)})
	}

	if r, bad := invisibleRune(wf.Name); bad {
		nodeProblem("", "the workflow name %q contains %s", wf.Name, describeRune(r))
	}
	fields := slices.Sorted(maps.Keys(wf.State))
	for _, f := range fields {
		if r, bad := invisibleRune(f); bad {
			nodeProblem("", "state field %q: a name must not contain %s", f, describeRune(r))
		}
		if strings.TrimSpace(f) == "" || strings.ContainsAny(f, "{} \t\n") {
			nodeProblem("", "state field %q: a name must not be empty or contain spaces or braces", f)
		}
		if !knownType(wf.State[f]) {
			nodeProblem("", "state field %q: unknown type %q (use text, number, boolean, json, file or files)", f, wf.State[f])
		}
	}

	steps := make(map[string]Step, len(wf.Nodes))
	seen := make(map[string]bool, len(wf.Nodes))
	var entries []string
	for _, n := range wf.Nodes {
		if n.ID == "" {
			nodeProblem("", "a node of type %q has no id", n.Type)
			continue
		}
		if seen[n.ID] {
			nodeProblem(n.ID, "duplicate node id")
			continue
		}
		seen[n.ID] = true
		if r, bad := invisibleRune(n.ID); bad {
			nodeProblem(n.ID, "a node id must not contain %s", describeRune(r))
		}
		k, ok := e.kinds[n.Type]
		if !ok {
			nodeProblem(n.ID, "unknown node type %q", n.Type)
			continue
		}
		st, err := k.Compile(n, wf)
		if err != nil {
			nodeProblem(n.ID, "%v", err)
			continue
		}
		for _, f := range st.Reads() {
			if _, ok := wf.State[f]; !ok {
				nodeProblem(n.ID, "reads field %q, which is not declared in State", f)
			}
		}
		for _, f := range st.Writes() {
			if _, ok := wf.State[f]; !ok {
				nodeProblem(n.ID, "writes field %q, which is not declared in State", f)
			}
		}
		if _, ok := st.(EntryStep); ok {
			entries = append(entries, n.ID)
		}
		steps[n.ID] = st
	}
	switch {
	case len(entries) == 0 && len(wf.Nodes) > 0:
		nodeProblem("", "the workflow has no start node")
	case len(entries) == 0:
		nodeProblem("", "the workflow has no nodes")
	case len(entries) > 1:
		for _, id := range entries[1:] {
			nodeProblem(id, "a workflow has exactly one start node (%q is the first)", entries[0])
		}
	}

	// Edges.
	succ := make(map[string][]int)
	type pair struct{ from, to, when string }
	dup := make(map[pair]bool)
	for i, ed := range wf.Edges {
		for _, ref := range []struct{ what, v string }{{"from", ed.From}, {"to", ed.To}, {"when", ed.When}} {
			if r, bad := invisibleRune(ref.v); bad {
				edgeProblem(i, "", "edge %s %q contains %s", ref.what, ref.v, describeRune(r))
			}
		}
		bad := false
		if !seen[ed.From] {
			edgeProblem(i, "", "edge from missing node %q", ed.From)
			bad = true
		}
		if !seen[ed.To] {
			at := ed.From
			if bad {
				at = ""
			}
			edgeProblem(i, at, "edge to missing node %q", ed.To)
			bad = true
		}
		if bad {
			continue
		}
		if slices.Contains(entries, ed.To) {
			edgeProblem(i, ed.To, "an edge leads into the start node")
		}
		if ed.From == ed.To {
			edgeProblem(i, ed.From, "edge %s → %s makes a cycle", ed.From, ed.To)
			continue
		}
		p := pair{ed.From, ed.To, ed.When}
		if dup[p] {
			edgeProblem(i, ed.From, "duplicate edge %s → %s", ed.From, ed.To)
			continue
		}
		dup[p] = true
		if st, ok := steps[ed.From]; ok {
			if b, ok := st.(BranchingStep); ok {
				if !slices.Contains(b.Branches(), ed.When) {
					edgeProblem(i, ed.From, "edge %s → %s must say when it is followed (when: %s)", ed.From, ed.To, strings.Join(b.Branches(), " or "))
				}
			} else if ed.When != "" {
				edgeProblem(i, ed.From, "edge %s → %s has when %q, but only a condition node picks a branch", ed.From, ed.To, ed.When)
			}
		}
		succ[ed.From] = append(succ[ed.From], i)
	}

	// Cycles: depth-first search; every back edge closes a cycle.
	const (
		white = iota
		grey
		black
	)
	color := make(map[string]int, len(wf.Nodes))
	cyclic := false
	var visit func(id string)
	visit = func(id string) {
		color[id] = grey
		for _, i := range succ[id] {
			to := wf.Edges[i].To
			switch color[to] {
			case white:
				visit(to)
			case grey:
				cyclic = true
				edgeProblem(i, id, "edge %s → %s makes a cycle", id, to)
			}
		}
		color[id] = black
	}
	for _, n := range wf.Nodes {
		if seen[n.ID] && color[n.ID] == white {
			visit(n.ID)
		}
	}

	// Reachability from the start node.
	if len(entries) > 0 {
		reached := map[string]bool{entries[0]: true}
		queue := []string{entries[0]}
		for len(queue) > 0 {
			id := queue[0]
			queue = queue[1:]
			for _, i := range succ[id] {
				if to := wf.Edges[i].To; !reached[to] {
					reached[to] = true
					queue = append(queue, to)
				}
			}
		}
		for _, n := range wf.Nodes {
			if seen[n.ID] && !reached[n.ID] && !slices.Contains(entries[1:], n.ID) {
				nodeProblem(n.ID, "not reachable from the start node %q", entries[0])
			}
		}
	}

	// Every field read must be written by a node before the reader.
	if !cyclic {
		probs = append(probs, unprovidedReads(wf, steps, succ)...)
	}
	if len(probs) > 0 {
		return nil, probs
	}
	return steps, nil
}

// unprovidedReads walks the acyclic graph in topological order, collecting
// for each node the fields its ancestors provide.
func unprovidedReads(wf Workflow, steps map[string]Step, succ map[string][]int) []Problem {
	indeg := make(map[string]int, len(wf.Nodes))
	for _, n := range wf.Nodes {
		indeg[n.ID] += 0
	}
	for _, es := range succ {
		for _, i := range es {
			indeg[wf.Edges[i].To]++
		}
	}
	provided := make(map[string]map[string]bool, len(wf.Nodes))
	var queue []string
	for _, n := range wf.Nodes {
		if indeg[n.ID] == 0 {
			queue = append(queue, n.ID)
		}
	}
	var probs []Problem
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		have := provided[id]
		st := steps[id]
		if st != nil {
			for _, f := range st.Reads() {
				if _, declared := wf.State[f]; declared && !have[f] {
					probs = append(probs, Problem{NodeID: id, EdgeIndex: -1,
						Message: fmt.Sprintf("reads field %q, but no node before it provides it", f)})
				}
			}
		}
		out := have
		if st != nil {
			out = make(map[string]bool, len(have)+len(st.Writes()))
			for f := range have {
				out[f] = true
			}
			if _, ok := st.(EntryStep); ok {
				for f := range wf.State {
					out[f] = true
				}
			}
			for _, f := range st.Writes() {
				out[f] = true
			}
		}
		for _, i := range succ[id] {
			to := wf.Edges[i].To
			if provided[to] == nil {
				provided[to] = make(map[string]bool, len(out))
			}
			for f := range out {
				provided[to][f] = true
			}
			indeg[to]--
			if indeg[to] == 0 {
				queue = append(queue, to)
			}
		}
	}
	return probs
}

func knownType(t FieldType) bool {
	switch t {
	case FieldText, FieldNumber, FieldBoolean, FieldJSON, FieldFile, FieldFiles:
		return true
	}
	return false
}

// invisibleRune returns the first character of s that a terminal or a
// label would not show as itself: a control character (ESC starts terminal
// sequences), a format character (bidi overrides, zero-width joiners), a
// space other than ' ', or bytes that are not UTF-8. Names that hold one
// could pass for another name or rewrite what is printed around them.
func invisibleRune(s string) (rune, bool) {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size <= 1 {
				return r, true
			}
		}
		if r != ' ' && !unicode.IsPrint(r) {
			return r, true
		}
	}
	return 0, false
}

func describeRune(r rune) string {
	if r == utf8.RuneError {
		return "bytes that are not UTF-8"
	}
	return fmt.Sprintf("an invisible or control character (U+%04X)", r)
}
