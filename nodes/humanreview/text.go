package humanreview

import "workrun/workrun"

// msgID names one node message or failure reason; texts holds its English
// and Simplified Chinese wording, chosen by workrun.Language when written
// (docs/conventions.md §9). Keep the English byte-identical: tests and the CLI assert it.
type msgID string

const (
	msgWaiting        msgID = "humanreview.waiting"
	msgValue          msgID = "humanreview.value"
	msgWaitingReason  msgID = "humanreview.waiting_reason"
	msgRejected       msgID = "humanreview.rejected"
	msgRejectedWhy    msgID = "humanreview.rejected_why"
	msgRejectedErr    msgID = "humanreview.rejected_err"
	msgRejectedErrWhy msgID = "humanreview.rejected_err_why"
	msgApproved       msgID = "humanreview.approved"
	msgApprovedWhy    msgID = "humanreview.approved_why"
)

// Configuration errors Compile returns: the window shows them in the
// reader's language (workrun.Problem.In); the English is what the CLI prints.
const (
	msgCfgPromptRequired  msgID = "humanreview.cfg_prompt_required"
	msgCfgFieldUndeclared msgID = "humanreview.cfg_field_undeclared"
)

var texts = workrun.NewCatalog(map[msgID][2]string{
	msgWaiting:        {"Waiting for review: %s", "等待审核：%s"},
	msgValue:          {"%s: %s", "%s：%s"},
	msgWaitingReason:  {"waiting for review: %s", "等待审核：%s"},
	msgRejected:       {"Rejected", "已驳回"},
	msgRejectedWhy:    {"Rejected: %s", "已驳回：%s"},
	msgRejectedErr:    {"rejected by the reviewer", "审核人已驳回"},
	msgRejectedErrWhy: {"rejected by the reviewer: %s", "审核人已驳回：%s"},
	msgApproved:       {"Approved", "已批准"},
	msgApprovedWhy:    {"Approved: %s", "已批准：%s"},

	// Editor labels (describe.go).
	msgKindLabel:     {"Human Review", "人工审核"},
	msgLabelPrompt:   {"Prompt", "提示语"},
	msgLabelFields:   {"Fields shown to the reviewer", "展示给审核人的字段"},
	msgDefaultPrompt: {"Approve?", "批准吗？"},
	// Configuration errors Compile returns (workrun.Problem renders them).
	msgCfgPromptRequired:  {"config: \"prompt\" is required: say what the reviewer decides", "配置：必须填写 \"prompt\"：说明审核人要决定什么"},
	msgCfgFieldUndeclared: {"config: field %q is not declared in State", "配置：状态中未声明字段 %q"},
})
