package inspector

import "workrun/workrun"

// The wording of the start node's Triggers section (triggers.go,
// docs/triggers.md "In the window"), in the window's language.
const (
	msgTrigHeading     msgID = "ui.trig_heading"
	msgTrigNone        msgID = "ui.trig_none"
	msgTrigSchedule    msgID = "ui.trig_schedule"
	msgTrigWebhook     msgID = "ui.trig_webhook"
	msgTrigManual      msgID = "ui.trig_manual"
	msgTrigAddSchedule msgID = "ui.trig_add_schedule"
	msgTrigAddWebhook  msgID = "ui.trig_add_webhook"
	msgTrigRemove      msgID = "ui.trig_remove"
	msgTrigByCron      msgID = "ui.trig_by_cron"
	msgTrigByEvery     msgID = "ui.trig_by_every"
	msgTrigCron        msgID = "ui.trig_cron"
	msgTrigCronHint    msgID = "ui.trig_cron_hint"
	msgTrigEvery       msgID = "ui.trig_every"
	msgTrigZone        msgID = "ui.trig_zone"
	msgTrigMissed      msgID = "ui.trig_missed"
	msgTrigMissedSkip  msgID = "ui.trig_missed_skip"
	msgTrigMissedOnce  msgID = "ui.trig_missed_once"
	msgTrigOverlap     msgID = "ui.trig_overlap"
	msgTrigOverSkip    msgID = "ui.trig_over_skip"
	msgTrigOverQueue   msgID = "ui.trig_over_queue"
	msgTrigOverAllow   msgID = "ui.trig_over_allow"
	msgTrigAuth        msgID = "ui.trig_auth"
	msgTrigAuthHMAC    msgID = "ui.trig_auth_hmac"
	msgTrigAuthBearer  msgID = "ui.trig_auth_bearer"
	msgTrigWait        msgID = "ui.trig_wait"
	msgTrigWaitSecs    msgID = "ui.trig_wait_secs"
	msgTrigNext        msgID = "ui.trig_next"
	msgTrigNextNever   msgID = "ui.trig_next_never"
	msgTrigNextUnsaved msgID = "ui.trig_next_unsaved"
	msgTrigNotPub      msgID = "ui.trig_not_published"
	msgTrigHookServe   msgID = "ui.trig_hook_serve"
	msgTrigFires       msgID = "ui.trig_fires"
	msgTrigNoFires     msgID = "ui.trig_no_fires"
	msgTrigOpen        msgID = "ui.trig_open"
	msgTrigFiresErr    msgID = "ui.trig_fires_err"
	msgTrigFireStarted msgID = "ui.trig_fire_started"
	msgTrigFirePending msgID = "ui.trig_fire_pending"
	msgTrigFireQueued  msgID = "ui.trig_fire_queued"
	msgTrigFireSkipped msgID = "ui.trig_fire_skipped"
	msgTrigFireMissed  msgID = "ui.trig_fire_missed"
	msgTrigInSecs      msgID = "ui.trig_in_secs"
	msgTrigInMins      msgID = "ui.trig_in_mins"
	msgTrigInHours     msgID = "ui.trig_in_hours"
	msgTrigInDays      msgID = "ui.trig_in_days"
)

