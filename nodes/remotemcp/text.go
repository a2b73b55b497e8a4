package remotemcp

import "workrun/workrun"

// msgID names one node message; texts holds its English and Simplified
// Chinese wording. The cancel lines use the Remote Agent's words (docs/
// remote-agent.md R11), with "server" where that text says "agent".
type msgID string

const (
	msgCancelRequesting       msgID = "remotemcp.cancel_requesting"
	msgCanceled               msgID = "remotemcp.canceled"
	msgCancelUnconfirmed      msgID = "remotemcp.cancel_unconfirmed"
	msgCancelError            msgID = "remotemcp.cancel_error"
	msgCancelStillWorking     msgID = "remotemcp.cancel_still_working"
	msgCancelAlreadyCompleted msgID = "remotemcp.cancel_already_completed"
	msgCancelAlreadyEnded     msgID = "remotemcp.cancel_already_ended"
	msgCancelNotCancelable    msgID = "remotemcp.cancel_not_cancelable"
	msgCancelNotFound         msgID = "remotemcp.cancel_not_found"
	msgSubmissionUnknown      msgID = "remotemcp.submission_unknown"
	msgConnected              msgID = "remotemcp.connected"
	msgConnectedStateless     msgID = "remotemcp.connected_stateless"
	msgReissue                msgID = "remotemcp.reissue"
	msgCalling                msgID = "remotemcp.calling"
	msgTaskAccepted           msgID = "remotemcp.task_accepted"
	msgJobAccepted            msgID = "remotemcp.job_accepted"
	msgStatusWorking          msgID = "remotemcp.status_working"
	msgStatusInput            msgID = "remotemcp.status_input_required"
	msgStatusCompleted        msgID = "remotemcp.status_completed"
	msgStatusFailed           msgID = "remotemcp.status_failed"
	msgStatusCancelled        msgID = "remotemcp.status_cancelled"
	msgProgress               msgID = "remotemcp.progress"
	msgReadAgain              msgID = "remotemcp.read_again"
	msgResuming               msgID = "remotemcp.resuming"
	msgReused                 msgID = "remotemcp.reused"
	// The file and link lines are now written by package mcptool (same
	// English); these keys stay so that stored messages still render.
	msgFileSaved            msgID = "remotemcp.file_saved"
	msgFileNotKept          msgID = "remotemcp.file_not_kept"
	msgFileInvalid          msgID = "remotemcp.file_invalid"
	msgLinkNotDownloaded    msgID = "remotemcp.link_not_downloaded"
	msgCompleted            msgID = "remotemcp.completed"
	msgInterrupted          msgID = "remotemcp.interrupted"
	msgStatusUnknown        msgID = "remotemcp.status_unknown"
	msgSubmissionUnknownErr msgID = "remotemcp.submission_unknown_error"
	msgToolError            msgID = "remotemcp.tool_error"
	msgTooManyFiles         msgID = "remotemcp.too_many_files"
	msgFilesTooLarge        msgID = "remotemcp.files_too_large"
	msgRemoteFailed         msgID = "remotemcp.remote_failed"
	msgNoTool               msgID = "remotemcp.no_tool"
	msgSessionEndError      msgID = "remotemcp.session_end_error"
	msgAnswersSent          msgID = "remotemcp.answers_sent"
	msgWaitingForYou        msgID = "remotemcp.waiting_for_you"
	msgAnswersResent        msgID = "remotemcp.answers_resent"
	msgUnreachable          msgID = "remotemcp.unreachable"
	msgNoListen             msgID = "remotemcp.no_listen"
	msgNoWatch              msgID = "remotemcp.no_watch"
	msgNotAnswered          msgID = "remotemcp.not_answered"
	msgKeptBreaking         msgID = "remotemcp.kept_breaking"
)

