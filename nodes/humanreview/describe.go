package humanreview

import "workrun/workrun"

// The editor's labels of this kind (their wording is in text.go).
const (
	msgKindLabel   msgID = "humanreview.kind"
	msgLabelPrompt msgID = "humanreview.label_prompt"
	msgLabelFields msgID = "humanreview.label_fields"
	// msgDefaultPrompt is a new node's prompt, in the editor's language.
	msgDefaultPrompt msgID = "humanreview.default_prompt"
)

// Describe implements workrun.Describer.
func (Kind) Describe() workrun.KindInfo {
	return workrun.KindInfo{Type: "human_review", Group: workrun.GroupPeople, Label: texts.Msg(msgKindLabel), Fields: []workrun.ConfigField{
		{Key: "prompt", Value: workrun.ValueLongText, Label: texts.Msg(msgLabelPrompt), Required: true, Default: texts.Msg(msgDefaultPrompt)},
		{Key: "fields", Value: workrun.ValueFields, Label: texts.Msg(msgLabelFields)},
	}}
}
