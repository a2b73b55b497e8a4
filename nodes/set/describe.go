package set

import "workrun/workrun"

// The editor's labels of this kind (their wording is in text.go).
const (
	msgKindLabel   msgID = "set.kind"
	msgLabelValues msgID = "set.label_values"
	msgHintValues  msgID = "set.hint_values"
)

// Describe implements workrun.Describer.
func (Kind) Describe() workrun.KindInfo {
	return workrun.KindInfo{Type: "set", Group: workrun.GroupLogic, Label: texts.Msg(msgKindLabel), Fields: []workrun.ConfigField{
		{Key: "values", Value: workrun.ValueAssignments, Label: texts.Msg(msgLabelValues), Hint: texts.Msg(msgHintValues), Required: true},
	}}
}
