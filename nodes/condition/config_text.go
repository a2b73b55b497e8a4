package condition

import "workrun/workrun"

// Configuration errors Compile returns: the window shows them in the
// reader's language (workrun.Problem.In); the English is what the CLI prints.
const (
	msgCfgFieldRequired   msgID = "condition.cfg_field_required"
	msgCfgFieldUndeclared msgID = "condition.cfg_field_undeclared"
	msgCfgValueType       msgID = "condition.cfg_value_type"
	msgCfgOpNumbers       msgID = "condition.cfg_op_numbers"
	msgCfgOpNumberValue   msgID = "condition.cfg_op_number_value"
	msgCfgContainsString  msgID = "condition.cfg_contains_string"
	msgCfgContainsType    msgID = "condition.cfg_contains_type"
	msgCfgOpRequired      msgID = "condition.cfg_op_required"
	msgCfgOpUnknown       msgID = "condition.cfg_op_unknown"
)

var configTexts = workrun.NewCatalog(map[msgID][2]string{
	msgCfgFieldRequired:   {"config: \"field\" is required", "配置：必须填写 \"field\""},
	msgCfgFieldUndeclared: {"config: field %q is not declared in State", "配置：状态中未声明字段 %q"},
	msgCfgValueType:       {"config: type mismatch: %q is %s, the value must be %s too", "配置：类型不匹配：%q 是 %s，值也必须是 %s"},
	msgCfgOpNumbers:       {"config: type mismatch: %q compares numbers, but %q is %s", "配置：类型不匹配：%q 比较的是数字，但 %q 是 %s"},
	msgCfgOpNumberValue:   {"config: type mismatch: %q needs a number value", "配置：类型不匹配：%q 需要数字值"},
	msgCfgContainsString:  {"config: type mismatch: contains on %s needs a string value", "配置：类型不匹配：对 %s 使用 contains 需要字符串值"},
	msgCfgContainsType:    {"config: type mismatch: contains does not apply to %s field %q", "配置：类型不匹配：contains 不适用于 %s 字段 %q"},
	msgCfgOpRequired:      {"config: \"op\" is required (eq, ne, gt, lt or contains)", "配置：必须填写 \"op\"（eq、ne、gt、lt 或 contains）"},
	msgCfgOpUnknown:       {"config: unknown op %q (use eq, ne, gt, lt or contains)", "配置：未知的运算符 %q（可用 eq、ne、gt、lt 或 contains）"},
})
