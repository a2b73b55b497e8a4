package cli

import (
	"strings"

	"workrun/workrun"
)

// The cli package's catalogue (docs/conventions.md §9): the words the
// commands print for a person, in English and Simplified Chinese. Words that
// are data (ids, URLs, an agent's text, a file name) are arguments. The
// English is what tests and scripts read: keep it byte-identical.
type msgID string

// `workrun show`.
const (
	msgShowRun         msgID = "cli.show_run"
	msgShowStatus      msgID = "cli.show_status"
	msgShowFailedNode  msgID = "cli.show_failed_node"
	msgShowReason      msgID = "cli.show_reason"
	msgShowStarted     msgID = "cli.show_started"
	msgShowEnded       msgID = "cli.show_ended"
	msgShowStartedBy   msgID = "cli.show_started_by"
	msgShowNodes       msgID = "cli.show_nodes"
	msgShowRemoteTasks msgID = "cli.show_remote_tasks"
	msgShowTask        msgID = "cli.show_task"
	msgShowNoTask      msgID = "cli.show_no_task"
	msgShowCallEnded   msgID = "cli.show_call_ended"
	msgShowMessageID   msgID = "cli.show_message_id"
	msgShowCancel      msgID = "cli.show_cancel"
	msgShowArtifacts   msgID = "cli.show_artifacts"
	msgShowArtifact    msgID = "cli.show_artifact"
	msgShowMissing     msgID = "cli.show_missing"
	msgShowInterrupted msgID = "cli.show_interrupted"
)

// `workrun stop`.
const msgStopAsking msgID = "cli.stop_asking"

// `workrun demo-mcp`.
const (
	msgDemoMCPBanner msgID = "cli.demo_mcp_banner"
	msgDemoMCPFailed msgID = "cli.demo_mcp_failed"
)

var texts = workrun.NewCatalog(map[msgID][2]string{
	msgShowRun:         {"Run %s — %s", "运行 %s — %s"},
	msgShowStatus:      {"Status: %s", "状态：%s"},
	msgShowFailedNode:  {"Failed node: %s", "失败的节点：%s"},
	msgShowReason:      {"Reason: %s", "原因：%s"},
	msgShowStarted:     {"Started: %s", "开始于：%s"},
	msgShowEnded:       {"Ended: %s", "结束于：%s"},
	msgShowStartedBy:   {"Started by: %s", "发起者：%s"},
	msgShowNodes:       {"Nodes:", "节点："},
	msgShowRemoteTasks: {"Remote tasks:", "远程任务："},
	msgShowTask:        {"%s → %s task %s: %s", "%s → %s 任务 %s：%s"},
	msgShowNoTask:      {"(no task id: submission result unknown)", "（没有任务 ID：提交结果未知）"},
	msgShowCallEnded:   {" (ended)", "（已结束）"},
	msgShowMessageID:   {"; message %s", "；消息 %s"},
	msgShowCancel:      {"; cancel: %s", "；取消：%s"},
	msgShowArtifacts:   {"Artifacts:", "文件："},
	msgShowArtifact:    {"%s %s (%s, %d bytes)", "%s %s（%s，%d 字节）"},
	msgShowMissing:     {"(missing: %s)", "（缺失：%s）"},
	msgShowInterrupted: {"interrupted (%s)", "已中断（%s）"},

	msgStopAsking: {"workrun: run %s is going on in process %d: asked it to stop the run; waiting for it to end",
		"workrun：运行 %s 正在进程 %d 中进行：已请求该进程停止它，正在等待运行结束"},

	msgDemoMCPBanner: {"workrun demo MCP server (Streamable HTTP: 2026-07-28 per request, 2025-11-25 after initialize; Tasks extension and core Tasks).\n" +
		"Tools: echo (sync), broken (isError), research (task, stages, progress), hang (task that never ends), ask (asks once),\n" +
		"survey (asks twice), sign_in (asks with a sign-in link), start_job / get_job_result / cancel_job (legacy job flow).\n" +
		"With --conformance-fixtures also the conformance suite's fixture tools. Rules: docs/demo-mcp.md.\n" +
		"Give the URL above to a Remote MCP Tool node. Press Ctrl+C to stop.\n",
		"workrun 演示 MCP 服务器（Streamable HTTP：2026-07-28 按请求，2025-11-25 在 initialize 之后；Tasks 扩展与核心 Tasks）。\n" +
			"工具：echo（同步）、broken（isError）、research（任务，分阶段，报告进度）、hang（永不结束的任务）、ask（提问一次）、\n" +
			"survey（提问两次）、sign_in（给出登录链接）、start_job / get_job_result / cancel_job（旧式作业流程）。\n" +
			"加 --conformance-fixtures 时还有一致性测试套件的夹具工具。规则：docs/demo-mcp.md。\n" +
			"把上面的 URL 填进“远程 MCP 工具”节点。按 Ctrl+C 停止。\n"},
	msgDemoMCPFailed: {"workrun: demo-mcp: %s", "workrun：demo-mcp：%s"},
})

