package remoteagent

import (
	"workrun/a2a"
	"workrun/remotecall"
)

// chunkEdges returns parts for a progress line with the pieces of a secret
// split across chunks masked (remotecall.Redactor.Edges): prev is the end
// of the artifact's text before these parts. Only the shown beginning of a
// long part is looked at; parts is left as it is.
func chunkEdges(red *remotecall.Redactor, prev string, parts []a2a.Part) []a2a.Part {
	out := make([]a2a.Part, len(parts))
	copy(out, parts)
	for i, p := range out {
		if p.IsRaw() || p.URL != "" || p.Data != nil || p.Text == "" {
			continue
		}
		const shown = 4 * 301 // describeParts shows at most 300 runes
		text, whole := p.Text, len(p.Text) <= shown
		if !whole {
			text = text[:shown]
		}
		out[i].Text = red.Edges(prev, text, whole)
		prev = keepTail(prev, p.Text)
	}
	return out
}
