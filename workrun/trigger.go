package workrun

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Triggers start a workflow without a person pressing Run: a schedule or
// a webhook, written in the start node's config (docs/triggers.md,
// docs/workflow-format.md#triggers). A manual run always works.

// Trigger types.
const (
	TriggerManual   = "manual"
	TriggerSchedule = "schedule"
	TriggerWebhook  = "webhook"
)

// Missed policies (what a schedule does with fires that fell while no
// server ran) and overlap policies (a fire while the last one still runs).
const (
	MissedSkip    = "skip"
	MissedRunOnce = "run_once"
	OverlapSkip   = "skip"
	OverlapQueue  = "queue"
	OverlapAllow  = "allow"
	WebhookHMAC   = "hmac"
	WebhookBearer = "bearer"
)

// Webhook wait bounds: a webhook set to wait answers with the outputs
// within WaitSeconds (default 30, at most 300), else 202 with the run id.
const (
	DefaultWebhookWait = 30
	MaxWebhookWait     = 300
)

// ErrTrigger: a start node's triggers cannot be read.
var ErrTrigger = errors.New("bad trigger")

// Trigger is one way a workflow starts by itself.
type Trigger struct {
	Type string `json:"type"`
	// Schedule: Cron (5 or 6 fields, seconds first when 6) read in
	// TimeZone (an IANA name, default UTC), or EveryMinutes.
	Cron         string `json:"cron,omitempty"`
	TimeZone     string `json:"time_zone,omitempty"`
	EveryMinutes int    `json:"every_minutes,omitempty"`
	Missed       string `json:"missed,omitempty"`  // "skip" (default) or "run_once"
	Overlap      string `json:"overlap,omitempty"` // "skip" (default), "queue" or "allow"
	// Webhook: Auth "hmac" (default) or "bearer"; Wait answers with the
	// outputs (bounded by WaitSeconds).
	Auth        string `json:"auth,omitempty"`
	Wait        bool   `json:"wait,omitempty"`
	WaitSeconds int    `json:"wait_seconds,omitempty"`

	cron Cron
	loc  *time.Location
}

// StartConfig is the start node's config.
type StartConfig struct {
	Triggers []Trigger `json:"triggers,omitempty"`
}

type triggerMsg string

const (
	msgTrigBadJSON   triggerMsg = "workrun.trigger_bad_json"
	msgTrigUnknown   triggerMsg = "workrun.trigger_unknown_key"
	msgTrigType      triggerMsg = "workrun.trigger_type"
	msgTrigCron      triggerMsg = "workrun.trigger_cron"
	msgTrigCronEvery triggerMsg = "workrun.trigger_cron_every"
	msgTrigZone      triggerMsg = "workrun.trigger_zone"
	msgTrigEvery     triggerMsg = "workrun.trigger_every"
	msgTrigMissed    triggerMsg = "workrun.trigger_missed"
	msgTrigOverlap   triggerMsg = "workrun.trigger_overlap"
	msgTrigAuth      triggerMsg = "workrun.trigger_auth"
	msgTrigWait      triggerMsg = "workrun.trigger_wait"
	msgTrigNotFor    triggerMsg = "workrun.trigger_not_for"
	msgTrigTwoHooks  triggerMsg = "workrun.trigger_two_webhooks"
)

