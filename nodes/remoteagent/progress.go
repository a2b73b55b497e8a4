package remoteagent

import (
	"strconv"
	"time"

	"workrun/a2a"
	"workrun/workrun"
)

// progressEvery is the shortest time between two progress lines of one call.
// An agent may send thousands of status updates a second (one per generated
// token); nobody reads them one by one, so the call shows the latest at this
// pace and counts the rest into it ("… (+1,234 updates)"). It is longer than
// the store's batching delay, so two lines of one call rarely share a batch.
const progressEvery = 200 * time.Millisecond

// maxDurableStates bounds the states whose first line is committed as a
// node message: an agent inventing states cannot turn every event into a
// durable write.
const maxDurableStates = 16

// progressLine is one line waiting to be shown: a status (state and text), an
// agent message, or an artifact chunk.
type progressLine struct {
	kind       progressKind
	state      a2a.TaskState
	text       string // status text or message text; artifact description
	artifactID string // artifact name
}

type progressKind uint8

const (
	progressNone progressKind = iota
	progressStatus
	progressMessage
	progressArtifact
)

// progressFeed throttles a call's progress lines. It is owned by the
// goroutine running the node.
type progressFeed struct {
	last    time.Time    // when the last line went out
	pending progressLine // the newest line not shown yet
	skipped int64        // lines not shown since the last one, pending included
	// durable: states whose first line was committed.
	durable map[a2a.TaskState]bool
	// prev is the last status seen, to drop an exact repeat.
	prevState a2a.TaskState
	prevText  string
	hasPrev   bool
}

// firstOf reports whether s has not had a committed line yet, and marks it.
func (f *progressFeed) firstOf(s a2a.TaskState) bool {
	if f.durable[s] || len(f.durable) >= maxDurableStates {
		return false
	}
	if f.durable == nil {
		f.durable = map[a2a.TaskState]bool{}
	}
	f.durable[s] = true
	return true
}

// repeat reports whether a status equals the one before it.
func (f *progressFeed) repeat(s a2a.TaskState, text string) bool {
	same := f.hasPrev && s == f.prevState && text == f.prevText
	f.prevState, f.prevText, f.hasPrev = s, text, true
	return same
}

// add shows l now, or keeps it as the pending line when the last line went
// out less than progressEvery ago.
func (c *call) addProgress(l progressLine) {
	f := &c.feed
	now := time.Now()
	if now.Sub(f.last) < progressEvery {
		f.pending = l
		f.skipped++
		return
	}
	more := f.skipped
	f.pending, f.skipped, f.last = progressLine{}, 0, now
	c.progress(l.msg(more))
}

// flushProgress shows the pending line, standing for the lines it replaced.
// It runs before every committed message, so lines keep their order.
func (c *call) flushProgress() {
	f := &c.feed
	if f.pending.kind == progressNone {
		return
	}
	l, more := f.pending, f.skipped-1
	f.pending, f.skipped, f.last = progressLine{}, 0, time.Now()
	c.progress(l.msg(more))
}

// msg is the line as a node message; more > 0 adds "(+N updates)".
func (l progressLine) msg(more int64) workrun.Text {
	switch l.kind {
	case progressArtifact:
		if more > 0 {
			return texts.Msg(msgArtifactCoalesced, l.artifactID, l.text, groupDigits(more))
		}
		return texts.Msg(msgArtifact, l.artifactID, l.text)
	case progressMessage:
		if more > 0 {
			return texts.Msg(msgStatusLineCoalesced, l.text, groupDigits(more))
		}
		return texts.Msg(msgStatusLine, l.text)
	}
	switch {
	case more > 0 && l.text != "":
		return stateMsg("status_text_coalesced", l.state, l.text, groupDigits(more))
	case more > 0:
		return stateMsg("status_coalesced", l.state, groupDigits(more))
	case l.text != "":
		return stateMsg("status_text", l.state, l.text)
	}
	return stateMsg("status", l.state)
}

// groupDigits writes n with thousands separators: 1234567 → "1,234,567".
func groupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	if n < 1000 {
		return s
	}
	out := make([]byte, 0, len(s)+len(s)/3)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}
