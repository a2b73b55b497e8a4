package runpanel

import (
	"time"

	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

// Localizer words the panel's labels in the window's language; the app
// layer hands it its Localizer.
type Localizer interface {
	// X is the label under key, fallback when it has none.
	X(key, fallback string) string
	// Language is the window's language (punctuation: Chinese takes the
	// full-width colon and brackets).
	Language() string
	// Messages is the language catalogue texts are rendered in
	// (workrun.Text.In).
	Messages() string
}

// Wording is what the app layer words for the panel, in the window's
// language: the forms the rest of the window uses too (a saved reason, a
// status, a kind's name, a node message, a duration, a short id…), so the
// panel shows a run as the canvas, the run records and the status bar name
// it, and keeps no copy of their rules. Every field must be set.
type Wording struct {
	// Reason is a saved reason or error as a sentence.
	Reason func(saved string) string
	// Status names a run's or a node's status (StatusWaiting included).
	Status func(status string) string
	// Waiting is a run's status while it waits on a question: "waiting
	// for you".
	Waiting func() string
	// Remote names the asker of a question that says no name: "The remote".
	Remote func() string
	// Kind names a node kind.
	Kind func(kind string) string
	// Message renders a node message (a catalogue key with its arguments,
	// or a line stored before keys existed), its JSON arguments in words.
	Message func(m workrun.Message) string
	// Duration is a duration as a person reads it: 120ms, 3.4s, 2m05s.
	Duration func(d time.Duration) string
	// Count is a count with its noun: key's one or other form.
	Count func(n int, key, one, other string) string
	// ShortID is a run id's first characters; ShortIDs shortens every
	// long id (a UUID, a session) in a line.
	ShortID, ShortIDs func(s string) string
	// Clip cuts s to n characters, marking the cut.
	Clip func(s string, n int) string
	// JSON is a value as one line of JSON.
	JSON func(v any) string
	// Wrap breaks s into lines no wider than width at text size, where
	// the window breaks lines (between words, CJK characters).
	Wrap func(s string, width, size float32) []string
	// CopyButton puts what full returns (a text with its ids whole) on
	// the clipboard.
	CopyButton func(label string, full func() string) *widget.Button
	// RunFrom is the label of "Run from here" (only false) and "Test this
	// node" (only true), as the canvas node menu says them.
	RunFrom func(only bool) string
}

// msgID is an entry of the panel's own catalogue.
type msgID string

// The wording of failure handling and run durations in the panel
// (docs/engine.md "Failure handling"); a remote's question has its own
// catalogue (question.go).
const (
	msgAttemptOf     msgID = "ui.attempt_of"
	msgAttemptFailed msgID = "ui.attempt_failed"
	msgTookAtWork    msgID = "ui.took_at_work"
	msgAtWork        msgID = "ui.at_work"
	msgPinnedFromRun msgID = "ui.pinned_from_run"
	msgPinnedTyped   msgID = "ui.pinned_typed"
)

var texts = workrun.NewCatalog(map[msgID][2]string{
	msgAttemptOf:     {"attempt %s of %s", "第 %s 次尝试，共 %s 次"},
	msgAttemptFailed: {"attempt %s failed: %s", "第 %s 次尝试失败：%s"},
	msgTookAtWork:    {"%s, %s of it at work", "%s，其中运行 %s"},
	msgAtWork:        {"%s at work", "运行 %s"},
	msgPinnedFromRun: {"pinned from run %s", "固定自运行 %s"},
	msgPinnedTyped:   {"pinned: typed by hand", "已固定：手动填写"},
})

// panelText renders one entry of the panel's catalogue in the window's language.
func panelText(loc Localizer, id msgID, args ...any) string {
	return texts.Msg(id, args...).In(loc.Messages())
}

// panelWords are the panel's own labels, keyed "section.word", in English
// [0] and Simplified Chinese [1], read through the Localizer (X); the
// labels the window says elsewhere too (Stop, Run again, inputs…) are in
// the window's catalogue.
var panelWords = workrun.NewCatalog(map[string][2]string{
	"run.answer":             {"Answer", "回答"},
	"run.answer_hint":        {"Type your answer", "输入你的回答"},
	"run.approve":            {"Approve", "批准"},
	"run.failed_because":     {"Failed", "失败"},
	"run.int":                {"Interrupted", "已中断"},
	"run.int_exit":           {"Interrupted: the application exited while this run was going on. Resume continues it; Stop ends it and cancels its remote tasks.", "已中断：运行期间应用退出了。点击“恢复”继续；点击“停止”结束运行并取消其远程任务。"},
	"run.int_human":          {"Waiting for a person: approve, reject or answer below.", "等待人工处理：请在下方批准、拒绝或回答。"},
	"run.int_push":           {"Waiting by push: the remote agent will say when its task is done; no connection is held. Resume reads the task once now; Stop ends the run and cancels the task.", "等待推送：远程智能体会在任务完成时通知，期间不占用任何连接。“恢复”会立即读取一次任务状态；“停止”结束本次运行并取消该任务。"},
	"run.int_remote2":        {"Workrun cannot answer the agent from here. Stop ends the run and sends the agent a cancel; Run again starts a new run.", "Workrun 无法在这里答复智能体。点击“停止”结束运行并向智能体发送取消；点击“重新运行”开始一次新的运行。"},
	"run.int_sign_in":        {"Interrupted: a remote task was accepted, but its credential needs you to sign in again; nothing was cancelled. Sign in (Credentials), then Resume follows the same task.", "已中断：远程任务已被接受，但其凭据需要您重新登录；未取消任何内容。请先登录（凭据），然后点击“恢复”继续同一任务。"},
	"run.int_unreachable":    {"Interrupted: a remote server stopped answering about a task it accepted; nothing was cancelled. Resume continues the same task once it is back; Stop ends the run and cancels its remote tasks.", "已中断：远端服务器对其已接受的任务不再应答；未取消任何内容。服务器恢复后点击“恢复”继续同一任务；点击“停止”结束运行并取消其远程任务。"},
	"run.interrupted_at":     {"interrupted at %s", "于 %s 中断"},
	"run.none":               {"No run yet — Run (Ctrl+R) shows it here", "还没有运行 —— 运行（Ctrl+R）后显示在这里"},
	"run.not_reached":        {"not reached", "未运行到"},
	"run.outputs_pending":    {"not yet", "尚无"},
	"run.recent":             {"Recent runs", "最近的运行"},
	"run.reject":             {"Reject", "拒绝"},
	"run.resume":             {"Resume", "恢复"},
	"run.sign_in":            {"Sign in…", "登录…"},
	"run.stopped_by_failure": {"stopped because %s failed", "已停止，因为 %s 失败"},
	"values.copy":            {"Copy", "复制"},
	"values.more_members":    {"… %d more", "… 还有 %d 项"},
	"values.no_files":        {"no files", "没有文件"},
	"values.open":            {"Open", "打开"},
})
