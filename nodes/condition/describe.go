package condition

import "workrun/workrun"

// The editor's labels of this kind (their wording is in text.go).
const (
	msgKindLabel  msgID = "condition.kind"
	msgLabelField msgID = "condition.label_field"
	msgLabelOp    msgID = "condition.label_op"
	msgLabelValue msgID = "condition.label_value"
)

// Describe implements workrun.Describer.
func (Kind) Describe() workrun.KindInfo {
	var ops []workrun.Choice
	for _, op := range []string{"eq", "ne", "gt", "lt", "contains"} {
		ops = append(ops, workrun.Choice{Value: op, Label: texts.Msg(opText[op])})
	}
	return workrun.KindInfo{Type: "condition", Group: workrun.GroupLogic, Label: texts.Msg(msgKindLabel), Fields: []workrun.ConfigField{
		{Key: "field", Value: workrun.ValueField, Label: texts.Msg(msgLabelField), Required: true},
		{Key: "op", Value: workrun.ValueChoice, Label: texts.Msg(msgLabelOp), Required: true, Options: ops, Default: "eq"},
		{Key: "value", Value: workrun.ValueJSON, Label: texts.Msg(msgLabelValue), Hint: workrun.Plain(`3, "text", true`)},
	}, Branches: (&step{}).Branches()}
}
