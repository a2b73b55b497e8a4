package remoteagent

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
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
// goroutine running the node. Each stream (the status, the agent's
// messages, one artifact) has its own pending line and count, so a count
// always stands on the line of the updates it counts: an artifact line
// never carries the status updates it followed.
type progressFeed struct {
	last    time.Time // when the last line went out
	pending []pendingLine
	seq     uint64 // order of the pending lines
	// durable: states whose first line was committed.
	durable map[a2a.TaskState]bool
	// prev is the last status seen, to drop an exact repeat.
	prevState a2a.TaskState
	prevText  string
	hasPrev   bool
}

// pendingLine is the newest line of one stream not shown yet; skipped
// counts that stream's lines since its last one shown, this one included.
type pendingLine struct {
	line    progressLine
	skipped int64
	seq     uint64
}

// maxPendingStreams bounds the streams held between two lines: an agent
// writing to many artifacts at once gets them shown, not held without end.
const maxPendingStreams = 8

// stream says which lines replace one another.
func (l progressLine) stream() progressLine {
	return progressLine{kind: l.kind, artifactID: l.artifactID}
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

// addProgress shows l now, or keeps it as its stream's pending line when
// the last line went out less than progressEvery ago. Shown now, it counts
// the lines of its stream it replaced; the other streams' pending lines go
// out before it, each with its own count.
func (c *call) addProgress(l progressLine) {
	f := &c.feed
	now := time.Now()
	i := slices.IndexFunc(f.pending, func(p pendingLine) bool { return p.line.stream() == l.stream() })
	if now.Sub(f.last) < progressEvery && (i >= 0 || len(f.pending) < maxPendingStreams) {
		f.seq++
		if i >= 0 {
			f.pending[i].line, f.pending[i].skipped, f.pending[i].seq = l, f.pending[i].skipped+1, f.seq
		} else {
			f.pending = append(f.pending, pendingLine{line: l, skipped: 1, seq: f.seq})
		}
		return
	}
	var more int64
	if i >= 0 {
		more = f.pending[i].skipped
		f.pending = slices.Delete(f.pending, i, i+1)
	}
	c.flushProgress()
	f.last = now
	c.progress(l.msg(more))
}

// flushProgress shows the pending lines, oldest first, each standing for
// the lines of its stream it replaced. It runs before every committed
// message, so lines keep their order.
func (c *call) flushProgress() {
	f := &c.feed
	if len(f.pending) == 0 {
		return
	}
	slices.SortFunc(f.pending, func(a, b pendingLine) int { return cmp.Compare(a.seq, b.seq) })
	for _, p := range f.pending {
		c.progress(p.line.msg(p.skipped - 1))
	}
	f.pending, f.last = f.pending[:0], time.Now()
}

// msg is the line as a node message; more > 0 is the count of earlier
// lines of its stream it stands for (workrun.Text.Repeat: "(+N updates)").
func (l progressLine) msg(more int64) workrun.Text {
	var t workrun.Text
	switch {
	case l.kind == progressArtifact && (l.artifactID == "" || strings.EqualFold(l.artifactID, "result")):
		// A result named "result" says nothing more: not "Result result: …".
		t = texts.Msg(msgArtifactPlain, l.text)
	case l.kind == progressArtifact:
		t = texts.Msg(msgArtifact, l.artifactID, l.text)
	case l.kind == progressMessage:
		t = texts.Msg(msgStatusLine, l.text)
	case l.text != "":
		t = stateMsg("status_text", l.state, l.text)
	default:
		t = stateMsg("status", l.state)
	}
	t.Repeat = more
	return t
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
