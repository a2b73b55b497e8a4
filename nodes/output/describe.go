package output

import "workrun/workrun"

// The editor's labels of this kind (their wording is in text.go).
const (
	msgKindLabel   msgID = "output.kind"
	msgLabelFields msgID = "output.label_fields"
)

// Describe implements workrun.Describer.
func (Kind) Describe() workrun.KindInfo {
	return workrun.KindInfo{Type: "output", Group: workrun.GroupLogic, Label: texts.Msg(msgKindLabel), Fields: []workrun.ConfigField{
		{Key: "fields", Value: workrun.ValueFields, Label: texts.Msg(msgLabelFields), Required: true},
	}}
}
