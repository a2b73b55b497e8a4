package askhuman

import "workrun/workrun"

// Configuration errors Compile returns: the window shows them in the
// reader's language (workrun.Problem.In); the English is what the CLI prints.
const (
	msgCfgPromptRequired  msgID = "askhuman.cfg_prompt_required"
	msgCfgFieldRequired   msgID = "askhuman.cfg_field_required"
	msgCfgFieldUndeclared msgID = "askhuman.cfg_field_undeclared"
	msgCfgFieldType       msgID = "askhuman.cfg_field_type"
)

var configTexts = workrun.NewCatalog(map[msgID][2]string{
	msgCfgPromptRequired:  {"config: \"prompt\" is required: say what to answer", "配置：必须填写 \"prompt\"：说明要回答什么"},
	msgCfgFieldRequired:   {"config: \"field\" is required: the text field the answer goes into", "配置：必须填写 \"field\"：存放回答的文本字段"},
	msgCfgFieldUndeclared: {"config: field %q is not declared in State", "配置：状态中未声明字段 %q"},
	msgCfgFieldType:       {"config: type mismatch: the answer is text, but %q is %s", "配置：类型不匹配：回答是文本，但 %q 是 %s"},
})
