package askhuman

import "workrun/workrun"

// The editor's labels of this kind (their wording is in text.go).
const (
	msgKindLabel   msgID = "askhuman.kind"
	msgLabelPrompt msgID = "askhuman.label_prompt"
	msgLabelField  msgID = "askhuman.label_field"
)

// Describe implements workrun.Describer.
func (Kind) Describe() workrun.KindInfo {
	return workrun.KindInfo{Type: "ask_human", Group: workrun.GroupPeople, Label: texts.Msg(msgKindLabel), Fields: []workrun.ConfigField{
		{Key: "prompt", Value: workrun.ValueLongText, Label: texts.Msg(msgLabelPrompt), Required: true},
		{Key: "field", Value: workrun.ValueField, Label: texts.Msg(msgLabelField), Required: true, FieldTypes: []workrun.FieldType{workrun.FieldText}},
	}}
}
