package set

import "workrun/workrun"

// msgID names one node message or failure reason; texts holds its English
// and Simplified Chinese wording, chosen by workrun.Language when written
// (issue 7). Keep the English byte-identical: tests and the CLI assert it.
type msgID int

const (
	msgSet msgID = iota
)

var texts = workrun.Catalog[msgID]{
	msgSet: {"Set %s", "已设置：%s"},
}
