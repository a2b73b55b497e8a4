package inspector

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"workrun/ui/document"
	"workrun/ui/tooltip"
	"workrun/workrun"
)

// The start node's Triggers section (docs/triggers.md "In the window"):
// its schedules and webhook as the workflow file has them in the start
// node's config "triggers", edited in place. Every edit is checked with
// workrun.ParseStartConfig before it is applied: a cron or a time zone
// that cannot be read is marked under the section, in the window's
// language, and kept as pending (never applied, never dropped without a
// word), as the inspector's other fields are. Each field typed is one undo
// step, as elsewhere in the inspector.
//
// Under each schedule: its next fire time, counted down by a timer the app
// layer owns (TriggerHooks.Every: one per form shown, none per widget),
// and the schedule's last fires with their runs (TriggerHooks.Fires).

// FiredRun is one fire of a schedule as the window shows it: when it was
// due, its state (workrun.Fire*), and the run it started ("" for none).
type FiredRun struct {
	Trigger int // index in the start node's triggers
	At      time.Time
	State   string
	RunID   string
}

// TriggerHooks are what the Triggers section asks of the app layer
// (ui/triggers_app.go); every field may be nil.
type TriggerHooks struct {
	// Now is the clock the next fire times are counted on (nil: time.Now).
	Now func() time.Time
	// Every calls tick on the UI thread every d until it returns false or
	// the window closes.
	Every func(d time.Duration, tick func() bool)
	// Saved says whether the open workflow is saved as shown, and whether
	// it is published (only published workflows' schedules fire).
	Saved func() (saved, published bool)
	// Fires reads the open workflow's last fires; show gets them on the UI
	// thread.
	Fires func(show func([]FiredRun, error))
	// OpenRun opens a run's record.
	OpenRun func(runID string)
}

// firesShown is how many of a schedule's last fires show under it.
const firesShown = 3

// commonZones are offered in the time zone picker; any IANA name may be typed.
var commonZones = []string{"UTC", "Asia/Shanghai", "Asia/Tokyo", "Asia/Kolkata", "Europe/London", "Europe/Paris",
	"Europe/Berlin", "America/New_York", "America/Chicago", "America/Los_Angeles", "Australia/Sydney"}

// triggerForm is the Triggers section of the start node shown.
type triggerForm struct {
	in       *Inspector
	nodeID   string
	doc      *document.Document
	rows     []*triggerRow
	err      *widget.Label // why what is typed cannot be applied
	note     *widget.Label // not published / not saved
	building bool
	fires    []FiredRun
	firesErr error
	due      time.Time // the earliest next fire shown: fires are read again after it

	loc Localizer // the words, in the window's language
}

// triggerRow is the editor of one trigger.
type triggerRow struct {
	orig workrun.Trigger // as loaded: keeps defaults unwritten
	box  *fyne.Container

	mode    *widget.Select // cron or every N minutes
	cron    *widget.Entry
	every   *widget.Entry
	zone    *widget.SelectEntry
	missed  *widget.Select
	overlap *widget.Select
	cronBox *fyne.Container
	evBox   *fyne.Container

	auth    *widget.Select
	wait    *widget.Check
	waitSec *widget.Entry

	next  *widget.Label
	fires *fyne.Container

	loc Localizer // the words, in the window's language
}

// choice maps a select's labels to the values written.
type choice struct {
	value string
	label msgID
}

var (
	missedChoices  = []choice{{workrun.MissedSkip, msgTrigMissedSkip}, {workrun.MissedRunOnce, msgTrigMissedOnce}}
	overlapChoices = []choice{{workrun.OverlapSkip, msgTrigOverSkip}, {workrun.OverlapQueue, msgTrigOverQueue}, {workrun.OverlapAllow, msgTrigOverAllow}}
	authChoices    = []choice{{workrun.WebhookHMAC, msgTrigAuthHMAC}, {workrun.WebhookBearer, msgTrigAuthBearer}}
)