var trigTexts = workrun.NewCatalog(map[msgID][2]string{
	msgTrigHeading:     {"Triggers", "触发器"},
	msgTrigNone:        {"Only a person starts this workflow (Run). Add a schedule or a webhook to start it by itself.", "只能由用户启动此工作流（运行）。添加定时或 webhook，让它自动启动。"},
	msgTrigSchedule:    {"Schedule %d", "定时 %d"},
	msgTrigWebhook:     {"Webhook", "Webhook"},
	msgTrigManual:      {"Manual (a person presses Run)", "手动（由用户点击运行）"},
	msgTrigAddSchedule: {"Add schedule", "添加定时"},
	msgTrigAddWebhook:  {"Add webhook", "添加 webhook"},
	msgTrigRemove:      {"Remove this trigger", "删除此触发器"},
	msgTrigByCron:      {"Cron expression", "cron 表达式"},
	msgTrigByEvery:     {"Every N minutes", "每 N 分钟"},
	msgTrigCron:        {"Cron (5 fields, or 6 with seconds first)", "cron（5 个字段，或以秒开头的 6 个字段）"},
	msgTrigCronHint:    {"*/10 * * * * *", "*/10 * * * * *"},
	msgTrigEvery:       {"Every (minutes, 1–1440)", "间隔（分钟，1–1440）"},
	msgTrigZone:        {"Time zone (IANA name)", "时区（IANA 名称）"},
	msgTrigMissed:      {"Fires missed while nothing ran", "未运行期间错过的触发"},
	msgTrigMissedSkip:  {"skip them", "跳过"},
	msgTrigMissedOnce:  {"run once", "补运行一次"},
	msgTrigOverlap:     {"While the last run still runs", "上一次运行尚未结束时"},
	msgTrigOverSkip:    {"skip the fire", "跳过本次"},
	msgTrigOverQueue:   {"queue it", "排队等待"},
	msgTrigOverAllow:   {"run beside it", "同时运行"},
	msgTrigAuth:        {"Authentication", "认证方式"},
	msgTrigAuthHMAC:    {"HMAC signature (webhook secret)", "HMAC 签名（webhook 密钥）"},
	msgTrigAuthBearer:  {"Bearer token (serve token)", "Bearer 令牌（serve 令牌）"},
	msgTrigWait:        {"Wait for the outputs", "等待并返回输出"},
	msgTrigWaitSecs:    {"Answer with the outputs if the run ends within (seconds, 1–300; default 30)", "运行在此时间内结束则返回输出（秒，1–300；默认 30）"},
	msgTrigNext:        {"Next: %s (in %s)", "下次：%s（%s后）"},
	msgTrigNextNever:   {"Next: never (the expression matches no date)", "下次：无（该表达式不匹配任何日期）"},
	msgTrigNextUnsaved: {"Fires once saved: the window fires the saved workflow.", "保存后生效：窗口按已保存的工作流触发。"},
	msgTrigNotPub:      {"Not published: schedules fire only for published workflows (Workflow → Publish as agent…).", "未发布：只有已发布的工作流才会定时触发（工作流 → 发布为智能体…）。"},
	msgTrigHookServe:   {"Webhooks are answered by `workrun serve`, or by this window while it serves (Workflow → Publish as agent… → Serve from this window); either shows the webhook URL.", "Webhook 由 `workrun serve` 应答，或在本窗口提供服务时由本窗口应答（工作流 → 发布为智能体… → 由本窗口提供服务）；两者都会显示 webhook URL。"},
	msgTrigFires:       {"Last fires", "最近触发"},
	msgTrigNoFires:     {"No fires yet.", "尚未触发。"},
	msgTrigOpen:        {"Open run", "打开运行"},
	msgTrigFiresErr:    {"The fires cannot be read: %s", "无法读取触发记录：%s"},
	msgTrigFireStarted: {"started a run", "已启动运行"},
	msgTrigFirePending: {"starting", "正在启动"},
	msgTrigFireQueued:  {"queued", "排队中"},
	msgTrigFireSkipped: {"skipped (the last run still ran)", "已跳过（上一次运行未结束）"},
	msgTrigFireMissed:  {"missed (nothing ran then)", "已错过（当时未运行）"},
	msgTrigInSecs:      {"%d s", "%d 秒"},
	msgTrigInMins:      {"%d min", "%d 分钟"},
	msgTrigInHours:     {"%d h %d min", "%d 小时 %d 分钟"},
	msgTrigInDays:      {"%d d %d h", "%d 天 %d 小时"},
})

func trigText(loc Localizer, id msgID, args ...any) string {
	return trigTexts.Msg(id, args...).In(loc.Messages())
}
