package askhuman

import "workrun/workrun"

// msgID names one node message or failure reason; texts holds its English
// and Simplified Chinese wording, chosen by workrun.Language when written
// (docs/conventions.md §9). Keep the English byte-identical: tests and the CLI assert it.
type msgID string

const (
	msgWaiting       msgID = "askhuman.waiting"
	msgWaitingReason msgID = "askhuman.waiting_reason"
	msgAnswered      msgID = "askhuman.answered"
)

// Configuration errors Compile returns: the window shows them in the
// reader's language (workrun.Problem.In); the English is what the CLI prints.
const (
	msgCfgPromptRequired  msgID = "askhuman.cfg_prompt_required"
	msgCfgFieldRequired   msgID = "askhuman.cfg_field_required"
	msgCfgFieldUndeclared msgID = "askhuman.cfg_field_undeclared"
	msgCfgFieldType       msgID = "askhuman.cfg_field_type"
)

var texts = workrun.NewCatalog(map[msgID][2]string{
	msgWaiting:       {"Waiting for an answer: %s", "等待回答：%s"},
	msgWaitingReason: {"waiting for an answer: %s", "等待回答：%s"},
	msgAnswered:      {"Answered", "已回答"},

	// Editor labels (describe.go).
	msgKindLabel:   {"Ask Human", "询问人工"},
	msgLabelPrompt: {"Prompt", "提示语"},
	msgLabelField:  {"Answer field", "答案字段"},
	// Configuration errors Compile returns (workrun.Problem renders them).
	msgCfgPromptRequired:  {"config: \"prompt\" is required: say what to answer", "配置：必须填写 \"prompt\"：说明要回答什么"},
	msgCfgFieldRequired:   {"config: \"field\" is required: the text field the answer goes into", "配置：必须填写 \"field\"：存放回答的文本字段"},
	msgCfgFieldUndeclared: {"config: field %q is not declared in State", "配置：状态中未声明字段 %q"},
	msgCfgFieldType:       {"config: type mismatch: the answer is text, but %q is %s", "配置：类型不匹配：回答是文本，但 %q 是 %s"},
})