func choiceSelect(loc Localizer, cs []choice, value string, changed func()) *widget.Select {
	labels := make([]string, len(cs))
	for i, c := range cs {
		labels[i] = trigText(loc, c.label)
	}
	s := NewSelect(loc, labels, func(string) { changed() })
	for _, c := range cs {
		if c.value == value {
			s.Selected = trigText(loc, c.label)
		}
	}
	if s.Selected == "" {
		s.Selected = value // a value this version has no option for: kept
	}
	return s
}

func choiceValue(loc Localizer, cs []choice, s *widget.Select) string {
	for _, c := range cs {
		if trigText(loc, c.label) == s.Selected {
			return c.value
		}
	}
	return s.Selected
}

// keepDefault writes v, or "" when v is the default and the trigger had
// the key unset (an edit elsewhere does not add keys to the file).
func keepDefault(v, def, orig string) string {
	if v == def && orig == "" {
		return ""
	}
	return v
}

// startTriggers reads the triggers of a start node's config as written
// (unchecked: a bad cron still shows, to be fixed in place).
func startTriggers(cfg json.RawMessage) []workrun.Trigger {
	var c struct {
		Triggers []workrun.Trigger `json:"triggers"`
	}
	if err := json.Unmarshal(cfg, &c); err != nil {
		return nil
	}
	return c.Triggers
}

// withTriggers is cfg with its "triggers" replaced (other keys kept).
func withTriggers(cfg json.RawMessage, ts []workrun.Trigger) (json.RawMessage, error) {
	m := document.ConfigMap(cfg)
	delete(m, "triggers")
	if len(ts) > 0 {
		b, err := json.Marshal(ts)
		if err != nil {
			return nil, fmt.Errorf("triggers: %w", err)
		}
		m["triggers"] = b
	}
	if len(m) == 0 {
		return nil, nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("triggers: %w", err)
	}
	return b, nil
}

// errText is err in the window's language.
func errText(loc Localizer, err error) string {
	var te *workrun.TextError
	if errors.As(err, &te) {
		return te.Text.In(loc.Messages())
	}
	return err.Error()
}

// addTriggers adds the Triggers section of a start node to its form
// (showNode calls it for every node; only start has one).
func (in *Inspector) addTriggers(n workrun.NodeSpec, form *fyne.Container) {
	in.trig = nil
	if n.Type != "start" {
		return
	}
	f := &triggerForm{loc: in.loc, in: in, nodeID: n.ID, doc: in.doc(), building: true}
	in.trig = f
	defer func() { f.building = false }()
	ts := startTriggers(n.Config)
	form.Add(widget.NewSeparator())
	form.Add(heading(trigText(in.loc, msgTrigHeading)))
	if len(ts) == 0 {
		form.Add(caption(trigText(in.loc, msgTrigNone)))
	}
	schedules, hooks := 0, 0
	for i, t := range ts {
		var r *triggerRow
		switch t.Type {
		case workrun.TriggerSchedule:
			schedules++
			r = f.scheduleRow(i, schedules, t)
		case workrun.TriggerWebhook:
			hooks++
			r = f.webhookRow(i, t)
		default:
			r = f.otherRow(i, t)
		}
		f.rows = append(f.rows, r)
		form.Add(r.box)
	}
	f.err = widget.NewLabel("")
	in.widgets["trigger_error"] = f.err
	f.err.Wrapping = fyne.TextWrapWord
	f.err.Importance = widget.DangerImportance
	f.err.Hide()
	form.Add(f.err)
	addSched := widget.NewButtonWithIcon(trigText(in.loc, msgTrigAddSchedule), theme.ContentAddIcon(), func() {
		f.add(workrun.Trigger{Type: workrun.TriggerSchedule, Cron: "0 * * * *", TimeZone: "UTC"})
	})
	addHook := widget.NewButtonWithIcon(trigText(in.loc, msgTrigAddWebhook), theme.ContentAddIcon(), func() {
		f.add(workrun.Trigger{Type: workrun.TriggerWebhook, Auth: workrun.WebhookHMAC})
	})
	if hooks > 0 {
		addHook.Disable() // a workflow has one webhook
	}
	in.widgets["trigger_add_schedule"], in.widgets["trigger_add_webhook"] = addSched, addHook
	form.Add(container.NewGridWithColumns(2, addSched, addHook))
	f.note = caption("")
	f.note.Hide()
	in.widgets["trigger_note"] = f.note
	form.Add(f.note)
	if hooks > 0 {
		form.Add(caption(trigText(in.loc, msgTrigHookServe)))
	}
	if _, err := workrun.ParseStartConfig(n.Config); err != nil {
		f.showErr(err) // a file with a bad trigger: said at once
	}
	f.refresh()
	f.loadFires()
	if schedules > 0 && in.Triggers.Every != nil {
		in.Triggers.Every(time.Second, func() bool {
			if in.trig != f {
				return false // another form is shown: this timer ends
			}
			f.refresh()
			return true
		})
	}
}

