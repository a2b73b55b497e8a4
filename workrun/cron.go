package workrun

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ErrCron: a cron expression that cannot be read (docs/triggers.md "Cron").
var ErrCron = errors.New("bad cron expression")

// Cron is a parsed cron expression: six fields (second, minute, hour, day
// of month, month, day of week); a five-field expression has second 0.
// Next follows docs/triggers.md T3 for time-zone changes.
type Cron struct {
	sec, min, hour, dom, month, dow uint64 // bit i set: value i matches
	domStar, dowStar                bool   // the field was "*" (or "?")
	hourStar                        bool   // every hour: a repeated hour fires twice
	src                             string
}

type cronField struct {
	name     string
	min, max int
	names    []string // names[i] is value min+i
}

var (
	cronMonths = []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}
	cronDays   = []string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}
	cronFields = [6]cronField{
		{"second", 0, 59, nil}, {"minute", 0, 59, nil}, {"hour", 0, 23, nil},
		{"day of month", 1, 31, nil}, {"month", 1, 12, cronMonths}, {"day of week", 0, 7, cronDays},
	}
)

// ParseCron reads a 5-field (minute first) or 6-field (second first) cron
// expression: each field "*", a value, a range a-b, a step */n or a-b/n,
// or a comma list of those; months and week days also by English
// three-letter names; day of week 0 and 7 are Sunday. The errors wrap
// ErrCron and name the field.
func ParseCron(s string) (Cron, error) {
	parts := strings.Fields(s)
	if len(parts) == 5 {
		parts = append([]string{"0"}, parts...)
	}
	if len(parts) != 6 {
		return Cron{}, fmt.Errorf("%w %q: it has %d fields, want 5 or 6", ErrCron, s, len(strings.Fields(s)))
	}
	c := Cron{src: s}
	dst := [6]*uint64{&c.sec, &c.min, &c.hour, &c.dom, &c.month, &c.dow}
	for i, p := range parts {
		bits, err := parseCronField(p, cronFields[i])
		if err != nil {
			return Cron{}, fmt.Errorf("%w %q: %s field %q: %s", ErrCron, s, cronFields[i].name, p, err)
		}
		*dst[i] = bits
	}
	if c.dow&(1<<7) != 0 {
		c.dow |= 1
	}
	c.domStar = parts[3] == "*" || parts[3] == "?"
	c.dowStar = parts[5] == "*" || parts[5] == "?"
	c.hourStar = c.hour == 1<<24-1 && !strings.Contains(parts[2], ",")
	return c, nil
}

// String is the expression as written.
func (c Cron) String() string { return c.src }

func parseCronField(s string, f cronField) (uint64, error) {
	if s == "" {
		return 0, errors.New("empty")
	}
	var bits uint64
	for item := range strings.SplitSeq(s, ",") {
		rng, stepText, hasStep := strings.Cut(item, "/")
		lo, hi := f.min, f.max
		switch {
		case rng == "*" || rng == "?":
		case rng == "":
			return 0, errors.New("an empty list item")
		default:
			a, b, isRange := strings.Cut(rng, "-")
			var err error
			if lo, err = cronValue(a, f); err != nil {
				return 0, err
			}
			hi = lo
			if isRange {
				if hi, err = cronValue(b, f); err != nil {
					return 0, err
				}
				if hi < lo {
					return 0, fmt.Errorf("range %s ends before it starts", rng)
				}
			} else if hasStep {
				hi = f.max // "5/15": from 5 to the end, every 15
			}
		}
		step := 1
		if hasStep {
			n, err := strconv.Atoi(stepText)
			if err != nil || n < 1 || n > f.max-f.min+1 {
				return 0, fmt.Errorf("step %q is not a number from 1 to %d", stepText, f.max-f.min+1)
			}
			step = n
		}
		for v := lo; v <= hi; v += step {
			bits |= 1 << uint(v)
		}
	}
	return bits, nil
}

