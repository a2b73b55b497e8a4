package workrun

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// MaxMessageBytes caps one stored node message: the text of its arguments
// together (its rendering, with the wording and quoting around them, is cut
// at twice that). Longer arguments are cut with a visible marker
// (CutMarker) before the line reaches the store, so an agent's 60 MB status
// text costs 16 KiB, not a 60 MB row.
const MaxMessageBytes = 16 << 10

// CutMarker ends a cut argument or text; %d is the number of bytes left out.
const CutMarker = "… [cut: %d bytes]"

// storeRetryDelay and storeRetryBound shape the one retry of a failed save
// before it is reported (see Engine.report).
const (
	storeRetryDelay = 50 * time.Millisecond
	storeRetryBound = 5 * time.Second
)

// line builds the message for msg, capped (MaxMessageBytes). Text keeps the
// rendering in the current language for stores and readers that do not
// render keys yet.
func (e *Engine) line(runID, nodeID string, msg Text) Message {
	msg = capText(msg)
	return Message{RunID: runID, NodeID: nodeID, Time: e.now().UTC(), Key: msg.Key, Args: msg.Args,
		Text: cutString(msg.String(), 2*MaxMessageBytes), Repeat: msg.Repeat}
}

// capText cuts msg's arguments so that together they hold at most
// MaxMessageBytes. What is kept is copied: the message never pins a large
// argument's memory.
func capText(msg Text) Text {
	total := 0
	for _, a := range msg.Args {
		total += len(a)
	}
	if total <= MaxMessageBytes {
		return msg
	}
	left := MaxMessageBytes
	args := make([]string, len(msg.Args))
	for i, a := range msg.Args {
		// Every argument keeps a fair share of what is left, so one huge
		// argument does not hide the others.
		share := max(left/(len(msg.Args)-i), 0)
		if len(a) <= share {
			args[i] = a
		} else {
			args[i] = cutString(a, share)
		}
		left -= min(len(a), share)
	}
	return Text{Key: msg.Key, Args: args}
}

// cutString returns s, or its first bytes up to n (at a rune boundary),
// copied, with the cut marker.
func cutString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	k := n
	for k > 0 && !utf8.RuneStart(s[k]) {
		k--
	}
	return strings.Clone(s[:k]) + fmt.Sprintf(CutMarker, len(s)-k)
}

// lineOrder publishes committed lines in commit order (seq order within a
// run) although several nodes append at once. Each append takes a ticket;
// a line that came back with its seq is published only once every append
// that was still in flight when it came back has returned (those are the
// only ones that can hold a lower seq: anything started later commits
// later), and after the lines of its run with lower seqs.
type lineOrder struct {
	mu       sync.Mutex
	next     int64
	inflight map[int64]struct{}
	ready    []readyLine
}

type readyLine struct {
	m    Message
	upTo int64 // the last ticket issued when it came back
	done chan struct{}
}

// appendLine commits m (AppendMessage), publishes it in commit order and
// returns it with its seq once it is published.
func (e *Engine) appendLine(ctx context.Context, m Message) (Message, error) {
	o := &e.lines
	o.mu.Lock()
	if o.inflight == nil {
		o.inflight = map[int64]struct{}{}
	}
	t := o.next
	o.next++
	o.inflight[t] = struct{}{}
	o.mu.Unlock()

	saved, err := e.runs.AppendMessage(ctx, m)

	o.mu.Lock()
	delete(o.inflight, t)
	var done chan struct{}
	if err == nil {
		done = make(chan struct{})
		o.ready = append(o.ready, readyLine{m: saved, upTo: o.next - 1, done: done})
	}
	e.publishReadyLocked()
	o.mu.Unlock()
	if done != nil {
		<-done // published by this call or by the append it waited for
	}
	return saved, err
}

// publishReadyLocked publishes the ready lines that can no longer be
// overtaken. Callers hold e.lines.mu, so batches never interleave.
func (e *Engine) publishReadyLocked() {
	o := &e.lines
	if len(o.ready) == 0 {
		return
	}
	oldest := int64(-1) // lowest ticket still in flight
	for t := range o.inflight {
		if oldest < 0 || t < oldest {
			oldest = t
		}
	}
	slices.SortFunc(o.ready, func(a, b readyLine) int {
		return cmp.Or(strings.Compare(a.m.RunID, b.m.RunID), cmp.Compare(a.m.Seq, b.m.Seq))
	})
	kept := o.ready[:0]
	blocked := ""
	for _, l := range o.ready {
		if l.m.RunID == blocked || (oldest >= 0 && oldest <= l.upTo) {
			blocked = l.m.RunID
			kept = append(kept, l)
			continue
		}
		m := l.m
		e.publish(Event{Type: EventMessage, RunID: m.RunID, NodeID: m.NodeID, Message: &m})
		close(l.done)
	}
	clear(o.ready[len(kept):])
	o.ready = kept
}

// logLine saves and publishes one node message. A line the store refuses
// is tried once more on a detached context; if it still fails, it is
// written to Errors and shown to subscribers unsaved (Seq 0), and the
// failure itself is reported on the node.
func (e *Engine) logLine(m Message) {
	if _, err := e.retrySave(context.Background(), func(ctx context.Context) (Message, error) { return e.appendLine(ctx, m) }); err != nil {
		e.unsaved(m, err)
		e.report(m.RunID, m.NodeID, texts.Msg(msgLineNotSaved, err))
	}
}

// report makes a failure the engine cannot return (a save that failed, a
// hook that panicked) a message on the node (nodeID "" for the run) of the
// run's record. When the store cannot take even that, it goes to Errors
// and to subscribers unsaved: it is never dropped silently.
func (e *Engine) report(runID, nodeID string, msg Text) {
	m := e.line(runID, nodeID, msg)
	if _, err := e.retrySave(context.Background(), func(ctx context.Context) (Message, error) { return e.appendLine(ctx, m) }); err != nil {
		e.unsaved(m, err)
	}
}

// unsaved writes a line the store did not take to Errors and publishes it
// with Seq 0 (not in the record).
func (e *Engine) unsaved(m Message, err error) {
	w := e.Errors
	if w == nil {
		w = os.Stderr
	}
	node := m.NodeID
	if node == "" {
		node = "-"
	}
	// Quoted: the text may hold an agent's words, control characters included.
	fmt.Fprintf(w, "workrun: run %s node %q: %q (not saved: %q)\n", m.RunID, node, m.Text, err.Error())
	m.Seq = 0
	e.publish(Event{Type: EventMessage, RunID: m.RunID, NodeID: m.NodeID, Message: &m})
}

// retrySave runs save, and once more after a short pause on a context
// detached from ctx and bounded, when it fails.
func (e *Engine) retrySave(ctx context.Context, save func(ctx context.Context) (Message, error)) (Message, error) {
	m, err := save(ctx)
	if err == nil {
		return m, nil
	}
	time.Sleep(storeRetryDelay)
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeRetryBound)
	defer cancel()
	return save(rctx)
}

// saveRun saves r's status (UpdateRun), trying once more on failure; a
// failure that remains is reported in the run's record and returned.
func (e *Engine) saveRun(ctx context.Context, r Run) error {
	_, err := e.retrySave(ctx, func(ctx context.Context) (Message, error) { return Message{}, e.runs.UpdateRun(ctx, r) })
	if err != nil {
		e.report(r.ID, "", texts.Msg(msgRunNotSaved, r.Status, err))
	}
	return err
}
