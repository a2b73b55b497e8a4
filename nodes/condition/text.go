package condition

import "workrun/workrun"

// msgID names one node message or failure reason; texts holds its English
// and Simplified Chinese wording, chosen by workrun.Language when written
// (docs/conventions.md §9). Keep the English byte-identical: tests and the CLI assert it.
type msgID string

const (
	msgNotSet   msgID = "condition.not_set"
	msgResult   msgID = "condition.result"
	msgEq       msgID = "condition.eq"
	msgNe       msgID = "condition.ne"
	msgGt       msgID = "condition.gt"
	msgLt       msgID = "condition.lt"
	msgContains msgID = "condition.contains"
)

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

var texts = workrun.NewCatalog(map[msgID][2]string{
	msgNotSet: {"(not set)", "未设置"}, // shown in the parentheses of msgResult
	// field (its value) op value: branch taken
	msgResult:   {"%s (%s) %s %s: %s", "%s（%s）%s %s：走 %s 分支"},
	msgEq:       {"eq", "等于"},
	msgNe:       {"ne", "不等于"},
	msgGt:       {"gt", "大于"},
	msgLt:       {"lt", "小于"},
	msgContains: {"contains", "包含"},

	// Editor labels (describe.go).
	msgKindLabel:  {"Condition", "条件"},
	msgLabelField: {"Field", "字段"},
	msgLabelOp:    {"Operator", "运算符"},
	msgLabelValue: {"Value", "值"},
	// Configuration errors Compile returns (workrun.Problem renders them).
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

var opText = map[string]msgID{"eq": msgEq, "ne": msgNe, "gt": msgGt, "lt": msgLt, "contains": msgContains}
