package set

import "workrun/workrun"

// msgID names one node message or failure reason; texts holds its English
// and Simplified Chinese wording, chosen by workrun.Language when written
// (docs/conventions.md §9). Keep the English byte-identical: tests and the CLI assert it.
type msgID string

const (
	msgSet msgID = "set.set"
)

var texts = workrun.NewCatalog(map[msgID][2]string{
	msgSet: {"Set %s", "已设置：%s"},

	// Editor labels (describe.go).
	msgKindLabel:   {"Set", "赋值"},
	msgLabelValues: {"Values (one field = template a line)", "值（每行一个：字段 = 模板）"},
})
