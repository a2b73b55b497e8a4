package output

import "workrun/workrun"

// msgID names one node message or failure reason; texts holds its English
// and Simplified Chinese wording, chosen by workrun.Language when written
// (docs/conventions.md §9). Keep the English byte-identical: tests and the CLI assert it.
type msgID string

const (
	msgNotSet msgID = "output.not_set"
	msgValue  msgID = "output.value"
	msgRef    msgID = "output.value_ref"

	msgFile       msgID = "output.file"
	msgFileUnread msgID = "output.file_unread"
	msgNoFiles    msgID = "output.no_files"
)

// Configuration errors Compile returns: the window shows them in the
// reader's language (workrun.Problem.In); the English is what the CLI prints.
const (
	msgCfgFieldsEmpty     msgID = "output.cfg_fields_empty"
	msgCfgFieldUndeclared msgID = "output.cfg_field_undeclared"
)

var texts = workrun.NewCatalog(map[msgID][2]string{
	msgNotSet: {"%s: (not set)", "%s：（未设置）"},
	msgValue:  {"%s: %s", "%s：%s"},
	msgRef:    {"%s: %s…[%s more bytes kept in artifact %s]", "%s：%s…[另有 %s 字节保存在产物 %s 中]"},

	msgFile:       {"%s (%s, %d bytes)", "%s（%s，%d 字节）"},
	msgFileUnread: {"file %s (its description cannot be read: %v)", "文件 %s（无法读取其描述：%v）"},
	msgNoFiles:    {"no files", "没有文件"},

	// Editor labels (describe.go).
	msgKindLabel:   {"Output", "输出"},
	msgLabelFields: {"Fields", "字段"},
	// Configuration errors Compile returns (workrun.Problem renders them).
	msgCfgFieldsEmpty:     {"config: \"fields\" must list at least one State field", "配置：\"fields\" 至少要列出一个状态字段"},
	msgCfgFieldUndeclared: {"config: field %q is not declared in State", "配置：状态中未声明字段 %q"},
})