// Failure reasons and their details (reasons.go).
const (
	msgConnectFailed     msgID = "remotemcp.connect_failed"
	msgCallFailed        msgID = "remotemcp.call_failed"
	msgNoResult          msgID = "remotemcp.no_result"
	msgNoAnswerWithin    msgID = "remotemcp.no_answer_within"
	msgGetNoAnswer       msgID = "remotemcp.get_no_answer"
	msgReadResultFailed  msgID = "remotemcp.read_result_failed"
	msgJobReadFailed     msgID = "remotemcp.job_read_failed"
	msgModeNoExtension   msgID = "remotemcp.mode_no_extension"
	msgModeTaskRequired  msgID = "remotemcp.mode_task_required"
	msgModeTaskForbidden msgID = "remotemcp.mode_task_forbidden"
	msgModeNoTasks       msgID = "remotemcp.mode_no_tasks"
	msgCredentialFailed  msgID = "remotemcp.credential_failed"
	msgInitFailed        msgID = "remotemcp.init_failed"
	msgListToolsFailed   msgID = "remotemcp.list_tools_failed"
	msgCredRefused       msgID = "remotemcp.credential_refused"
	msgCredRequired      msgID = "remotemcp.credential_required"
	msgUnknownExited     msgID = "remotemcp.unknown_exited"
	msgUnknownRoundSent  msgID = "remotemcp.unknown_round_sent"
	msgUnknownAnswerSent msgID = "remotemcp.unknown_answer_sent"
	msgUnknownReplyLost  msgID = "remotemcp.unknown_reply_lost"
	msgAskedUnsupported  msgID = "remotemcp.asked_unsupported"
	msgBadInputRequest   msgID = "remotemcp.bad_input_request"
	msgTooManyRounds     msgID = "remotemcp.too_many_rounds"
	msgAnswerFailed      msgID = "remotemcp.answer_failed"
	msgModePlain         msgID = "remotemcp.mode_plain"
	msgModeTask          msgID = "remotemcp.mode_task"
	msgWhyStreamBroken   msgID = "remotemcp.why_stream_broken"
	msgWhyNoAnswer       msgID = "remotemcp.why_no_answer"
	msgWhyHTTP           msgID = "remotemcp.why_http"
	msgWhyHTTPRPC        msgID = "remotemcp.why_http_rpc"
	msgWhyRPC            msgID = "remotemcp.why_rpc"
	msgWhySession        msgID = "remotemcp.why_session"
	msgWhyTooLarge       msgID = "remotemcp.why_too_large"
	msgWhyProtocol       msgID = "remotemcp.why_protocol"
)

// Configuration errors Compile returns: the window shows them in the
// reader's language (workrun.Problem.In); the English is what the CLI prints.
const (
	msgCfgURLRequired msgID = "remotemcp.cfg_url_required"
	msgCfgDecode      msgID = "remotemcp.cfg_decode"
	msgCfgTool        msgID = "remotemcp.cfg_tool"
	msgCfgTask        msgID = "remotemcp.cfg_task"
	msgCfgNoField     msgID = "remotemcp.cfg_no_field"
	msgCfgFileAlone   msgID = "remotemcp.cfg_file_alone"
	msgCfgFieldType   msgID = "remotemcp.cfg_field_type"
	msgCfgFieldUsed   msgID = "remotemcp.cfg_field_used"
	msgCfgCleanupArgs msgID = "remotemcp.cfg_cleanup_args"
	msgCfgAnswers     msgID = "remotemcp.cfg_answers"
)