func (f *triggerForm) now() time.Time {
	if f.in.Triggers.Now != nil {
		return f.in.Triggers.Now()
	}
	return time.Now()
}

// header is a trigger's title with its Remove button.
func (f *triggerForm) header(i int, title string) fyne.CanvasObject {
	rm := tooltip.NewButton(f.in.tips, "", theme.DeleteIcon(), trigText(f.loc, msgTrigRemove), func() { f.remove(i) })
	f.in.widgets[fmt.Sprintf("trigger_%d_remove", i)] = rm
	l := widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	return container.NewBorder(nil, nil, nil, rm, l)
}

func (f *triggerForm) scheduleRow(i, nth int, t workrun.Trigger) *triggerRow {
	r := &triggerRow{loc: f.loc, orig: t}
	changed := func(key string) func() { return func() { f.changed(fmt.Sprintf("%d:%s", i, key)) } }
	entry := func(key, text, hint string) *widget.Entry {
		e := widget.NewEntry()
		e.SetText(text)
		e.SetPlaceHolder(hint)
		e.OnChanged = func(string) { changed(key)() }
		f.in.widgets[fmt.Sprintf("trigger_%d_%s", i, key)] = e
		return e
	}
	r.cron = entry("cron", t.Cron, trigText(f.loc, msgTrigCronHint))
	every := ""
	if t.EveryMinutes != 0 {
		every = strconv.Itoa(t.EveryMinutes)
	}
	r.every = entry("every_minutes", every, "15")
	r.zone = widget.NewSelectEntry(commonZones)
	r.zone.SetText(t.TimeZone)
	r.zone.SetPlaceHolder("UTC")
	r.zone.OnChanged = func(string) { changed("time_zone")() }
	f.in.widgets[fmt.Sprintf("trigger_%d_time_zone", i)] = r.zone
	r.cronBox = container.NewVBox(caption(trigText(f.loc, msgTrigCron)), r.cron, caption(trigText(f.loc, msgTrigZone)), r.zone)
	r.evBox = container.NewVBox(caption(trigText(f.loc, msgTrigEvery)), r.every)
	byCron, byEvery := trigText(f.loc, msgTrigByCron), trigText(f.loc, msgTrigByEvery)
	r.mode = NewSelect(f.loc, []string{byCron, byEvery}, func(s string) {
		if f.building {
			return
		}
		// The other way's value is filled in, so the switch is a valid edit.
		f.building = true
		if s == byEvery && strings.TrimSpace(r.every.Text) == "" {
			r.every.SetText("60")
		}
		if s == byCron && strings.TrimSpace(r.cron.Text) == "" {
			r.cron.SetText("0 * * * *")
		}
		f.building = false
		r.showMode()
		changed("mode")()
	})
	r.mode.Selected = byCron
	if t.EveryMinutes != 0 && t.Cron == "" {
		r.mode.Selected = byEvery
	}
	f.in.widgets[fmt.Sprintf("trigger_%d_mode", i)] = r.mode
	r.missed = choiceSelect(f.loc, missedChoices, t.MissedPolicy(), changed("missed"))
	r.overlap = choiceSelect(f.loc, overlapChoices, t.OverlapPolicy(), changed("overlap"))
	f.in.widgets[fmt.Sprintf("trigger_%d_missed", i)] = r.missed
	f.in.widgets[fmt.Sprintf("trigger_%d_overlap", i)] = r.overlap
	r.next = widget.NewLabel("")
	r.next.Wrapping = fyne.TextWrapWord
	r.fires = container.NewVBox()
	f.in.widgets[fmt.Sprintf("trigger_%d_next", i)], f.in.widgets[fmt.Sprintf("trigger_%d_fires", i)] = r.next, r.fires
	r.box = container.NewVBox(f.header(i, trigText(f.loc, msgTrigSchedule, nth)), r.mode, r.cronBox, r.evBox,
		caption(trigText(f.loc, msgTrigMissed)), r.missed, caption(trigText(f.loc, msgTrigOverlap)), r.overlap,
		r.next, caption(trigText(f.loc, msgTrigFires)), r.fires)
	r.showMode()
	return r
}