var triggerTexts = NewCatalog(map[triggerMsg][2]string{
	msgTrigBadJSON: {"start config: %s (it takes {\"triggers\": [...]} only)", "开始节点配置：%s（只接受 {\"triggers\": [...]}）"},
	msgTrigUnknown: {"start config: unknown key %q (it takes {\"triggers\": [...]} only)", "开始节点配置：未知的键 %q（只接受 {\"triggers\": [...]}）"},
	msgTrigType:    {"trigger %s: type %q is not manual, schedule or webhook", "触发器 %s：类型 %q 不是 manual、schedule 或 webhook"},
	msgTrigCron:    {"trigger %s: %s", "触发器 %s：cron 表达式无法读取（%s）"},
	msgTrigCronEvery: {"trigger %s: a schedule takes either cron or every_minutes, exactly one",
		"触发器 %s：定时触发需要 cron 或 every_minutes 之一，且只能有一个"},
	msgTrigZone:  {"trigger %s: time zone %q is unknown (an IANA name such as Europe/Paris, or UTC)", "触发器 %s：未知时区 %q（应为 IANA 名称，如 Asia/Shanghai 或 UTC）"},
	msgTrigEvery: {"trigger %s: every_minutes %s is not from 1 to 1440", "触发器 %s：every_minutes %s 不在 1 到 1440 之间"},
	msgTrigMissed: {"trigger %s: missed %q is not skip or run_once",
		"触发器 %s：missed %q 不是 skip 或 run_once"},
	msgTrigOverlap: {"trigger %s: overlap %q is not skip, queue or allow", "触发器 %s：overlap %q 不是 skip、queue 或 allow"},
	msgTrigAuth:    {"trigger %s: auth %q is not hmac or bearer", "触发器 %s：auth %q 不是 hmac 或 bearer"},
	msgTrigWait:    {"trigger %s: wait_seconds %s is not from 1 to 300", "触发器 %s：wait_seconds %s 不在 1 到 300 之间"},
	msgTrigNotFor:  {"trigger %s: %s is not a setting of a %s trigger", "触发器 %s：%s 不是 %s 触发器的设置"},
	msgTrigTwoHooks: {"trigger %s: a workflow has one webhook (its URL is the workflow's)",
		"触发器 %s：一个工作流只有一个 webhook（其 URL 属于该工作流）"},
})

// ParseStartConfig reads and checks a start node's config: empty, or
// {"triggers": [...]}. Its errors are *TextError (shown in the reader's
// language as a Problem) wrapping ErrTrigger.
func ParseStartConfig(raw json.RawMessage) (StartConfig, error) {
	var c StartConfig
	if s := strings.TrimSpace(string(raw)); s == "" || s == "null" || s == "{}" {
		return c, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		// encoding/json words an unknown key only in English; name it in
		// the reader's language instead.
		if k, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			if uk, err := strconv.Unquote(k); err == nil {
				return StartConfig{}, triggerTexts.Fail(ErrTrigger, msgTrigUnknown, uk)
			}
		}
		return StartConfig{}, triggerTexts.Fail(ErrTrigger, msgTrigBadJSON, err.Error())
	}
	hooks := 0
	for i := range c.Triggers {
		if err := c.Triggers[i].check(i + 1); err != nil {
			return StartConfig{}, err
		}
		if c.Triggers[i].Type == TriggerWebhook {
			if hooks++; hooks > 1 {
				return StartConfig{}, triggerTexts.Fail(ErrTrigger, msgTrigTwoHooks, i+1)
			}
		}
	}
	return c, nil
}

func (t *Trigger) check(n int) error {
	fail := func(m triggerMsg, a ...any) error {
		return triggerTexts.Fail(ErrTrigger, m, append([]any{n}, a...)...)
	}
	notFor := func(set bool, key string) error {
		if set {
			return fail(msgTrigNotFor, key, t.Type)
		}
		return nil
	}
	switch t.Type {
	case TriggerManual:
		return firstErr(notFor(t.Cron != "", "cron"), notFor(t.EveryMinutes != 0, "every_minutes"), notFor(t.Auth != "", "auth"))
	case TriggerSchedule:
		if err := firstErr(notFor(t.Auth != "", "auth"), notFor(t.Wait, "wait"), notFor(t.WaitSeconds != 0, "wait_seconds")); err != nil {
			return err
		}
		if (t.Cron == "") == (t.EveryMinutes == 0) {
			return fail(msgTrigCronEvery)
		}
		if t.Cron != "" {
			c, err := ParseCron(t.Cron)
			if err != nil {
				return fail(msgTrigCron, err.Error())
			}
			t.cron = c
			loc, err := time.LoadLocation(t.TimeZone)
			if err != nil || strings.EqualFold(t.TimeZone, "local") {
				return fail(msgTrigZone, t.TimeZone)
			}
			t.loc = loc
		} else {
			if t.EveryMinutes < 1 || t.EveryMinutes > 1440 {
				return fail(msgTrigEvery, t.EveryMinutes)
			}
			if t.TimeZone != "" {
				return fail(msgTrigNotFor, "time_zone", "every_minutes")
			}
		}
		if t.Missed != "" && t.Missed != MissedSkip && t.Missed != MissedRunOnce {
			return fail(msgTrigMissed, t.Missed)
		}
		if t.Overlap != "" && t.Overlap != OverlapSkip && t.Overlap != OverlapQueue && t.Overlap != OverlapAllow {
			return fail(msgTrigOverlap, t.Overlap)
		}
	case TriggerWebhook:
		if err := firstErr(notFor(t.Cron != "", "cron"), notFor(t.EveryMinutes != 0, "every_minutes"), notFor(t.TimeZone != "", "time_zone"),
			notFor(t.Missed != "", "missed"), notFor(t.Overlap != "", "overlap")); err != nil {
			return err
		}
		if t.Auth != "" && t.Auth != WebhookHMAC && t.Auth != WebhookBearer {
			return fail(msgTrigAuth, t.Auth)
		}
		if t.WaitSeconds < 0 || t.WaitSeconds > MaxWebhookWait {
			return fail(msgTrigWait, t.WaitSeconds)
		}
	default:
		return fail(msgTrigType, t.Type)
	}
	return nil
}

