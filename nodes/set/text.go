package set

import "workrun/workrun"

// msgID names one node message or failure reason; texts holds its English
// and Simplified Chinese wording, chosen by workrun.Language when written
// (docs/conventions.md §9). Keep the English byte-identical: tests and the CLI assert it.
type msgID string

const (
	msgSet msgID = "set.set"
)

// Configuration errors Compile returns: the window shows them in the
// reader's language (workrun.Problem.In); the English is what the CLI prints.
const (
	msgCfgValuesEmpty       msgID = "set.cfg_values_empty"
	msgCfgAssignsUndeclared msgID = "set.cfg_assigns_undeclared"
	msgCfgReadsUndeclared   msgID = "set.cfg_reads_undeclared"
	msgCfgCopyType          msgID = "set.cfg_copy_type"
	msgCfgTemplateType      msgID = "set.cfg_template_type"
	msgCfgValueType         msgID = "set.cfg_value_type"
)

var texts = workrun.NewCatalog(map[msgID][2]string{
	msgSet: {"Set %s", "已设置：%s"},

	// Editor labels (describe.go).
	msgKindLabel:   {"Set", "赋值"},
	msgLabelValues: {"Values (one field = template a line)", "值（每行一个：字段 = 模板）"},
	msgHintValues:  {"msg = hello {{name}}", "msg = 你好 {{name}}"},
	// Configuration errors Compile returns (workrun.Problem renders them).
	msgCfgValuesEmpty:       {"config: \"values\" must assign at least one field", "配置：\"values\" 至少要给一个字段赋值"},
	msgCfgAssignsUndeclared: {"config: assigns field %q, which is not declared in State", "配置：给字段 %q 赋值，但状态中未声明该字段"},
	msgCfgReadsUndeclared:   {"config: %q reads field %q, which is not declared in State", "配置：%q 读取字段 %q，但状态中未声明该字段"},
	msgCfgCopyType:          {"config: type mismatch: %q is %s but {{%s}} is %s", "配置：类型不匹配：%q 是 %s，但 {{%s}} 是 %s"},
	msgCfgTemplateType:      {"config: type mismatch: a template makes text, but %q is %s", "配置：类型不匹配：模板生成的是文本，但 %q 是 %s"},
	msgCfgValueType:         {"config: type mismatch for %q: %v", "配置：%q 的类型不匹配：%v"},
})
