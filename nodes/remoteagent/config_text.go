package remoteagent

import "workrun/workrun"

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

var configTexts = workrun.NewCatalog(map[msgID][2]string{
	msgCfgURLRequired: {"remote agent config: url is required", "远程智能体配置：必须填写 url"},
	msgCfgDecode:      {"remote agent config: %v", "远程智能体配置有误：%v"},
	msgCfgNoInputs:    {"remote agent config: inputs: list at least one State field to send", "远程智能体配置：inputs：至少列出一个要发送的状态字段"},
	msgCfgEmptyField:  {"remote agent config: %s: empty field name", "远程智能体配置：%s：字段名为空"},
	msgCfgNoField:     {"remote agent config: %s: State has no field %q", "远程智能体配置：%s：状态中没有字段 %q"},
	msgCfgFieldUsed:   {"remote agent config: %s: field %q is already used in %s", "远程智能体配置：%s：字段 %q 已在 %s 中使用"},
	msgCfgFieldType:   {"remote agent config: %[1]s: field %[2]q is %[3]s; expected %[4]s", "远程智能体配置：%[1]s：字段 %[2]q 是 %[3]s；应为 %[5]s"},
})
