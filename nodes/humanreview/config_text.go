package humanreview

import "workrun/workrun"

// Configuration errors Compile returns: the window shows them in the
// reader's language (workrun.Problem.In); the English is what the CLI prints.
const (
	msgCfgPromptRequired  msgID = "humanreview.cfg_prompt_required"
	msgCfgFieldUndeclared msgID = "humanreview.cfg_field_undeclared"
)

var configTexts = workrun.NewCatalog(map[msgID][2]string{
	msgCfgPromptRequired:  {"config: \"prompt\" is required: say what the reviewer decides", "配置：必须填写 \"prompt\"：说明审核人要决定什么"},
	msgCfgFieldUndeclared: {"config: field %q is not declared in State", "配置：状态中未声明字段 %q"},
})
