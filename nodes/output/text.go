package output

import "workrun/workrun"

// msgID names one node message or failure reason; texts holds its English
// and Simplified Chinese wording, chosen by workrun.Language when written
// (issue 7). Keep the English byte-identical: tests and the CLI assert it.
type msgID int

const (
	msgNotSet msgID = iota
	msgValue
)

var texts = workrun.Catalog[msgID]{
	msgNotSet: {"%s: (not set)", "%s：（未设置）"},
	msgValue:  {"%s: %s", "%s：%s"},
}