func (r *triggerRow) byEvery() bool { return r.mode != nil && r.mode.SelectedIndex() == 1 }

func (r *triggerRow) showMode() {
	if r.byEvery() {
		r.cronBox.Hide()
		r.evBox.Show()
	} else {
		r.evBox.Hide()
		r.cronBox.Show()
	}
}

func (f *triggerForm) webhookRow(i int, t workrun.Trigger) *triggerRow {
	r := &triggerRow{loc: f.loc, orig: t}
	changed := func(key string) func() { return func() { f.changed(fmt.Sprintf("%d:%s", i, key)) } }
	r.auth = choiceSelect(f.loc, authChoices, t.AuthMethod(), changed("auth"))
	r.waitSec = widget.NewEntry()
	if t.WaitSeconds != 0 {
		r.waitSec.SetText(strconv.Itoa(t.WaitSeconds))
	}
	r.waitSec.SetPlaceHolder(strconv.Itoa(workrun.DefaultWebhookWait))
	r.waitSec.OnChanged = func(string) { changed("wait_seconds")() }
	r.wait = widget.NewCheck(trigText(f.loc, msgTrigWait), func(on bool) {
		if on {
			r.waitSec.Enable()
		} else {
			r.waitSec.Disable()
		}
		changed("wait")()
	})
	r.wait.Checked = t.Wait
	if !t.Wait {
		r.waitSec.Disable()
	}
	f.in.widgets[fmt.Sprintf("trigger_%d_auth", i)] = r.auth
	f.in.widgets[fmt.Sprintf("trigger_%d_wait", i)] = r.wait
	f.in.widgets[fmt.Sprintf("trigger_%d_wait_seconds", i)] = r.waitSec
	r.box = container.NewVBox(f.header(i, trigText(f.loc, msgTrigWebhook)), caption(trigText(f.loc, msgTrigAuth)), r.auth,
		r.wait, caption(trigText(f.loc, msgTrigWaitSecs)), r.waitSec)
	return r
}

// otherRow shows a manual trigger (or a type this version does not know,
// kept as it is).
func (f *triggerForm) otherRow(i int, t workrun.Trigger) *triggerRow {
	title := trigText(f.loc, msgTrigManual)
	if t.Type != workrun.TriggerManual {
		title = t.Type
	}
	return &triggerRow{loc: f.loc, orig: t, box: container.NewVBox(f.header(i, title))}
}

// read is the trigger the row's widgets hold.
func (r *triggerRow) read() (workrun.Trigger, error) {
	t := r.orig
	switch {
	case r.mode != nil: // a schedule
		t.Cron, t.TimeZone, t.EveryMinutes = "", "", 0
		if r.byEvery() {
			v, set, err := readInt(r.loc, r.every.Text, trigText(r.loc, msgTrigEvery))
			if err != nil {
				return t, err
			}
			if set {
				t.EveryMinutes = v
			}
		} else {
			t.Cron = strings.TrimSpace(r.cron.Text)
			t.TimeZone = strings.TrimSpace(r.zone.Text)
		}
		t.Missed = keepDefault(choiceValue(r.loc, missedChoices, r.missed), workrun.MissedSkip, r.orig.Missed)
		t.Overlap = keepDefault(choiceValue(r.loc, overlapChoices, r.overlap), workrun.OverlapSkip, r.orig.Overlap)
	case r.auth != nil: // a webhook
		t.Auth = keepDefault(choiceValue(r.loc, authChoices, r.auth), workrun.WebhookHMAC, r.orig.Auth)
		t.Wait = r.wait.Checked
		t.WaitSeconds = 0
		if t.Wait {
			v, set, err := readInt(r.loc, r.waitSec.Text, trigText(r.loc, msgTrigWaitSecs))
			if err != nil {
				return t, err
			}
			if set {
				t.WaitSeconds = v
			}
		}
	}
	return t, nil
}

