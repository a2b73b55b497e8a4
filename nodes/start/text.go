package start

import "workrun/workrun"

// msgID names one node message; texts holds its English and Simplified
// Chinese wording, chosen by workrun.Language when written (issue 7).
type msgID int

const (
	msgNoInputs msgID = iota
	msgInputs
)

var texts = workrun.Catalog[msgID]{
	msgNoInputs: {"Started with no inputs", "已启动，无输入"},
	msgInputs:   {"Started with inputs: %s", "已启动，输入：%s"},
}
