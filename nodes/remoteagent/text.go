package remoteagent

import (
	"strings"

	"workrun/a2a"
	"workrun/workrun"
)

// msgID names one node message of this kind; texts holds its English and
// Simplified Chinese wording. Messages are stored as key and arguments and
// rendered in the reader's language; the agent's own words (status texts,
// names) are arguments, kept verbatim. The R11 lines are the Remote Agent
// document's exact words (docs/remote-agent.md).
type msgID string

const (
	msgCancelRequesting       msgID = "remoteagent.cancel_requesting"
	msgCanceled               msgID = "remoteagent.canceled"
	msgCancelUnconfirmed      msgID = "remoteagent.cancel_unconfirmed"
	msgCancelError            msgID = "remoteagent.cancel_error"
	msgCancelAlreadyCompleted msgID = "remoteagent.cancel_already_completed"
	msgCancelNotCancelable    msgID = "remoteagent.cancel_not_cancelable"
	msgCancelNotFound         msgID = "remoteagent.cancel_not_found"
	msgSubmissionUnknown      msgID = "remoteagent.submission_unknown"
	msgSending                msgID = "remoteagent.sending" // rows of earlier versions: the summary is one English argument
	msgSendingParts           msgID = "remoteagent.sending_parts"
	msgTaskAccepted           msgID = "remoteagent.task_accepted"
	msgStatusLine             msgID = "remoteagent.status_line" // the agent's words with no state
	msgArtifact               msgID = "remoteagent.artifact"
	msgArtifactPlain          msgID = "remoteagent.artifact_plain"
	msgStreamLost             msgID = "remoteagent.stream_lost"
	msgReadingTask            msgID = "remoteagent.reading_task"
	msgSubscribing            msgID = "remoteagent.subscribing"
	msgCompleted              msgID = "remoteagent.completed"
	msgReused                 msgID = "remoteagent.reused"
	msgFileSaved              msgID = "remoteagent.file_saved"
	msgFileNotKept            msgID = "remoteagent.file_not_kept"
	msgURLNotDownloaded       msgID = "remoteagent.url_not_downloaded"
	msgResuming               msgID = "remoteagent.resuming"
	msgPushAsked              msgID = "remoteagent.push_asked"
	msgPushWaiting            msgID = "remoteagent.push_waiting"
	msgPushChecking           msgID = "remoteagent.push_checking"
	msgNeedsInput             msgID = "remoteagent.needs_input"
	msgNeedsAuth              msgID = "remoteagent.needs_auth"
	msgUnreachable            msgID = "remoteagent.unreachable"
	msgNotAnswered            msgID = "remoteagent.not_answered"
	msgKeptReconnecting       msgID = "remoteagent.kept_reconnecting"
	msgTooMuch                msgID = "remoteagent.too_much"
	msgReconnectLinesCut      msgID = "remoteagent.reconnect_lines_cut"
	msgStatusLineCoalesced    msgID = "remoteagent.status_line_coalesced"
	msgArtifactCoalesced      msgID = "remoteagent.artifact_coalesced"
	msgCallRecordUnreadable   msgID = "remoteagent.call_record_unreadable"
	msgTempFileNotRemoved     msgID = "remoteagent.temp_file_not_removed"

	msgAnswerSending msgID = "remoteagent.answer_sending"
	msgAnswerResent  msgID = "remoteagent.answer_resent"

	// failure reasons (reasons.go)
	msgErrSubmissionUnknown msgID = "remoteagent.err_submission_unknown"
	msgErrSubmissionTimeout msgID = "remoteagent.err_submission_timeout"
	msgErrNoTaskSaved       msgID = "remoteagent.err_no_task_saved"
	msgErrRefusedHTTP       msgID = "remoteagent.err_refused_http"
	msgErrRefused           msgID = "remoteagent.err_refused"
	msgErrRemoteFailed      msgID = "remoteagent.err_remote_failed"
	msgErrRemoteFailedText  msgID = "remoteagent.err_remote_failed_text"
	msgErrUnfinished        msgID = "remoteagent.err_unfinished"
	msgErrUnfinishedBlock   msgID = "remoteagent.err_unfinished_blocking"
	msgErrUnfinishedNoPoll  msgID = "remoteagent.err_unfinished_no_poll"
	msgErrGetTaskTimeout    msgID = "remoteagent.err_get_task_timeout"
	msgErrAnswerRefusedHTTP msgID = "remoteagent.err_answer_refused_http"
	msgErrAnswerRefused     msgID = "remoteagent.err_answer_refused"
	msgCfgAnswersText       msgID = "remoteagent.cfg_answers_text"
	msgWhyStreamBroken      msgID = "remoteagent.why_stream_broken"
	msgWhyNoAnswer          msgID = "remoteagent.why_no_answer"
	msgWhyHTTP              msgID = "remoteagent.why_http"
	msgWhyHTTPRPC           msgID = "remoteagent.why_http_rpc"
	msgWhyRPC               msgID = "remoteagent.why_rpc"
	msgWhyProtocol          msgID = "remoteagent.why_protocol"
	msgSaveFailed           msgID = "remoteagent.save_failed"
)

