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
})

var opText = map[string]msgID{"eq": msgEq, "ne": msgNe, "gt": msgGt, "lt": msgLt, "contains": msgContains}