var texts = workrun.NewCatalog(map[msgID][2]string{
	msgCancelRequesting:       {"Remote task: requesting cancellation…", "远程任务：正在请求取消…"},
	msgCanceled:               {"Remote task: canceled", "远程任务：已取消"},
	msgCancelUnconfirmed:      {"Cancel result unconfirmed: the request failed or timed out; it will not be retried automatically.", "取消结果未确认：请求失败或超时，不会自动重试"},
	msgCancelError:            {"Cancel request error: %s", "取消请求错误：%s"},
	msgCancelStillWorking:     {"Remote task: cancel requested; the server reports it is still working (%s)", "远程任务：已请求取消，远端仍在执行（%s）"},
	msgCancelAlreadyCompleted: {"Remote task: already completed before the cancel arrived", "远程任务：取消到达前已完成"},
	msgCancelAlreadyEnded:     {"Remote task: already ended (%s)", "远程任务：已结束（%s）"},
	msgCancelNotCancelable:    {"Remote task: not cancelable (%s)", "远程任务：不可取消（%s）"},
	msgCancelNotFound:         {"Remote task: not found by the server", "远程任务：远端未找到该任务"},
	msgSubmissionUnknown:      {"Remote task: submission result unknown (no task or job id was received); no cancel sent, nothing resubmitted", "远程任务：提交结果未知（未收到任务或作业 ID），不取消、不重新提交"},
	msgConnected:              {"Connected to %s (MCP %s, session %s)", "已连接 %s（MCP %s，会话 %s）"},
	msgConnectedStateless:     {"Connected to %s (MCP %s, stateless)", "已连接 %s（MCP %s，无会话）"},
	msgReissue:                {"The reply stream broke before the answer (%s); on MCP 2026-07-28 the server treats that as a cancelled request, so the call is sent once more with the same idempotency key %s", "应答流在答复前中断（%s）；在 MCP 2026-07-28 中远端视其为已取消的请求，因此以相同的幂等键 %s 再发送一次调用"},
	msgCalling:                {"Calling tool %s (%s): %s", "正在调用工具 %s（%s）：%s"},
	msgTaskAccepted:           {"Remote task %s accepted (session %s)", "远程任务 %s 已接收（会话 %s）"},
	msgJobAccepted:            {"Remote job %s accepted; following it with get_job_result", "远程作业 %s 已接收，通过 get_job_result 跟踪"},
	msgStatusWorking:          {"Remote task: working%s", "远程任务：执行中%s"},
	msgStatusInput:            {"Remote task: input required%s", "远程任务：等待输入%s"},
	msgStatusCompleted:        {"Remote task: completed%s", "远程任务：已完成%s"},
	msgStatusFailed:           {"Remote task: failed%s", "远程任务：已失败%s"},
	msgStatusCancelled:        {"Remote task: cancelled%s", "远程任务：已取消%s"},
	msgProgress:               {"Progress: %s", "进度：%s"},
	msgReadAgain:              {"Remote task %s: %s; reading the task again instead of calling the tool again", "远程任务 %s：%s，改为再次读取任务，不重新调用工具"},
	msgResuming:               {"Resuming remote task %s (session %s)", "恢复远程任务 %s（会话 %s）"},
	msgReused:                 {"Remote task %s: reusing the saved result", "远程任务 %s：复用已保存的结果"},
	msgFileSaved:              {"Saved file %s (%s, %d bytes)", "已保存文件 %s（%s，%d 字节）"},
	msgFileNotKept:            {"File %s not kept: no field is chosen in “Result files into field”", "文件 %s 未保存：“结果文件写入字段”未选择字段"},
	msgFileInvalid:            {"File %s not kept: %s", "文件 %s 未保存：%s"},
	msgLinkNotDownloaded:      {"Resource link not downloaded: %s", "资源链接未下载：%s"},
	msgCompleted:              {"Remote tool %s: completed", "远程工具 %s：已完成"},
	msgInterrupted:            {"Remote task needs input: %s", "远程任务需要输入：%s"},
	msgAnswersSent:            {"Sending the answers of server round %d (%d answer(s))", "正在发送服务器第 %d 轮的答案（%d 个）"},
	msgWaitingForYou:          {"The MCP server asks: %s", "MCP 服务器提问：%s"},
	msgNoWatch:                {"The task's status notifications stopped (%s); the task is followed by polling", "任务状态通知已停止（%s）；改为轮询跟踪任务"},
	msgNoListen:               {"The server's stream for its own requests could not be opened (%s); only requests on the call's reply are answered", "无法打开服务器用于其自身请求的流（%s）；只回答调用应答中的请求"},
	msgUnreachable:            {"Server unreachable since %s (%s); retrying", "MCP 服务器自 %s 起无法连接（%s）；正在重试"},
	msgNotAnswered:            {"the MCP server has not answered since %s (last: %s); resume when it is back, or stop", "MCP 服务器自 %s 起没有应答（最后一次：%s）；待其恢复后请继续运行，或停止"},
	msgKeptBreaking:           {"the MCP server kept breaking off task %s without the task changing (%d times in a row; each ended with: %s); resume when it is fixed, or stop", "MCP 服务器反复中断任务 %s 而任务没有任何变化（连续 %d 次；每次都以此结束：%s）；待其修复后请继续运行，或停止"},
	msgAnswersResent:          {"Sending again the answers of server round %d: the task still waits for them", "再次发送服务器第 %d 轮的答案：任务仍在等待这些答案"},
	msgStatusUnknown:          {"remote task status unknown: the server no longer has session %s; nothing was resubmitted", "远程任务状态未知：服务器已不再保留会话 %s；未重新提交"},
	msgSubmissionUnknownErr:   {"submission result unknown: %s; the call is not sent again", "提交结果未知：%s；不会再次调用"},
	msgToolError:              {"tool %s reported an error: %s", "工具 %s 报告错误：%s"},
	msgTooManyFiles:           {"files over the limit: %d files; at most %d files may be sent per call. Nothing was sent", "文件超出限制：%d 个文件；每次调用最多发送 %d 个文件。未发送任何内容"},
	msgFilesTooLarge:          {"files over the limit: %d bytes of files; at most %d bytes (20 MiB) may be sent per call. Nothing was sent", "文件超出限制：文件共 %d 字节；每次调用最多发送 %d 字节（20 MiB）。未发送任何内容"},
	msgRemoteFailed:           {"remote task %s %s: %s", "远程任务 %s %s：%s"},
	msgNoTool:                 {"the server has no tool %q (it offers: %s); nothing was called", "服务器没有工具 %q（可用：%s）；未调用任何工具"},
	msgSessionEndError:        {"Ending the MCP session failed: %s", "结束 MCP 会话失败：%s"},

	// Failure reasons (reasons.go): the English is what fmt.Errorf wrote.
	msgConnectFailed:     {"connect to MCP server %s: %s", "连接 MCP 服务器 %s 失败：%s"},
	msgCallFailed:        {"call tool %s: %s", "调用工具 %s 失败：%s"},
	msgNoResult:          {"call tool %s: mcp: protocol error: no result", "调用工具 %s 失败：服务器的答复不是有效的 MCP 应答：没有结果"},
	msgNoAnswerWithin:    {"no answer within %v", "%v 内没有答复"},
	msgGetNoAnswer:       {"tasks/get got no answer within %v (timeout_seconds): %s", "读取任务状态在 %v 内没有答复（超时设置）：%s"},
	msgReadResultFailed:  {"read result of remote task %s: %s", "读取远程任务 %s 的结果失败：%s"},
	msgJobReadFailed:     {"follow remote job %s: reading it failed %d times in a row (%s); giving up, the job may still be running", "跟踪远程作业 %s：连续 %d 次读取失败（%s）；放弃跟踪，该作业可能仍在运行"},
	msgModeNoExtension:   {"task mode not possible: the server does not offer the %s extension; set task to auto or never", "无法作为任务运行：服务器不提供 %s 扩展；请将“作为任务运行”设为自动或从不"},
	msgModeTaskRequired:  {"task mode not possible: tool %s runs only as a task (execution.taskSupport required); set task to auto or always", "无法按所选方式运行：工具 %s 只能作为任务运行；请将“作为任务运行”设为自动或总是"},
	msgModeTaskForbidden: {"task mode not possible: tool %s does not run as a task (execution.taskSupport %s); set task to auto or never", "无法作为任务运行：工具 %s 不支持任务方式（%s）；请将“作为任务运行”设为自动或从不"},
	msgModeNoTasks:       {"task mode not possible: the server offers no tasks; set task to auto or never", "无法作为任务运行：服务器不支持任务；请将“作为任务运行”设为自动或从不"},
	msgCredentialFailed:  {"credential %q: %s", "凭据 %q：%s"},
	msgInitFailed:        {"initialize %s: %s", "初始化 %s 失败：%s"},
	msgListToolsFailed:   {"list tools of %s: %s", "列出 %s 的工具失败：%s"},
	msgCredRefused:       {"the server refused the credential: %s", "服务器拒绝了凭据：%s"},
	msgCredRequired:      {"the server requires a credential: %s", "服务器要求提供凭据：%s"},
	msgUnknownExited:     {"the call with idempotency key %s may have reached the server before the application exited, but no task or job id was saved", "幂等键为 %s 的调用可能已在程序退出前到达服务器，但没有保存任务或作业 ID"},
	msgUnknownRoundSent:  {"the answers of server round %d were committed as sent before the application exited, so the retry may have reached the server; it is not sent again", "服务器第 %d 轮的答案已在程序退出前记为已发送，重试可能已到达服务器；不会再次发送"},
	msgUnknownAnswerSent: {"the answer to the server's request %s was committed as sent before the application exited; it is not sent again", "对服务器请求 %s 的答复已在程序退出前记为已发送；不会再次发送"},
	msgUnknownReplyLost:  {"the answer was sent, but the tool's reply was due on the stream that closed while the node waited for you (MCP 2025-11-25 without a task); the tool may have finished", "答复已发送，但工具的结果本应在节点等待你时关闭的流上返回（MCP 2025-11-25，未作为任务运行）；工具可能已经完成"},
	msgAskedUnsupported:  {"the server asked for %s (%s), which Workrun does not do: it has no model and shares no files", "服务器请求 %s（%s），Workrun 不提供此功能：它没有模型，也不共享文件"},
	msgBadInputRequest:   {"the server's input request %s: %s", "服务器的输入请求 %s 有误：%s"},
	msgTooManyRounds:     {"the server asked again %d times; Workrun stops answering", "服务器已再次提问 %d 次；Workrun 停止回答"},
	msgAnswerFailed:      {"answer the server's request: %s", "回答服务器的请求失败：%s"},
	msgModePlain:         {"plain call", "普通调用"},
	msgModeTask:          {"task", "任务"},
	// Details (why): Chinese words for the wire and network errors; the
	// English is never used (why keeps the error's own text in English).
	msgWhyStreamBroken: {"the reply stream ended before the answer", "应答流在答复前中断"},
	msgWhyNoAnswer:     {"no answer within the timeout", "在超时时间内没有答复"},
	msgWhyHTTP:         {"HTTP %d", "HTTP 状态码 %d"},
	msgWhyHTTPRPC:      {"HTTP %d: error %d: %s", "HTTP %d：错误 %d：%s"},
	msgWhyRPC:          {"JSON-RPC error %d: %s", "服务器返回错误 %d：%s"},
	msgWhySession:      {"the server no longer has this session", "服务器已不再保留此会话"},
	msgWhyTooLarge:     {"the reply is too large", "应答过大"},
	msgWhyProtocol:     {"the server's answer is not a valid MCP answer", "服务器的答复不是有效的 MCP 应答"},

	// Editor labels (describe.go).
	msgKindLabel:        {"Remote MCP Tool", "远程 MCP 工具"},
	msgLabelURL:         {"MCP server URL", "MCP 服务器 URL"},
	msgLabelTool:        {"Tool", "工具"},
	msgHintTool:         {"test the connection, then choose", "先测试连接，再选择"},
	msgLabelArguments:   {"Arguments", "参数"},
	msgLabelOutput:      {"Text result into field", "文本结果写入字段"},
	msgLabelOutputJSON:  {"Structured result into field", "结构化结果写入字段"},
	msgLabelOutputFiles: {"Result files into field", "结果文件写入字段"},
	msgLabelCredential:  {"Credential", "凭据"},
	msgLabelTimeout:     {"Request timeout (%d–%d s)", "请求超时（%d–%d 秒）"},
	msgLabelTask:        {"Run as a task", "作为任务运行"},
	msgTaskAuto:         {"auto (a task where supported)", "自动（支持时作为任务）"},
	msgTaskAlways:       {"always", "总是"},
	msgTaskNever:        {"never (a plain call)", "从不（普通调用）"},
	msgLabelCleanupTool: {"Cleanup tool on failure (same server)", "失败时的清理工具（同一服务器）"},
	msgLabelCleanupArgs: {"Cleanup tool's arguments (a JSON object; templates may name this node's outputs)", "清理工具的参数（JSON 对象；模板可引用本节点的输出）"},
	msgLabelAnswers:     {"Answers to the server's first form (a JSON object: field → template; empty: a person answers)", "对服务器第一个表单的回答（JSON 对象：字段 → 模板；留空则由人回答）"},
	// Configuration errors Compile returns (workrun.Problem renders them).
	msgCfgURLRequired: {"remote MCP config: url is required", "远程 MCP 配置：必须填写 url"},
	msgCfgDecode:      {"remote MCP config: %v", "远程 MCP 配置有误：%v"},
	msgCfgTool:        {"remote MCP config: tool: name the tool to call", "远程 MCP 配置：tool：请指明要调用的工具"},
	msgCfgTask:        {"remote MCP config: task: %q is not auto, always or never", "远程 MCP 配置：task：%q 不是 auto、always 或 never"},
	msgCfgNoField:     {"remote MCP config: %s: State has no field %q", "远程 MCP 配置：%s：状态中没有字段 %q"},
	msgCfgFileAlone:   {"remote MCP config: %s: file field %q can only be sent alone, as \"{{%s}}\"", "远程 MCP 配置：%s：文件字段 %q 只能单独发送，写作 \"{{%s}}\""},
	msgCfgFieldType:   {"remote MCP config: %s: field %q is %s; expected %s", "远程 MCP 配置：%s：字段 %q 是 %s；应为 %s"},
	msgCfgCleanupArgs: {"remote MCP config: cleanup_arguments without cleanup_tool", "远程 MCP 配置：有 cleanup_arguments 但没有 cleanup_tool"},
	msgCfgAnswers:     {"remote MCP config: answers must be an object of form field → template (an MCP server asks with forms)", "远程 MCP 配置：answers 必须是由表单字段 → 模板组成的对象（MCP 服务器以表单提问）"},
	msgCfgFieldUsed:   {"remote MCP config: %s: field %q is already used in %s", "远程 MCP 配置：%s：字段 %q 已在 %s 中使用"},
})

// statusMsg is the status line's message for a task status.
func statusMsg(status string) (msgID, bool) {
	switch status {
	case "working":
		return msgStatusWorking, true
	case "input_required":
		return msgStatusInput, true
	case "completed":
		return msgStatusCompleted, true
	case "failed":
		return msgStatusFailed, true
	case "cancelled":
		return msgStatusCancelled, true
	}
	return "", false
}