// stateWords are the A2A task states by the word stateName gives them, with
// their English and Chinese names. Messages that name a state have one key
// per state ("remoteagent.status.working"), so the state too is rendered in
// the reader's language; a state this version does not know uses the
// ".other" key with its wire word as an argument.
var stateWords = map[string][2]string{
	"submitted":      {"submitted", "已提交"},
	"working":        {"working", "执行中"},
	"completed":      {"completed", "已完成"},
	"failed":         {"failed", "已失败"},
	"canceled":       {"canceled", "已取消"},
	"rejected":       {"rejected", "已拒绝"},
	"input-required": {"input-required", "等待输入"},
	"auth-required":  {"auth-required", "等待认证"},
	"unknown":        {"unknown", "未知"},
	"unspecified":    {"unspecified", "未知"},
}

// stateMessages are the messages that name a state: English and Chinese
// formats whose %[1]s is the state's name (and %[2]s, when present, the
// agent's text).
var stateMessages = map[string][2]string{
	"state":                 {"%[1]s", "%[1]s"},
	"status":                {"Remote task: %[1]s", "远程任务：%[1]s"},
	"status_text":           {"Remote task: %[1]s — %[2]s", "远程任务：%[1]s — %[2]s"},
	"cancel_still_working":  {"Remote task: cancel requested; the agent reports it is still working (%[1]s)", "远程任务：已请求取消，远端仍在执行（%[1]s）"},
	"cancel_already_ended":  {"Remote task: already ended (%[1]s)", "远程任务：已结束（%[1]s）"},
	"status_text_coalesced": {"Remote task: %[1]s — %[2]s (+%[3]s updates)", "远程任务：%[1]s — %[2]s（另有 %[3]s 条更新）"},
	"status_coalesced":      {"Remote task: %[1]s (+%[2]s updates)", "远程任务：%[1]s（另有 %[2]s 条更新）"},
}

var texts = workrun.NewCatalog(catalogue())

// Configuration errors Compile returns: the window shows them in the
// reader's language (workrun.Problem.In); the English is what the CLI prints.
const (
	msgCfgURLRequired msgID = "remoteagent.cfg_url_required"
	msgCfgDecode      msgID = "remoteagent.cfg_decode"
	msgCfgNoInputs    msgID = "remoteagent.cfg_no_inputs"
	msgCfgEmptyField  msgID = "remoteagent.cfg_empty_field"
	msgCfgNoField     msgID = "remoteagent.cfg_no_field"
	msgCfgFieldUsed   msgID = "remoteagent.cfg_field_used"
	msgCfgFieldType   msgID = "remoteagent.cfg_field_type"
)

