package runpanel

import (
	"slices"
	"time"

	"workrun/workrun"
)

// tookText says a run's duration in the run panel (docs/product.md W5):
// took, start to end — the figure Run records shows (records.RunDuration) — and,
// when its nodes were at work for much less of it (it waited for a person,
// or Workrun was closed), that too: "41.9s, 38ms of it at work". A run
// records give no duration (an interrupted one) says only its time at
// work.
func tookText(loc Localizer, words Wording, took, ran time.Duration) string {
	switch {
	case took <= 0 && ran <= 0:
		return ""
	case took <= 0:
		return panelText(loc, msgAtWork, words.Duration(ran))
	case waited(took, ran):
		return panelText(loc, msgTookAtWork, words.Duration(took), words.Duration(ran))
	}
	return words.Duration(took)
}

// waited reports whether a run that took took had its nodes at work for
// much less of it (ran): it waited for a person, or Workrun was closed.
func waited(took, ran time.Duration) bool {
	return took > 0 && took-ran >= time.Second && ran < took*9/10
}

// ranFor is how long a run has been at work: the union of its nodes'
// working intervals (docs/product.md W5). A node still running counts up to
// now only while the run goes on (active); a node a crash left "running"
// counts nothing past its start. So the time Workrun was closed — between
// an exit and the resume that re-entered the nodes with a new start — is
// never counted, nor the time the run sat interrupted. last is when the
// latest known work ended (or started): for an interrupted run, when it
// was interrupted.
func ranFor(nodes map[string]workrun.NodeRun, active bool, now time.Time) (ran time.Duration, last time.Time) {
	type span struct{ from, to time.Time }
	var spans []span
	for _, n := range nodes {
		if n.StartedAt.IsZero() {
			continue
		}
		end := n.EndedAt
		if end.IsZero() {
			end = n.StartedAt
			if active && n.Status == workrun.NodeRunning {
				end = now
			}
		}
		if end.Before(n.StartedAt) {
			end = n.StartedAt
		}
		spans = append(spans, span{n.StartedAt, end})
		if end.After(last) {
			last = end
		}
	}
	slices.SortFunc(spans, func(a, b span) int { return a.from.Compare(b.from) })
	var cur span
	for i, s := range spans {
		switch {
		case i == 0:
			cur = s
		case s.from.After(cur.to):
			ran += cur.to.Sub(cur.from)
			cur = s
		case s.to.After(cur.to):
			cur.to = s.to
		}
	}
	if len(spans) > 0 {
		ran += cur.to.Sub(cur.from)
	}
	return ran, last
}
