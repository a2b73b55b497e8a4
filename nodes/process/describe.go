package process

import "workrun/workrun"

// The editor's labels of this kind (their wording is in text.go).
const (
	msgKindLabel    msgID = "process.kind"
	msgLabelCommand msgID = "process.label_command"
	msgLabelEnv     msgID = "process.label_env"
	msgLabelTimeout msgID = "process.label_timeout"
	msgLabelStdout  msgID = "process.label_stdout"
	msgLabelCleanup msgID = "process.label_cleanup"
)

// Describe implements workrun.Describer.
func (Kind) Describe() workrun.KindInfo {
	return workrun.KindInfo{Type: "process", Group: workrun.GroupLocal, Label: texts.Msg(msgKindLabel), Fields: []workrun.ConfigField{
		{Key: "command", Value: workrun.ValueCommand, Label: texts.Msg(msgLabelCommand), Hint: workrun.Plain("sh\n-c\necho hi"), Required: true},
		{Key: "env", Value: workrun.ValueEnv, Label: texts.Msg(msgLabelEnv)},
		{Key: "timeout_seconds", Value: workrun.ValueInt, Label: texts.Msg(msgLabelTimeout), Default: DefaultTimeout, Min: 1, Max: MaxTimeout},
		{Key: "stdout", Value: workrun.ValueField, Label: texts.Msg(msgLabelStdout),
			FieldTypes: []workrun.FieldType{workrun.FieldText, workrun.FieldJSON, workrun.FieldNumber}},
		{Key: "cleanup", Value: workrun.ValueCommand, Label: texts.Msg(msgLabelCleanup)},
	}}
}
