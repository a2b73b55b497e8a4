package remotecall

import "strings"

// minEdge is the shortest piece of a secret masked at the end of a chunk
// without knowing the next one: shorter pieces reveal nothing.
const minEdge = 4

// Edges masks the pieces of a secret that a chunk boundary split, for a
// line that shows one chunk (a progress line of an artifact append): the
// start of text that completes a secret begun at the end of prev (the text
// before it), and, when text is shown whole, its end when it begins a
// secret. A whole secret inside text is String's.
func (r *Redactor) Edges(prev, text string, whole bool) string {
	for _, sec := range r.snapshot() {
		for k := min(len(sec)-1, len(text)); k > 0; k-- {
			if strings.HasSuffix(prev, sec[:len(sec)-k]) && strings.HasPrefix(text, sec[len(sec)-k:]) {
				text = Redacted + text[k:]
				break
			}
		}
		if !whole {
			continue
		}
		for k := min(len(sec)-1, len(text)); k >= min(minEdge, len(sec)-1) && k > 0; k-- {
			if strings.HasSuffix(text, sec[:k]) {
				text = text[:len(text)-k] + Redacted
				break
			}
		}
	}
	return text
}