// MissedPolicy is Missed with its default.
func (t Trigger) MissedPolicy() string {
	if t.Missed == "" {
		return MissedSkip
	}
	return t.Missed
}

// OverlapPolicy is Overlap with its default.
func (t Trigger) OverlapPolicy() string {
	if t.Overlap == "" {
		return OverlapSkip
	}
	return t.Overlap
}

// AuthMethod is Auth with its default.
func (t Trigger) AuthMethod() string {
	if t.Auth == "" {
		return WebhookHMAC
	}
	return t.Auth
}

// WaitFor is how long a waiting webhook waits for the outputs (0: it
// does not wait).
func (t Trigger) WaitFor() time.Duration {
	if !t.Wait {
		return 0
	}
	if t.WaitSeconds == 0 {
		return DefaultWebhookWait * time.Second
	}
	return time.Duration(t.WaitSeconds) * time.Second
}

// Next is the schedule's first fire time after `after` (false for a
// trigger that is not a schedule, or a cron that never matches).
// every_minutes fires at the multiples of N minutes since the Unix epoch
// (so on the clock for divisors of 60), whatever the time zone.
func (t Trigger) Next(after time.Time) (time.Time, bool) {
	if t.Type != TriggerSchedule {
		return time.Time{}, false
	}
	if t.EveryMinutes > 0 {
		step := time.Duration(t.EveryMinutes) * time.Minute
		return after.Truncate(step).Add(step).UTC(), true
	}
	next, ok := t.cron.Next(after, t.loc)
	return next.UTC(), ok
}

// Triggers lists the triggers of wf's start node, checked (the errors of
// ParseStartConfig; none for a workflow without a start node).
func Triggers(wf Workflow) ([]Trigger, error) {
	for _, n := range wf.Nodes {
		if n.Type == "start" {
			c, err := ParseStartConfig(n.Config)
			if err != nil {
				return nil, fmt.Errorf("triggers of %s: %w", wf.Name, err)
			}
			return c.Triggers, nil
		}
	}
	return nil, nil
}

// NextFire is the first fire time after `after` of any of wf's schedules,
// and the index of that trigger in Triggers (false: no schedule).
func NextFire(wf Workflow, after time.Time) (time.Time, int, bool) {
	ts, err := Triggers(wf)
	if err != nil {
		return time.Time{}, 0, false
	}
	var best time.Time
	idx, found := 0, false
	for i, t := range ts {
		if n, ok := t.Next(after); ok && (!found || n.Before(best)) {
			best, idx, found = n, i, true
		}
	}
	return best, idx, found
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Fire states (docs/triggers.md T1).
const (
	FirePending = "pending" // recorded; its run is being started
	FireStarted = "started" // its run was started (TaskID)
	FireQueued  = "queued"  // waits for the schedule's last run to end (overlap queue)
	FireSkipped = "skipped" // no run: the last run was unfinished (overlap skip)
	FireMissed  = "missed"  // no run: fell while no server ran (missed skip)
)

// TriggerFire is one fire of a schedule as stored: one row per
// (Workflow, Trigger, At), written before its run starts.
type TriggerFire struct {
	Workflow string    `json:"workflow"` // the publication id
	Trigger  int       `json:"trigger"`  // index in the start node's triggers
	At       time.Time `json:"at"`       // the scheduled fire time
	State    string    `json:"state"`
	TaskID   string    `json:"task_id,omitempty"` // the served task of its run
}