// config is the start node's config with the triggers as the form holds
// them, checked as the engine checks it.
func (f *triggerForm) config() (json.RawMessage, error) {
	n, ok := f.doc.Node(f.nodeID)
	if !ok {
		return nil, fmt.Errorf("triggers: node %s is gone", f.nodeID)
	}
	ts := make([]workrun.Trigger, 0, len(f.rows))
	for _, r := range f.rows {
		t, err := r.read()
		if err != nil {
			return nil, err
		}
		ts = append(ts, t)
	}
	cfg, err := withTriggers(n.Config, ts)
	if err != nil {
		return nil, err
	}
	if _, err := workrun.ParseStartConfig(cfg); err != nil {
		return nil, err
	}
	return cfg, nil
}

// changed applies the form after a field (key: "index:name") changed: one
// undo step per field typed.
func (f *triggerForm) changed(key string) {
	if f.building || f.in.trig != f || f.in.building {
		return
	}
	cfg, err := f.config()
	if err != nil {
		f.showErr(err)
		f.in.pending = trigText(f.loc, msgTrigHeading) + ": " + errText(f.loc, err)
		return
	}
	f.showErr(nil)
	f.in.pending = ""
	f.in.apply(func() { f.in.Edits.config(f.nodeID, cfg, "cfg:"+f.nodeID+":triggers:"+key) })
	f.refresh()
}

// add appends t to the document's triggers (the form is built again).
func (f *triggerForm) add(t workrun.Trigger) {
	n, ok := f.doc.Node(f.nodeID)
	if !ok {
		return
	}
	cfg, err := withTriggers(n.Config, append(startTriggers(n.Config), t))
	if err != nil {
		f.showErr(err)
		return
	}
	f.in.Edits.config(f.nodeID, cfg, "")
}

// remove drops the document's trigger i (the form is built again).
func (f *triggerForm) remove(i int) {
	n, ok := f.doc.Node(f.nodeID)
	if !ok {
		return
	}
	ts := startTriggers(n.Config)
	if i < 0 || i >= len(ts) {
		return
	}
	cfg, err := withTriggers(n.Config, append(ts[:i:i], ts[i+1:]...))
	if err != nil {
		f.showErr(err)
		return
	}
	f.in.Edits.config(f.nodeID, cfg, "")
}

func (f *triggerForm) showErr(err error) {
	if err == nil {
		f.err.SetText("")
		f.err.Hide()
		return
	}
	f.err.SetText("⚠ " + errText(f.loc, err))
	f.err.Show()
}

// refresh shows each schedule's next fire time from the clock's now (as
// the document has it: that is what fires once saved) and reads the fires
// again once a shown fire time has passed.
func (f *triggerForm) refresh() {
	now := f.now()
	saved, published := true, true
	if f.in.Triggers.Saved != nil {
		saved, published = f.in.Triggers.Saved()
	}
	n, ok := f.doc.Node(f.nodeID)
	if !ok {
		return
	}
	cfg, err := workrun.ParseStartConfig(n.Config)
	if err != nil {
		cfg = workrun.StartConfig{}
	}
	hasSchedule := false
	var due time.Time
	for i, r := range f.rows {
		if r.next == nil {
			continue
		}
		hasSchedule = true
		if i >= len(cfg.Triggers) {
			r.next.SetText("")
			continue
		}
		at, ok := cfg.Triggers[i].Next(now)
		if !ok {
			r.next.SetText(trigText(f.loc, msgTrigNextNever))
			continue
		}
		if due.IsZero() || at.Before(due) {
			due = at
		}
		r.next.SetText(nextFireText(f.loc, at, now))
	}
	switch {
	case hasSchedule && !published:
		f.note.SetText(trigText(f.loc, msgTrigNotPub))
		f.note.Show()
	case hasSchedule && !saved:
		f.note.SetText(trigText(f.loc, msgTrigNextUnsaved))
		f.note.Show()
	default:
		f.note.Hide()
	}
	if !f.due.IsZero() && !now.Before(f.due.Add(time.Second)) {
		f.loadFires() // a fire was due a second ago: its record is there
		f.due = time.Time{}
	}
	if f.due.IsZero() || !due.IsZero() && due.Before(f.due) {
		f.due = due
	}
}

