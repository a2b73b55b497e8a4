package start

import "workrun/workrun"

// msgID names one node message; texts holds its English and Simplified
// Chinese wording, chosen by workrun.Language when written (docs/conventions.md §9).
type msgID string

const (
	msgNoInputs msgID = "start.no_inputs"
	msgInputs   msgID = "start.inputs"
)

var texts = workrun.NewCatalog(map[msgID][2]string{
	msgNoInputs: {"Started with no inputs", "已启动，无输入"},
	msgInputs:   {"Started with inputs: %s", "已启动，输入：%s"},

	// Editor labels (describe.go).
	msgKindLabel: {"Start", "开始"},
})