func cronValue(s string, f cronField) (int, error) {
	for i, n := range f.names {
		if strings.EqualFold(s, n) {
			return f.min + i, nil
		}
	}
	n, err := strconv.Atoi(s)
	if err != nil || len(s) > 2 {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	if n < f.min || n > f.max {
		return 0, fmt.Errorf("%d is outside %d-%d", n, f.min, f.max)
	}
	return n, nil
}

func has(bits uint64, v int) bool { return bits&(1<<uint(v)) != 0 }

// dayMatches: when both day of month and day of week are restricted, a day
// matching either one matches (as every cron does).
func (c Cron) dayMatches(y int, m time.Month, d int) bool {
	wd := int(time.Date(y, m, d, 12, 0, 0, 0, time.UTC).Weekday())
	domOK, dowOK := has(c.dom, d), has(c.dow, wd)
	switch {
	case c.domStar && c.dowStar:
		return true
	case c.domStar:
		return dowOK
	case c.dowStar:
		return domOK
	}
	return domOK || dowOK
}

// cronHorizon bounds Next's search: an expression that never matches
// (30 February) has no next time.
const cronHorizon = 5 * 366

// Next returns the first instant after `after` whose wall-clock time in loc
// matches, and false if none within five years. Time-zone changes
// (docs/triggers.md T3): a matching wall time skipped by a clock moved
// forward fires once at the instant the clock jumps; a wall time the clock
// goes through twice (moved back) fires at its first pass only, unless the
// hour field is "*" (every hour), which fires in both passes.
func (c Cron) Next(after time.Time, loc *time.Location) (time.Time, bool) {
	if loc == nil {
		loc = time.UTC
	}
	start := after.In(loc)
	day := time.Date(start.Year(), start.Month(), start.Day(), 0, 0, 0, 0, time.UTC)
	for i := 0; i < cronHorizon; i, day = i+1, day.AddDate(0, 0, 1) {
		y, m, d := day.Date()
		if !has(c.month, int(m)) || !c.dayMatches(y, m, d) {
			continue
		}
		if t, ok := c.nextInDay(y, m, d, after, loc); ok {
			return t, true
		}
	}
	return time.Time{}, false
}

// nextInDay is the first matching instant after `after` among the day's
// wall times. On a day without an offset change wall times and instants
// go in the same order, so the first match is it; on a change day every
// match is resolved and the earliest kept.
func (c Cron) nextInDay(y int, m time.Month, d int, after time.Time, loc *time.Location) (time.Time, bool) {
	dayStart := time.Date(y, m, d, 0, 0, 0, 0, loc)
	_, off0 := time.Date(y, m, d, 0, 0, 0, 0, loc).Zone()
	_, off1 := time.Date(y, m, d, 23, 59, 59, 0, loc).Zone()
	_, offPrev := dayStart.Add(-time.Second).Zone()
	plain := off0 == off1 && off0 == offPrev
	var best time.Time
	found := false
	// On a plain day the search starts at after's wall time.
	h0, m0, s0 := -1, -1, -1
	if la := after.In(loc); plain && la.Year() == y && la.Month() == m && la.Day() == d {
		h0, m0, s0 = la.Hour(), la.Minute(), la.Second()
	}
	for h := max(h0, 0); h < 24; h++ {
		if !has(c.hour, h) {
			continue
		}
		mStart := 0
		if h == h0 {
			mStart = m0
		}
		for mi := mStart; mi < 60; mi++ {
			if !has(c.min, mi) {
				continue
			}
			sStart := 0
			if h == h0 && mi == m0 {
				sStart = s0
			}
			for s := sStart; s < 60; s++ {
				if !has(c.sec, s) {
					continue
				}
				for _, t := range c.resolve(y, m, d, h, mi, s, loc) {
					if !t.After(after) {
						continue
					}
					if plain {
						return t, true
					}
					if !found || t.Before(best) {
						best, found = t, true
					}
				}
			}
		}
	}
	return best, found
}

// resolve turns a wall time in loc into the instants it fires at (T3).
func (c Cron) resolve(y int, m time.Month, d, h, mi, s int, loc *time.Location) []time.Time {
	wall := time.Date(y, m, d, h, mi, s, 0, time.UTC)
	guess := time.Date(y, m, d, h, mi, s, 0, loc)
	offs := map[int]bool{}
	for _, dt := range []time.Duration{0, -3 * time.Hour, 3 * time.Hour, -26 * time.Hour, 26 * time.Hour} {
		_, o := guess.Add(dt).Zone()
		offs[o] = true
	}
	var out []time.Time
	for o := range offs {
		t := wall.Add(-time.Duration(o) * time.Second)
		if _, got := t.In(loc).Zone(); got == o {
			out = append(out, t)
		}
	}
	switch len(out) {
	case 0: // skipped by a clock moved forward: the instant it jumps
		return []time.Time{jumpAt(wall, offs, loc)}
	case 1:
		return out
	}
	if out[1].Before(out[0]) {
		out[0], out[1] = out[1], out[0]
	}
	if c.hourStar {
		return out
	}
	return out[:1]
}

// jumpAt is the instant the clock jumped over wall: between wall read with
// the later offset and with the earlier one, the first instant whose offset
// is the later.
func jumpAt(wall time.Time, offs map[int]bool, loc *time.Location) time.Time {
	var lo, hi time.Time
	first := true
	for o := range offs {
		t := wall.Add(-time.Duration(o) * time.Second)
		if first || t.Before(lo) {
			lo = t
		}
		if first || t.After(hi) {
			hi = t
		}
		first = false
	}
	_, late := hi.In(loc).Zone()
	for hi.Sub(lo) > time.Second/2 {
		mid := lo.Add(hi.Sub(lo) / 2).Truncate(time.Second)
		if mid.Equal(lo) {
			break
		}
		if _, o := mid.In(loc).Zone(); o == late {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}