// nextFireText is "Next: <local time> (in 8 s)".
func nextFireText(loc Localizer, at, now time.Time) string {
	return trigText(loc, msgTrigNext, at.In(time.Local).Format("2006-01-02 15:04:05"), untilText(loc, at.Sub(now)))
}

// untilText words a wait, rounded up to the second.
func untilText(loc Localizer, d time.Duration) string {
	s := int((d + time.Second - 1) / time.Second)
	switch {
	case s < 60:
		return trigText(loc, msgTrigInSecs, max(s, 0))
	case s < 3600:
		return trigText(loc, msgTrigInMins, (s+59)/60)
	case s < 86400:
		return trigText(loc, msgTrigInHours, s/3600, s%3600/60)
	default:
		return trigText(loc, msgTrigInDays, s/86400, s%86400/3600)
	}
}

// loadFires asks for the workflow's last fires and shows each schedule's.
func (f *triggerForm) loadFires() {
	if f.in.Triggers.Fires == nil {
		return
	}
	f.in.Triggers.Fires(func(fs []FiredRun, err error) {
		if f.in.trig != f {
			return
		}
		f.fires, f.firesErr = fs, err
		f.showFires()
	})
}

func (f *triggerForm) showFires() {
	for i, r := range f.rows {
		if r.fires == nil {
			continue
		}
		r.fires.RemoveAll()
		if f.firesErr != nil {
			l := caption(trigText(f.loc, msgTrigFiresErr, errText(f.loc, f.firesErr)))
			l.Importance = widget.DangerImportance
			r.fires.Add(l)
			continue
		}
		shown := 0
		for _, fr := range f.fires {
			if fr.Trigger != i || shown == firesShown {
				continue
			}
			shown++
			r.fires.Add(f.fireLine(fr))
		}
		if shown == 0 {
			r.fires.Add(caption(trigText(f.loc, msgTrigNoFires)))
		}
	}
}

// fireTime is a fire's local time: the clock time on today's date, else
// with the date.
func fireTime(at, now time.Time) string {
	at, now = at.In(time.Local), now.In(time.Local)
	if at.Format(time.DateOnly) == now.Format(time.DateOnly) {
		return at.Format(time.TimeOnly)
	}
	return at.Format("2006-01-02 15:04:05")
}

func fireStateText(loc Localizer, s string) string {
	switch s {
	case workrun.FireStarted:
		return trigText(loc, msgTrigFireStarted)
	case workrun.FirePending:
		return trigText(loc, msgTrigFirePending)
	case workrun.FireQueued:
		return trigText(loc, msgTrigFireQueued)
	case workrun.FireSkipped:
		return trigText(loc, msgTrigFireSkipped)
	case workrun.FireMissed:
		return trigText(loc, msgTrigFireMissed)
	}
	return s
}

// fireLine is one fire: when, what became of it, and its run.
func (f *triggerForm) fireLine(fr FiredRun) fyne.CanvasObject {
	l := caption(fireTime(fr.At, f.now()) + " · " + fireStateText(f.loc, fr.State))
	if fr.RunID == "" || f.in.Triggers.OpenRun == nil {
		return l
	}
	id := fr.RunID
	open := widget.NewButton(trigText(f.loc, msgTrigOpen), func() { f.in.Triggers.OpenRun(id) })
	return container.NewBorder(nil, nil, nil, open, l)
}
