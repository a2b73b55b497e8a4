package ui

import "workrun/workrun"

// The wording of failure handling in the window (docs/engine.md "Failure
// handling"): a catalogue like the kinds', rendered in the window's
// language with uiText.
type uiMsgID string

const (
	msgPolicyHeading   uiMsgID = "ui.policy_heading"
	msgPolicyAttempts  uiMsgID = "ui.policy_attempts"
	msgPolicyWait      uiMsgID = "ui.policy_wait"
	msgPolicyBackoff   uiMsgID = "ui.policy_backoff"
	msgBackoffFixed    uiMsgID = "ui.backoff_fixed"
	msgBackoffExp      uiMsgID = "ui.backoff_exponential"
	msgPolicyOnError   uiMsgID = "ui.policy_on_error"
	msgOnErrorFail     uiMsgID = "ui.on_error_fail"
	msgOnErrorContinue uiMsgID = "ui.on_error_continue"
	msgOnErrorBranch   uiMsgID = "ui.on_error_branch"
	msgPolicyErrField  uiMsgID = "ui.policy_error_field"
	msgPolicyNoField   uiMsgID = "ui.policy_no_field"
	msgPolicyDeadline  uiMsgID = "ui.policy_deadline"
	msgPolicyRemote    uiMsgID = "ui.policy_remote_note"
	msgEdgeLeaves      uiMsgID = "ui.edge_leaves"
	msgEdgeNormal      uiMsgID = "ui.edge_normal"
	msgEdgeError       uiMsgID = "ui.edge_error"
	msgStatusHandled   uiMsgID = "ui.status_handled"
	msgRunFromHere     uiMsgID = "ui.run_from_here"
	msgTestThisNode    uiMsgID = "ui.test_this_node"
	msgNoEarlierRun    uiMsgID = "ui.no_earlier_run"
	msgRunPinnedFrom   uiMsgID = "ui.run_pinned_from"
	msgPinsTitle       uiMsgID = "ui.pins_title"
	msgPinsRun         uiMsgID = "ui.pins_run"
	msgNotObject       uiMsgID = "ui.not_object"
)

var uiTexts = workrun.NewCatalog(map[uiMsgID][2]string{
	msgPolicyHeading:   {"On failure", "失败时"},
	msgPolicyAttempts:  {"Attempts in all (1 = no retry)", "总尝试次数（1 = 不重试）"},
	msgPolicyWait:      {"Wait between attempts (seconds)", "两次尝试之间等待（秒）"},
	msgPolicyBackoff:   {"Wait grows", "等待时间增长"},
	msgBackoffFixed:    {"fixed", "固定"},
	msgBackoffExp:      {"doubles each time", "每次加倍"},
	msgPolicyOnError:   {"When it still fails", "仍然失败时"},
	msgOnErrorFail:     {"fail the run", "运行失败"},
	msgOnErrorContinue: {"continue the run", "继续运行"},
	msgOnErrorBranch:   {"take the error edges", "走错误连线"},
	msgPolicyErrField:  {"Write the error to", "把错误写入"},
	msgPolicyNoField:   {"(none)", "（不写入）"},
	msgPolicyDeadline:  {"Deadline for the remote task (seconds, empty = none)", "远程任务的截止时间（秒，留空 = 无）"},
	msgPolicyRemote:    {"A remote node is retried only after a known failure (task failed or rejected, tool error); a timeout or an unknown outcome is never retried.", "远程节点只在已知失败（任务失败或被拒绝、工具报错）后重试；超时或结果未知时从不重试。"},
	msgEdgeLeaves:      {"Leaves from", "出发端口"},
	msgEdgeNormal:      {"the normal output", "正常输出"},
	msgEdgeError:       {"the error port (taken when the node fails)", "错误端口（节点失败时走）"},
	msgStatusHandled:   {"failed (handled)", "失败（已处理）"},
	msgRunFromHere:     {"Run from here", "从这里运行"},
	msgTestThisNode:    {"Test this node", "测试此节点"},
	msgNoEarlierRun:    {"This workflow has no earlier run to take the outputs of the nodes before %s from: type them here, or run the workflow once first.", "此工作流没有更早的运行可提供 %s 之前节点的输出：请在此填写，或先完整运行一次工作流。"},
	msgRunPinnedFrom:   {"run from a node; the nodes before it pinned from run %s", "从某节点运行；其之前的节点固定自运行 %s"},
	msgPinsTitle:       {"Outputs of the nodes before %s (JSON per field; empty: from the earlier run)", "%s 之前节点的输出（每个字段填 JSON；留空：取自更早的运行）"},
	msgPinsRun:         {"Run", "运行"},
	msgNotObject:       {"write a JSON object, e.g. {\"name\": \"{{field}}\"}; not %s", "请写一个 JSON 对象，例如 {\"name\": \"{{field}}\"}；而不是 %s"},
})

// uiText renders one entry in the window's language.
func uiText(loc workrun.Localizer, id uiMsgID, args ...any) string {
	return uiTexts.Msg(id, args...).In(loc.Messages())
}
