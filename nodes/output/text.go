package output

import "workrun/workrun"

// msgID names one node message or failure reason; texts holds its English
// and Simplified Chinese wording, chosen by workrun.Language when written
// (docs/conventions.md §9). Keep the English byte-identical: tests and the CLI assert it.
type msgID string

const (
	msgNotSet msgID = "output.not_set"
	msgValue  msgID = "output.value"
)

var texts = workrun.NewCatalog(map[msgID][2]string{
	msgNotSet: {"%s: (not set)", "%s：（未设置）"},
	msgValue:  {"%s: %s", "%s：%s"},

	// Editor labels (describe.go).
	msgKindLabel:   {"Output", "输出"},
	msgLabelFields: {"Fields", "字段"},
})
