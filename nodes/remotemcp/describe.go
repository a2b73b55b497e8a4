package remotemcp

import "workrun/workrun"

// The editor's labels of this kind (their wording is in text.go).
const (
	msgKindLabel        msgID = "remotemcp.kind"
	msgLabelURL         msgID = "remotemcp.label_url"
	msgLabelTool        msgID = "remotemcp.label_tool"
	msgHintTool         msgID = "remotemcp.hint_tool"
	msgLabelArguments   msgID = "remotemcp.label_arguments"
	msgLabelOutput      msgID = "remotemcp.label_output"
	msgLabelOutputJSON  msgID = "remotemcp.label_output_json"
	msgLabelOutputFiles msgID = "remotemcp.label_output_files"
	msgLabelCredential  msgID = "remotemcp.label_credential"
	msgLabelTimeout     msgID = "remotemcp.label_timeout"
	msgLabelTask        msgID = "remotemcp.label_task"
	msgTaskAuto         msgID = "remotemcp.task_auto"
	msgTaskAlways       msgID = "remotemcp.task_always"
	msgTaskNever        msgID = "remotemcp.task_never"
	msgLabelCleanupTool msgID = "remotemcp.label_cleanup_tool"
	msgLabelCleanupArgs msgID = "remotemcp.label_cleanup_arguments"
	msgLabelAnswers     msgID = "remotemcp.label_answers"
)

// Describe implements workrun.Describer: the fields ParseConfig reads, with
// the field types it accepts.
func (k *Kind) Describe() workrun.KindInfo {
	return workrun.KindInfo{Type: Type, Group: workrun.GroupAgents, Label: texts.Msg(msgKindLabel), Fields: []workrun.ConfigField{
		{Key: "url", Value: workrun.ValueURL, Label: texts.Msg(msgLabelURL), Hint: workrun.Plain("http://127.0.0.1:41251/mcp"), Required: true, Protocol: workrun.ProtocolMCP},
		{Key: "tool", Value: workrun.ValueTool, Label: texts.Msg(msgLabelTool), Hint: texts.Msg(msgHintTool), Required: true},
		{Key: "arguments", Value: workrun.ValueToolArguments, Label: texts.Msg(msgLabelArguments)},
		{Key: "output", Value: workrun.ValueField, Label: texts.Msg(msgLabelOutput), FieldTypes: []workrun.FieldType{workrun.FieldText}},
		{Key: "output_json", Value: workrun.ValueField, Label: texts.Msg(msgLabelOutputJSON), FieldTypes: []workrun.FieldType{workrun.FieldJSON}},
		{Key: "output_files", Value: workrun.ValueField, Label: texts.Msg(msgLabelOutputFiles), FieldTypes: []workrun.FieldType{workrun.FieldFiles}},
		{Key: "credential", Value: workrun.ValueCredential, Label: texts.Msg(msgLabelCredential)},
		{Key: "timeout_seconds", Value: workrun.ValueInt, Label: texts.Msg(msgLabelTimeout, workrun.RemoteTimeoutMinSeconds, workrun.RemoteTimeoutMaxSeconds),
			Default: workrun.RemoteTimeoutDefaultSeconds, Min: workrun.RemoteTimeoutMinSeconds, Max: workrun.RemoteTimeoutMaxSeconds},
		{Key: "task", Value: workrun.ValueChoice, Label: texts.Msg(msgLabelTask), Default: TaskAuto, Options: []workrun.Choice{
			{Value: TaskAuto, Label: texts.Msg(msgTaskAuto)},
			{Value: TaskAlways, Label: texts.Msg(msgTaskAlways)},
			{Value: TaskNever, Label: texts.Msg(msgTaskNever)},
		}},
		{Key: "cleanup_tool", Value: workrun.ValueText, Label: texts.Msg(msgLabelCleanupTool)},
		{Key: "cleanup_arguments", Value: workrun.ValueJSONObject, Label: texts.Msg(msgLabelCleanupArgs),
			Hint: workrun.Plain(`{"source": "{{written}}", "destination": "{{written}}.aside"}`)},
		{Key: "answers", Value: workrun.ValueJSONObject, Label: texts.Msg(msgLabelAnswers),
			Hint: workrun.Plain(`{"region": "{{region}}", "depth": "quick"}`)},
	}}
}
