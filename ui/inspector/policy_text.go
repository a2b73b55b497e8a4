package inspector

import "workrun/workrun"

// msgID is an entry of the inspector's own catalogue.
type msgID string

// The wording of failure handling in the form (docs/engine.md "Failure
// handling") and of an edge's port, rendered in the window's language with
// inspText.
const (
	msgPolicyHeading   msgID = "ui.policy_heading"
	msgPolicyAttempts  msgID = "ui.policy_attempts"
	msgPolicyWait      msgID = "ui.policy_wait"
	msgPolicyBackoff   msgID = "ui.policy_backoff"
	msgBackoffFixed    msgID = "ui.backoff_fixed"
	msgBackoffExp      msgID = "ui.backoff_exponential"
	msgPolicyOnError   msgID = "ui.policy_on_error"
	msgOnErrorFail     msgID = "ui.on_error_fail"
	msgOnErrorContinue msgID = "ui.on_error_continue"
	msgOnErrorBranch   msgID = "ui.on_error_branch"
	msgPolicyErrField  msgID = "ui.policy_error_field"
	msgPolicyNoField   msgID = "ui.policy_no_field"
	msgPolicyDeadline  msgID = "ui.policy_deadline"
	msgPolicyRemote    msgID = "ui.policy_remote_note"
	msgEdgeLeaves      msgID = "ui.edge_leaves"
	msgEdgeNormal      msgID = "ui.edge_normal"
	msgEdgeError       msgID = "ui.edge_error"
	msgNotObject       msgID = "ui.not_object"
)

var inspTexts = workrun.NewCatalog(map[msgID][2]string{
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
	msgNotObject:       {"write a JSON object, e.g. {\"name\": \"{{field}}\"}; not %s", "请写一个 JSON 对象，例如 {\"name\": \"{{field}}\"}；而不是 %s"},
})

// inspText renders one entry of the inspector's catalogue in the window's
// language.
func inspText(loc Localizer, id msgID, args ...any) string {
	return inspTexts.Msg(id, args...).In(loc.Messages())
}