func catalogue() map[msgID][2]string {
	m := map[msgID][2]string{
		msgCancelRequesting:       {"Remote task: requesting cancellation…", "远程任务：正在请求取消…"},
		msgCanceled:               {"Remote task: canceled", "远程任务：已取消"},
		msgCancelUnconfirmed:      {"Cancel result unconfirmed: the request failed or timed out; it will not be retried automatically.", "取消结果未确认：请求失败或超时，不会自动重试"},
		msgCancelError:            {"Cancel request error: %s", "取消请求错误：%s"},
		msgCancelAlreadyCompleted: {"Remote task: already completed before the cancel arrived", "远程任务：取消到达前已完成"},
		msgCancelNotCancelable:    {"Remote task: not cancelable (%s)", "远程任务：不可取消（%s）"},
		msgCancelNotFound:         {"Remote task: not found by the agent", "远程任务：远端未找到该任务"},
		msgSubmissionUnknown:      {"Remote task: submission result unknown (no taskId was received); no cancel sent, nothing resubmitted", "远程任务：提交结果未知（未收到任务 ID），不取消、不重新提交"},
		msgSending:                {"Sending to %s (%s): %s", "正在发送到 %s（%s）：%s"},
		msgSendingParts:           {"Sending to %s (%s): %s text, %s data, %s files (%s bytes)", "正在发送到 %s（%s）：%s 段文本、%s 段数据、%s 个文件（%s 字节）"},
		msgTaskAccepted:           {"Remote task %s accepted (context %s)", "远程任务 %s 已接收（上下文 %s）"},
		msgStatusLine:             {"Remote task: %s", "远程任务：%s"},
		msgArtifact:               {"Result %s: %s", "结果 %s：%s"},
		msgArtifactPlain:          {"Result: %s", "结果：%s"},
		msgStreamLost:             {"Remote task: update stream lost (%s); reading the task instead of resubmitting", "远程任务：更新流中断（%s），改为读取原任务，不重新提交"},
		msgReadingTask:            {"Remote task %s: reading its current state", "远程任务 %s：读取当前状态"},
		msgSubscribing:            {"Remote task %s: following its updates", "远程任务 %s：订阅更新"},
		msgCompleted:              {"Remote task: completed", "远程任务：已完成"},
		msgReused:                 {"Remote task %s: reusing the saved result", "远程任务 %s：复用已保存的结果"},
		msgFileSaved:              {"Saved file %s (%s, %d bytes)", "已保存文件 %s（%s，%d 字节）"},
		msgFileNotKept:            {"File %s not kept: no field is chosen in “Result files into field”", "文件 %s 未保存：“结果文件写入字段”未选择字段"},
		msgURLNotDownloaded:       {"File link not downloaded: %s", "文件链接未下载：%s"},
		msgResuming:               {"Resuming remote task %s", "恢复远程任务 %s"},
		msgPushAsked:              {"The agent will push the task's updates to Workrun's serve (%s); no stream is kept open", "远端智能体将把任务更新推送到 Workrun 服务（%s）；不保持流连接"},
		msgPushWaiting:            {"waiting for the agent's push about remote task %s (no connection held)", "等待远端智能体推送远程任务 %s 的结果（不占用连接）"},
		msgPushChecking:           {"Reading remote task %s once (it waits by push)", "读取一次远程任务 %s（该任务通过推送等待）"},
		msgNeedsInput:             {"Remote task needs input: %s", "远程任务需要输入：%s"},
		msgNeedsAuth:              {"Remote task needs authentication: %s", "远程任务需要认证：%s"},
		msgUnreachable:            {"Agent unreachable since %s (%s); retrying", "远端智能体自 %s 起无法连接（%s）；正在重试"},
		msgNotAnswered:            {"the agent has not answered since %s (last: %s); resume when it is back, or stop", "远端智能体自 %s 起没有应答（最后一次：%s）；待其恢复后请继续运行，或停止"},
		msgKeptReconnecting:       {"the agent kept ending the update stream of task %s without the task changing (%d reconnects in a row; each ended with: %s); resume when it is fixed, or stop", "远端智能体反复结束任务 %s 的更新流而任务没有任何变化（连续 %d 次重连；每次都以此结束：%s）；待其修复后请继续运行，或停止"},
		msgTooMuch:                {"the agent sent too much for task %s (%s); resume when it is fixed, or stop", "远端智能体为任务 %s 发送的数据过多（%s）；待其修复后请继续运行，或停止"},
		msgReconnectLinesCut:      {"Remote task: %d reconnect lines shown; further ones are not saved", "远程任务：已显示 %d 条重连记录；之后的不再保存"},
		msgStatusLineCoalesced:    {"Remote task: %s (+%s updates)", "远程任务：%s（另有 %s 条更新）"},
		msgArtifactCoalesced:      {"Result %s: %s (+%s updates)", "结果 %s：%s（另有 %s 条更新）"},
		msgCallRecordUnreadable:   {"read remote call record: %s; no cancel sent", "读取远程调用记录失败：%s；未发送取消"},
		msgTempFileNotRemoved:     {"temporary result file not removed: %s", "临时结果文件未删除：%s"},

		msgErrSubmissionUnknown: {"submission result unknown: %s; the request is not sent again", "提交结果未知：%s；请求不会再次发送"},
		msgErrSubmissionTimeout: {"submission result unknown: no answer within %s; the request is not sent again", "提交结果未知：%s 内没有答复；请求不会再次发送"},
		msgErrNoTaskSaved: {"submission result unknown: message %s may have reached the agent before the application exited, but no taskId was saved; it is not sent again",
			"提交结果未知：消息 %s 可能在应用程序退出前已到达智能体，但没有保存任务 ID；不会再次发送"},
		msgErrRefusedHTTP:      {"not submitted: the agent refused it (HTTP %d): %s", "未提交：智能体拒绝了它（HTTP %d）：%s"},
		msgErrRefused:          {"not submitted: %s", "未提交：%s"},
		msgErrRemoteFailed:     {"remote task did not complete: task %s %s", "远程任务未完成：任务 %s %s"},
		msgErrRemoteFailedText: {"remote task did not complete: task %s %s: %s", "远程任务未完成：任务 %s %s：%s"},
		msgErrUnfinished:       {"agent returned an unfinished task: task %s is %s", "智能体返回了未完成的任务：任务 %s 的状态为%s"},
		msgErrUnfinishedBlock: {"agent returned an unfinished task: task %s is %s although SendMessage should wait for the final result; the agent may still be running it",
			"智能体返回了未完成的任务：任务 %s 的状态为%s，而 SendMessage 本应等到最终结果；智能体可能仍在执行它"},
		msgErrUnfinishedNoPoll: {"agent returned an unfinished task: task %s is %s and the agent does not stream; Workrun does not poll it",
			"智能体返回了未完成的任务：任务 %s 的状态为%s，且该智能体不支持流式传输；Workrun 不会轮询它"},
		msgErrGetTaskTimeout:    {"GetTask got no answer within %s (timeout_seconds): %s", "GetTask 在 %s（timeout_seconds）内没有答复：%s"},
		msgAnswerSending:        {"Remote task %s: sending the answer to round %s", "远程任务 %s：正在发送第 %s 轮的答复"},
		msgAnswerResent:         {"Remote task %s: the answer to round %s had not reached the agent; sending it again with the same messageId", "远程任务 %s：第 %s 轮的答复尚未到达智能体，以同一消息 ID 再次发送"},
		msgErrAnswerRefusedHTTP: {"answer not taken: the agent refused it (HTTP %d): %s", "答复未被接受：智能体拒绝了它（HTTP %d）：%s"},
		msgErrAnswerRefused:     {"answer not taken: %s", "答复未被接受：%s"},
		msgCfgAnswersText:       {"remote agent config: answers: an agent's question is answered with text: give a text template, not an object of fields", "远程智能体配置：answers：智能体的问题以文本回答：请填写文本模板，而不是字段对象"},
		msgWhyStreamBroken:      {"the stream ended before the task finished", "数据流在任务结束前中断"},
		msgWhyNoAnswer:          {"no answer within the timeout", "在超时时间内没有答复"},
		msgWhyHTTP:              {"HTTP %d", "HTTP 状态码 %d"},
		msgWhyHTTPRPC:           {"HTTP %d: error %d: %s", "HTTP %d：错误 %d：%s"},
		msgWhyRPC:               {"JSON-RPC error %d: %s", "智能体返回错误 %d：%s"},
		msgWhyProtocol:          {"the agent's answer is not valid A2A JSON-RPC", "智能体的答复不是有效的 A2A JSON-RPC"},
		msgSaveFailed:           {"saving the remote call record failed: %s", "保存远程调用记录失败：%s"},

		// Editor labels (describe.go).
		msgKindLabel:        {"Remote Agent", "远程智能体"},
		msgLabelURL:         {"A2A service URL", "A2A 服务地址"},
		msgLabelMessage:     {"Message to the agent (type {{ to insert a State field)", "发给智能体的消息（输入 {{ 插入状态字段）"},
		msgHintMessage:      {"Summarise {{question}} in three sentences.", "用三句话概括 {{question}}。"},
		msgLabelInputs:      {"Fields sent as they are, after the message", "原样发送的字段（在消息之后）"},
		msgLabelAttachments: {"Attachments (file fields)", "附件（文件字段）"},
		msgLabelOutput:      {"Answer into field", "答案写入字段"},
		msgLabelOutputFiles: {"Result files into field", "结果文件写入字段"},
		msgLabelCredential:  {"Credential", "凭据"},
		msgLabelTimeout:     {"Request timeout (%d–%d s)", "请求超时（%d–%d 秒）"},
		msgLabelAnswers:     {"Answer to the agent's first question (a template; empty: a person answers)", "对智能体第一个问题的回答（模板；留空则由人回答）"},
		msgHintAnswers:      {"To {{city}}, on {{date}}", "去 {{city}}，{{date}} 出发"},
		// Configuration errors Compile returns (workrun.Problem renders them).
		msgCfgURLRequired: {"remote agent config: url is required", "远程智能体配置：必须填写 url"},
		msgCfgDecode:      {"remote agent config: %v", "远程智能体配置有误：%v"},
		msgCfgNoInputs:    {"remote agent config: message, inputs: write a message or list at least one State field to send", "远程智能体配置：message、inputs：请写一条消息，或至少列出一个要发送的状态字段"},
		msgCfgEmptyField:  {"remote agent config: %s: empty field name", "远程智能体配置：%s：字段名为空"},
		msgCfgNoField:     {"remote agent config: %s: State has no field %q", "远程智能体配置：%s：状态中没有字段 %q"},
		msgCfgFieldUsed:   {"remote agent config: %s: field %q is already used in %s", "远程智能体配置：%s：字段 %q 已在 %s 中使用"},
		msgCfgFieldType:   {"remote agent config: %[1]s: field %[2]q is %[3]s; expected %[4]s", "远程智能体配置：%[1]s：字段 %[2]q 是 %[3]s；应为 %[5]s"},
	}
	for word, names := range stateWords {
		for kind, f := range stateMessages {
			m[stateKey(kind, word)] = [2]string{sprintfPositional(f[0], names[0]), sprintfPositional(f[1], names[1])}
		}
	}
	for kind, f := range stateMessages {
		// An unknown state: its wire word is the first argument.
		m[stateKey(kind, "other")] = f
	}
	return m
}

// sprintfPositional puts a state's name into a format's %[1]s and turns the
// later positional verbs into plain ones (%[2]s → %s, %[3]s → %s), so the
// entry takes the remaining arguments in order.
func sprintfPositional(f, name string) string {
	f = strings.ReplaceAll(f, "%[1]s", name)
	f = strings.ReplaceAll(f, "%[2]s", "%s")
	return strings.ReplaceAll(f, "%[3]s", "%s")
}

func stateKey(kind, word string) msgID {
	return msgID("remoteagent." + kind + "." + strings.ReplaceAll(word, "-", "_"))
}

// stateMsg is the message kind ("status", "cancel_already_ended", …) for
// state s, with args after the state.
func stateMsg(kind string, s a2a.TaskState, args ...any) workrun.Text {
	word := stateName(s)
	if _, ok := stateWords[word]; ok {
		return texts.Msg(stateKey(kind, word), args...)
	}
	return texts.Msg(stateKey(kind, "other"), append([]any{word}, args...)...)
}
