package runpanel

import (
	"hash/maphash"
	"slices"

	"workrun/workrun"
)

// msgChunk is how many messages one chunk of a msgLog holds.
const msgChunk = 1024

// msgLog holds one node's messages as the run panel shows them, in
// fixed-size chunks: appending never copies the lines before it, and the
// message list reads any line in constant time, so a frame costs the same
// with ten lines held as with a million.
//
// Stored lines (Seq ≠ 0) are kept in sequence order. A live progress line
// (Seq 0, shown before its commit) stays where it arrived until its stored
// copy takes its place; an index from a line's words to the live lines that
// say them finds that place without a scan.
type msgLog struct {
	chunks     [][]msgEntry
	n          int
	lastSeq    int64            // highest Seq held
	lastStored int              // position of the newest stored line (-1: none)
	live       map[uint64]chain // words hash → live lines not yet replaced
	seed       maphash.Seed
	wraps      rowWraps // the lines as the list shows them (wrap.go)
}

// msgEntry is one line with its place in the live index: h is the hash of
// its words (live lines only) and next the position of the next live line
// with the same hash (-1: none).
type msgEntry struct {
	m    workrun.Message
	h    uint64
	next int32
}

// chain lists the positions of the live lines that share a words hash,
// oldest first.
type chain struct{ head, tail int32 }

func newMsgLog() *msgLog {
	return &msgLog{live: map[uint64]chain{}, seed: maphash.MakeSeed(), lastStored: -1}
}

// len is how many lines the log holds; a nil log holds none.
func (l *msgLog) len() int {
	if l == nil {
		return 0
	}
	return l.n
}

// at is line i.
func (l *msgLog) at(i int) *workrun.Message { return &l.entry(i).m }

func (l *msgLog) entry(i int) *msgEntry { return &l.chunks[i/msgChunk][i%msgChunk] }

// wordsHash hashes what sameWords compares.
func (l *msgLog) wordsHash(m *workrun.Message) uint64 {
	var h maphash.Hash
	h.SetSeed(l.seed)
	h.WriteString(m.Key)
	h.WriteByte(0)
	h.WriteString(m.Text)
	for _, a := range m.Args {
		h.WriteByte(0)
		h.WriteString(a)
	}
	return h.Sum64()
}

// push appends a line.
func (l *msgLog) push(m workrun.Message) {
	e := msgEntry{m: m, next: -1}
	if m.Seq == 0 {
		e.h = l.wordsHash(&m)
	}
	l.pushEntry(e)
}

func (l *msgLog) pushEntry(e msgEntry) {
	if l.n%msgChunk == 0 {
		l.chunks = append(l.chunks, make([]msgEntry, 0, msgChunk))
	}
	c := &l.chunks[len(l.chunks)-1]
	e.next = -1
	*c = append(*c, e)
	pos := int32(l.n)
	l.n++
	if e.m.Seq != 0 {
		l.lastSeq = max(l.lastSeq, e.m.Seq)
		l.lastStored = int(pos)
		return
	}
	if ch, ok := l.live[e.h]; ok {
		l.entry(int(ch.tail)).next = pos
		l.live[e.h] = chain{ch.head, pos}
	} else {
		l.live[e.h] = chain{pos, pos}
	}
}

// replaceLive puts the stored line m in the place of the oldest live line
// that says the same, and reports whether there was one.
func (l *msgLog) replaceLive(m workrun.Message) bool {
	if len(l.live) == 0 {
		return false
	}
	h := l.wordsHash(&m)
	ch, ok := l.live[h]
	if !ok {
		return false
	}
	prev := int32(-1)
	for pos := ch.head; pos >= 0; {
		e := l.entry(int(pos))
		if !sameWords(e.m, m) { // a hash collision: keep looking
			prev, pos = pos, e.next
			continue
		}
		next := e.next
		*e = msgEntry{m: m, next: -1}
		l.wraps.truncate(int(pos))
		l.lastSeq = max(l.lastSeq, m.Seq)
		l.lastStored = max(l.lastStored, int(pos))
		switch {
		case prev < 0 && next < 0:
			delete(l.live, h)
		case prev < 0:
			l.live[h] = chain{next, ch.tail}
		default:
			l.entry(int(prev)).next = next
			if next < 0 {
				ch.tail = prev
			}
			l.live[h] = ch
		}
		return true
	}
	return false
}

// storedAlready reports whether the live line m is one of the last lines
// already as its stored copy: same words and time. A stream of live lines
// alone costs no scan.
func (l *msgLog) storedAlready(m workrun.Message) bool {
	for i := l.lastStored; i >= 0 && i >= l.n-256; i-- {
		s := l.at(i)
		if s.Seq != 0 && s.Time.Equal(m.Time) && sameWords(*s, m) {
			return true
		}
	}
	return false
}

// add takes stored lines (none held yet) in: appended when they come after
// every stored line held, else merged in sequence order, the live lines
// staying after the stored line they followed.
func (l *msgLog) add(ms []workrun.Message) {
	if len(ms) == 0 {
		return
	}
	if !slices.IsSortedFunc(ms, bySeq) {
		slices.SortStableFunc(ms, bySeq)
	}
	if ms[0].Seq > l.lastSeq && l.seqSorted() {
		for _, m := range ms {
			l.push(m)
		}
		return
	}
	l.sortSeq()
	old := l.drain()
	j := 0
	for i := range old {
		e := &old[i]
		for e.m.Seq != 0 && j < len(ms) && ms[j].Seq < e.m.Seq {
			l.push(ms[j])
			j++
		}
		l.pushEntry(*e)
	}
	for ; j < len(ms); j++ {
		l.push(ms[j])
	}
}

// drain empties the log and returns what it held.
func (l *msgLog) drain() []msgEntry {
	out := make([]msgEntry, 0, l.n)
	for _, c := range l.chunks {
		out = append(out, c...)
	}
	l.chunks, l.n, l.lastSeq, l.lastStored = nil, 0, 0, -1
	clear(l.live)
	l.wraps = rowWraps{}
	return out
}

// seqSorted reports whether the stored lines are in sequence order (a
// stored copy that replaced a live line may break it).
func (l *msgLog) seqSorted() bool {
	var last int64
	for _, c := range l.chunks {
		for i := range c {
			if s := c[i].m.Seq; s != 0 {
				if s < last {
					return false
				}
				last = s
			}
		}
	}
	return true
}

// sortSeq puts the stored lines in sequence order; the live lines keep
// their places.
func (l *msgLog) sortSeq() {
	if l.seqSorted() {
		return
	}
	var pos []int
	var stored []msgEntry
	for i := 0; i < l.n; i++ {
		if e := l.entry(i); e.m.Seq != 0 {
			pos = append(pos, i)
			stored = append(stored, *e)
		}
	}
	slices.SortStableFunc(stored, func(a, b msgEntry) int { return cmpSeq(a.m.Seq, b.m.Seq) })
	for k, i := range pos {
		*l.entry(i) = stored[k]
	}
}

func bySeq(a, b workrun.Message) int { return cmpSeq(a.Seq, b.Seq) }
