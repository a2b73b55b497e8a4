package toolapp

import "workrun/workrun"

// The editor's labels of this kind (their wording is in text.go).
const (
	msgKindLabel        msgID = "toolapp.kind"
	msgLabelCommand     msgID = "toolapp.label_command"
	msgLabelEnv         msgID = "toolapp.label_env"
	msgLabelSecretEnv   msgID = "toolapp.label_secret_env"
	msgLabelCwd         msgID = "toolapp.label_cwd"
	msgLabelTool        msgID = "toolapp.label_tool"
	msgHintTool         msgID = "toolapp.hint_tool"
	msgLabelArguments   msgID = "toolapp.label_arguments"
	msgLabelOutput      msgID = "toolapp.label_output"
	msgLabelOutputJSON  msgID = "toolapp.label_output_json"
	msgLabelOutputFiles msgID = "toolapp.label_output_files"
	msgLabelCleanupTool msgID = "toolapp.label_cleanup_tool"
	msgLabelCleanupArgs msgID = "toolapp.label_cleanup_arguments"
	msgLabelTimeout     msgID = "toolapp.label_timeout"
)

// Describe implements workrun.Describer: the fields parseConfig reads
// (cleanup_arguments as one JSON object, templates inside). The command is an MCP server over stdio (workrun.ProtocolMCPStdio), so the inspector
// offers Test connection on it and the tool picker on tool and arguments.
func (k *Kind) Describe() workrun.KindInfo {
	return workrun.KindInfo{Type: Type, Group: workrun.GroupLocal, Label: texts.Msg(msgKindLabel), Fields: []workrun.ConfigField{
		{Key: "command", Value: workrun.ValueCommand, Label: texts.Msg(msgLabelCommand), Required: true, Protocol: workrun.ProtocolMCPStdio,
			Hint: workrun.Plain("npx\n-y\n@modelcontextprotocol/server-filesystem\n/tmp")},
		{Key: "env", Value: workrun.ValueEnv, Label: texts.Msg(msgLabelEnv)},
		{Key: "secret_env", Value: workrun.ValueEnv, Label: texts.Msg(msgLabelSecretEnv)},
		{Key: "cwd", Value: workrun.ValueText, Label: texts.Msg(msgLabelCwd)},
		{Key: "tool", Value: workrun.ValueTool, Label: texts.Msg(msgLabelTool), Hint: texts.Msg(msgHintTool), Required: true},
		{Key: "arguments", Value: workrun.ValueToolArguments, Label: texts.Msg(msgLabelArguments)},
		{Key: "output", Value: workrun.ValueField, Label: texts.Msg(msgLabelOutput), FieldTypes: []workrun.FieldType{workrun.FieldText}},
		{Key: "output_json", Value: workrun.ValueField, Label: texts.Msg(msgLabelOutputJSON), FieldTypes: []workrun.FieldType{workrun.FieldJSON}},
		{Key: "output_files", Value: workrun.ValueField, Label: texts.Msg(msgLabelOutputFiles), FieldTypes: []workrun.FieldType{workrun.FieldFiles}},
		{Key: "cleanup_tool", Value: workrun.ValueText, Label: texts.Msg(msgLabelCleanupTool)},
		{Key: "cleanup_arguments", Value: workrun.ValueJSONObject, Label: texts.Msg(msgLabelCleanupArgs),
			Hint: workrun.Plain(`{"source": "{{written}}", "destination": "{{written}}.aside"}`)},
		{Key: "timeout_seconds", Value: workrun.ValueInt, Label: texts.Msg(msgLabelTimeout, workrun.RemoteTimeoutMinSeconds, workrun.RemoteTimeoutMaxSeconds),
			Default: workrun.RemoteTimeoutDefaultSeconds, Min: workrun.RemoteTimeoutMinSeconds, Max: workrun.RemoteTimeoutMaxSeconds},
	}}
}
