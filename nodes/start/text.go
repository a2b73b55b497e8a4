package start

import "workrun/workrun"

// msgID names one node message; texts holds its English and Simplified
// Chinese wording, chosen by workrun.Language when written (docs/conventions.md §9).
type msgID string

const (
	msgNoInputs msgID = "start.no_inputs"
	msgInputs   msgID = "start.inputs"
)

// Configuration errors Compile returns: the window shows them in the
// reader's language (workrun.Problem.In); the English is what the CLI prints.
const (
	msgCfgNone msgID = "start.cfg_none"
)

var texts = workrun.NewCatalog(map[msgID][2]string{
	msgNoInputs: {"Started with no inputs", "已启动，无输入"},
	msgInputs:   {"Started with inputs: %s", "已启动，输入：%s"},

	// Editor labels (describe.go).
	msgKindLabel: {"Start", "开始"},
	// Configuration errors Compile returns (workrun.Problem renders them).
	msgCfgNone: {"start takes no config (got %s)", "开始节点不接受配置（收到 %s）"},
})
