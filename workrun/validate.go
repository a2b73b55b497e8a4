package workrun

import (
	"errors"
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
//
// Message is the English wording (the CLI's and JSON's); Key and Args are the
// same message as a catalogue Text, rendered in the reader's language by In.
// A Compile error that carries no Text (a kind written without a catalogue)
// has no Key and shows its Message.
type Problem struct {
	NodeID    string   `json:"node_id,omitempty"`
	EdgeIndex int      `json:"edge_index"`
	Message   string   `json:"message"`
	Key       string   `json:"key,omitempty"`
	Args      []string `json:"args,omitempty"`
}

// In renders the problem's message in lang ("en" or "zh"). English is always
// Message (a Compile error may add words around the Text it wraps); so is
// any language when the problem has no catalogue key.
func (p Problem) In(lang string) string {
	if p.Key == "" || !IsChinese(lang) {
		return p.Message
	}
	return Text{Key: p.Key, Args: p.Args}.In(lang)
}

// String is the problem in English with where it is: "node "x": …".
func (p Problem) String() string { return p.StringIn("en") }

// StringIn is the problem in lang with where it is.
func (p Problem) StringIn(lang string) string {
	m := p.In(lang)
	if !IsChinese(lang) {
		lang = "en"
	}
	switch {
	case p.NodeID != "" && p.EdgeIndex >= 0:
		return texts.In(lang, msgAtNodeEdge, p.NodeID, p.EdgeIndex, m)
	case p.NodeID != "":
		return texts.In(lang, msgAtNode, p.NodeID, m)
	case p.EdgeIndex >= 0:
		return texts.In(lang, msgAtEdge, p.EdgeIndex, m)
	}
	return m
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
	nodeProblem := func(id string, m msgID, args ...any) {
		probs = append(probs, newProblem(id, -1, m, args...))
	}
	edgeProblem := func(i int, id string, m msgID, args ...any) {
		probs = append(probs, newProblem(id, i, m, args...))
	}

	if r, bad := invisibleRune(wf.Name); bad {
		runeProblem(&probs, "", -1, msgNameRune, msgNameBytes, r, wf.Name)
	}
	fields := slices.Sorted(maps.Keys(wf.State))
	for _, f := range fields {
		if r, bad := invisibleRune(f); bad {
			runeProblem(&probs, "", -1, msgFieldRune, msgFieldBytes, r, f)
		}
		if strings.TrimSpace(f) == "" || strings.ContainsAny(f, "{} \t\n") {
			nodeProblem("", msgFieldName, f)
		}
		if !knownType(wf.State[f]) {
			nodeProblem("", msgFieldType, f, wf.State[f])
		}
	}

	steps := make(map[string]Step, len(wf.Nodes))
	seen := make(map[string]bool, len(wf.Nodes))
	specs := make(map[string]NodeSpec, len(wf.Nodes))
	var entries []string
	for _, n := range wf.Nodes {
		if n.ID == "" {
			nodeProblem("", msgNoID, n.Type)
			continue
		}
		if seen[n.ID] {
			nodeProblem(n.ID, msgDupID)
			continue
		}
		seen[n.ID] = true
		specs[n.ID] = n
		if r, bad := invisibleRune(n.ID); bad {
			runeProblem(&probs, n.ID, -1, msgIDRune, msgIDBytes, r)
		}
		k, ok := e.kinds[n.Type]
		if !ok {
			nodeProblem(n.ID, msgUnknownNodeType, n.Type)
			continue
		}
		st, err := k.Compile(n, wf)
		if err != nil {
			p := Problem{NodeID: n.ID, EdgeIndex: -1, Message: err.Error()}
			if te := (*TextError)(nil); errors.As(err, &te) {
				p.Key, p.Args = te.Text.Key, te.Text.Args
			}
			probs = append(probs, p)
			continue
		}
		for _, f := range st.Reads() {
			if _, ok := wf.State[f]; !ok {
				nodeProblem(n.ID, msgReadsUndeclared, f)
			}
		}
		for _, f := range st.Writes() {
			if _, ok := wf.State[f]; !ok {
				nodeProblem(n.ID, msgWritesUndeclared, f)
			}
		}
		checkPolicy(n, st, wf, func(m msgID, args ...any) { nodeProblem(n.ID, m, args...) })
		if _, ok := st.(EntryStep); ok {
			entries = append(entries, n.ID)
		}
		steps[n.ID] = st
	}
	switch {
	case len(entries) == 0 && len(wf.Nodes) > 0:
		nodeProblem("", msgNoStart)
	case len(entries) == 0:
		nodeProblem("", msgNoNodes)
	case len(entries) > 1:
		for _, id := range entries[1:] {
			nodeProblem(id, msgTwoStarts, entries[0])
		}
	}

	// Edges.
	succ := make(map[string][]int)
	type pair struct{ from, to, when, port string }
	dup := make(map[pair]bool)
	errorEdges := make(map[string]int)
	for i, ed := range wf.Edges {
		for _, ref := range []struct{ what, v string }{{"from", ed.From}, {"to", ed.To}, {"when", ed.When}, {"port", ed.Port}} {
			if r, bad := invisibleRune(ref.v); bad {
				runeProblem(&probs, "", i, msgEdgeRune, msgEdgeBytes, r, ref.what, ref.v)
			}
		}
		bad := false
		if !seen[ed.From] {
			edgeProblem(i, "", msgEdgeFromMissing, ed.From)
			bad = true
		}
		if !seen[ed.To] {
			at := ed.From
			if bad {
				at = ""
			}
			edgeProblem(i, at, msgEdgeToMissing, ed.To)
			bad = true
		}
		if bad {
			continue
		}
		if slices.Contains(entries, ed.To) {
			edgeProblem(i, ed.To, msgEdgeIntoStart)
		}
		if ed.From == ed.To {
			edgeProblem(i, ed.From, msgEdgeCycle, ed.From, ed.To)
			continue
		}
		p := pair{ed.From, ed.To, ed.When, ed.Port}
		if dup[p] {
			edgeProblem(i, ed.From, msgEdgeDup, ed.From, ed.To)
			continue
		}
		dup[p] = true
		switch {
		case ed.Port == PortError:
			errorEdges[ed.From]++
			if specs[ed.From].OnError != OnErrorBranch {
				edgeProblem(i, ed.From, msgEdgeErrorNoBranch, ed.From, ed.To)
			}
			if ed.When != "" {
				edgeProblem(i, ed.From, msgEdgePortWhen, ed.From, ed.To)
			}
		case ed.Port != "":
			edgeProblem(i, ed.From, msgEdgePort, ed.From, ed.To, ed.Port)
		}
		if st, ok := steps[ed.From]; ok && ed.Port == "" {
			if b, ok := st.(BranchingStep); ok {
				if !slices.Contains(b.Branches(), ed.When) {
					edgeProblem(i, ed.From, msgEdgeNeedsWhen, ed.From, ed.To, strings.Join(b.Branches(), " or "), strings.Join(b.Branches(), " 或 "))
				}
			} else if ed.When != "" {
				edgeProblem(i, ed.From, msgEdgeStrayWhen, ed.From, ed.To, ed.When)
			}
		}
		succ[ed.From] = append(succ[ed.From], i)
	}

	for _, n := range wf.Nodes {
		if specs[n.ID].OnError == OnErrorBranch && errorEdges[n.ID] == 0 && n.ID != "" {
			nodeProblem(n.ID, msgBranchNoErrorEdge)
		}
	}

	// Cycles (error edges included: a handler path is part of the DAG):
	// depth-first search; every back edge closes a cycle.
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
				edgeProblem(i, id, msgEdgeCycle, id, to)
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
				nodeProblem(n.ID, msgUnreachable, entries[0])
			}
		}
	}

	// Every field read must be written by a node before the reader.
	if !cyclic {
		probs = append(probs, unprovidedReads(wf, specs, steps, succ)...)
	}
	if len(probs) > 0 {
		return nil, probs
	}
	return steps, nil
}

