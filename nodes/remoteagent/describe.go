package remoteagent

import "workrun/workrun"

// The editor's labels of this kind (their wording is in text.go).
const (
	msgKindLabel        msgID = "remoteagent.kind"
	msgLabelURL         msgID = "remoteagent.label_url"
	msgLabelMessage     msgID = "remoteagent.label_message"
	msgHintMessage      msgID = "remoteagent.hint_message"
	msgLabelInputs      msgID = "remoteagent.label_inputs"
	msgLabelAttachments msgID = "remoteagent.label_attachments"
	msgLabelOutput      msgID = "remoteagent.label_output"
	msgLabelOutputFiles msgID = "remoteagent.label_output_files"
	msgLabelCredential  msgID = "remoteagent.label_credential"
	msgLabelTimeout     msgID = "remoteagent.label_timeout"
	msgLabelAnswers     msgID = "remoteagent.label_answers"
	msgHintAnswers      msgID = "remoteagent.hint_answers"
)

// Describe implements workrun.Describer: the fields ParseConfig reads, with
// the field types it accepts.
func (k *Kind) Describe() workrun.KindInfo {
	return workrun.KindInfo{Type: Type, Group: workrun.GroupAgents, Label: texts.Msg(msgKindLabel), Fields: []workrun.ConfigField{
		{Key: "url", Value: workrun.ValueURL, Label: texts.Msg(msgLabelURL), Hint: workrun.Plain("https://agent.example.com"), Required: true, Protocol: workrun.ProtocolA2A},
		{Key: "message", Value: workrun.ValueTemplate, Label: texts.Msg(msgLabelMessage), Hint: texts.Msg(msgHintMessage), FieldTypes: MessageFieldTypes},
		{Key: "inputs", Value: workrun.ValueFields, Label: texts.Msg(msgLabelInputs), FieldTypes: MessageFieldTypes},
		{Key: "attachments", Value: workrun.ValueFields, Label: texts.Msg(msgLabelAttachments), FieldTypes: []workrun.FieldType{workrun.FieldFile, workrun.FieldFiles}},
		{Key: "output", Value: workrun.ValueField, Label: texts.Msg(msgLabelOutput), FieldTypes: []workrun.FieldType{workrun.FieldText}},
		{Key: "output_files", Value: workrun.ValueField, Label: texts.Msg(msgLabelOutputFiles), FieldTypes: []workrun.FieldType{workrun.FieldFiles}},
		{Key: "credential", Value: workrun.ValueCredential, Label: texts.Msg(msgLabelCredential)},
		{Key: "timeout_seconds", Value: workrun.ValueInt, Label: texts.Msg(msgLabelTimeout, workrun.RemoteTimeoutMinSeconds, workrun.RemoteTimeoutMaxSeconds),
			Default: workrun.RemoteTimeoutDefaultSeconds, Min: workrun.RemoteTimeoutMinSeconds, Max: workrun.RemoteTimeoutMaxSeconds},
		{Key: "answers", Value: workrun.ValueTemplate, Label: texts.Msg(msgLabelAnswers), Hint: texts.Msg(msgHintAnswers)},
	}}
}
