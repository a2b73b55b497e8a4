package output

import "workrun/workrun"

// Configuration errors Compile returns: the window shows them in the
// reader's language (workrun.Problem.In); the English is what the CLI prints.
const (
	msgCfgFieldsEmpty     msgID = "output.cfg_fields_empty"
	msgCfgFieldUndeclared msgID = "output.cfg_field_undeclared"
)

var configTexts = workrun.NewCatalog(map[msgID][2]string{
	msgCfgFieldsEmpty:     {"config: \"fields\" must list at least one State field", "配置：\"fields\" 至少要列出一个状态字段"},
	msgCfgFieldUndeclared: {"config: field %q is not declared in State", "配置：状态中未声明字段 %q"},
})