// unprovidedReads walks the acyclic graph in topological order, collecting
// for each node the fields its ancestors provide.
func unprovidedReads(wf Workflow, specs map[string]NodeSpec, steps map[string]Step, succ map[string][]int) []Problem {
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
					probs = append(probs, newProblem(id, -1, msgReadsUnprovided, f))
				}
			}
		}
		out := have
		if st != nil {
			writes := writesOf(specs[id], st)
			out = make(map[string]bool, len(have)+len(writes))
			for f := range have {
				out[f] = true
			}
			if _, ok := st.(EntryStep); ok {
				for f := range wf.State {
					out[f] = true
				}
			}
			for _, f := range writes {
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

// newProblem is message m with args at node id (may be "") and edge i (-1:
// none); Message is its English rendering.
func newProblem(id string, i int, m msgID, args ...any) Problem {
	t := texts.Msg(m, args...)
	return Problem{NodeID: id, EdgeIndex: i, Message: texts.In("en", m, args...), Key: t.Key, Args: t.Args}
}

// runeProblem adds the problem of a name holding rune r: bytesMsg when r
// stands for bytes that are not UTF-8, else runeMsg with the code point
// ("U+200B") after args.
func runeProblem(probs *[]Problem, id string, i int, runeMsg, bytesMsg msgID, r rune, args ...any) {
	if r == utf8.RuneError {
		*probs = append(*probs, newProblem(id, i, bytesMsg, args...))
		return
	}
	*probs = append(*probs, newProblem(id, i, runeMsg, append(args, fmt.Sprintf("U+%04X", r))...))
}