// statusWords name run and node statuses, interruption causes, remote task
// states (A2A and MCP, by the word remoteStateWord gives them) and cancel
// outcomes. The English is the stored word itself, as the CLI always
// printed it; a word this version does not know is printed as stored.
var statusWords = workrun.NewCatalog(map[string][2]string{
	// run and node statuses
	"cli.status.pending":     {"pending", "等待中"},
	"cli.status.running":     {"running", "运行中"},
	"cli.status.stopping":    {"stopping", "正在停止"},
	"cli.status.succeeded":   {"succeeded", "已成功"},
	"cli.status.failed":      {"failed", "已失败"},
	"cli.status.stopped":     {"stopped", "已停止"},
	"cli.status.interrupted": {"interrupted", "已中断"},
	"cli.status.skipped":     {"skipped", "已跳过"},
	"cli.status.handled":     {"handled", "失败已处理"},
	// interruption causes
	"cli.cause.exit":        {"exit", "程序退出"},
	"cli.cause.remote":      {"remote", "远端请求"},
	"cli.cause.human":       {"human", "等待人工"},
	"cli.cause.unreachable": {"unreachable", "远端无响应"},
	// remote task states
	"cli.remote.submitted":      {"submitted", "已提交"},
	"cli.remote.working":        {"working", "执行中"},
	"cli.remote.completed":      {"completed", "已完成"},
	"cli.remote.failed":         {"failed", "已失败"},
	"cli.remote.canceled":       {"canceled", "已取消"},
	"cli.remote.rejected":       {"rejected", "已拒绝"},
	"cli.remote.input-required": {"input-required", "等待输入"},
	"cli.remote.auth-required":  {"auth-required", "等待认证"},
	"cli.remote.unspecified":    {"unspecified", "未知"},
	// cancel outcomes (remotecall.Cancel*)
	"cli.cancel.requested":          {"requested", "已请求，未收到答复"},
	"cli.cancel.canceled":           {"canceled", "已取消"},
	"cli.cancel.still_working":      {"still_working", "远端仍在执行"},
	"cli.cancel.completed":          {"completed", "取消前已完成"},
	"cli.cancel.ended":              {"ended", "取消前已结束"},
	"cli.cancel.not_cancelable":     {"not_cancelable", "不可取消"},
	"cli.cancel.not_found":          {"not_found", "远端找不到该任务"},
	"cli.cancel.unconfirmed":        {"unconfirmed", "取消结果未确认"},
	"cli.cancel.submission_unknown": {"submission_unknown", "提交结果未知，未发送取消"},
	"cli.cancel.not_needed":         {"not_needed", "无需取消"},
})

// wordIn renders a stored status word of group ("status", "cause",
// "remote", "cancel") in lang; an unknown word is shown as stored.
func wordIn(lang, group, word string) string {
	id := "cli." + group + "." + word
	if _, ok := statusWords[id]; !ok {
		return word
	}
	return statusWords.In(lang, id)
}

// remoteStateWord is the word of a saved remote task state: A2A's
// "TASK_STATE_INPUT_REQUIRED" and MCP's "input_required" are both
// "input-required"; MCP's "cancelled" is "canceled".
func remoteStateWord(s string) string {
	w := strings.ToLower(strings.ReplaceAll(strings.TrimPrefix(s, "TASK_STATE_"), "_", "-"))
	if w == "cancelled" {
		return "canceled"
	}
	return w
}
