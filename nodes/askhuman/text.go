package askhuman

import "workrun/workrun"

// msgID names one node message or failure reason; texts holds its English
// and Simplified Chinese wording, chosen by workrun.Language when written
// (docs/conventions.md §9). Keep the English byte-identical: tests and the CLI assert it.
type msgID string

const (
	msgWaiting       msgID = "askhuman.waiting"
	msgWaitingReason msgID = "askhuman.waiting_reason"
	msgAnswered      msgID = "askhuman.answered"
)

var texts = workrun.NewCatalog(map[msgID][2]string{
	msgWaiting:       {"Waiting for an answer: %s", "等待回答：%s"},
	msgWaitingReason: {"waiting for an answer: %s", "等待回答：%s"},
	msgAnswered:      {"Answered", "已回答"},

	// Editor labels (describe.go).
	msgKindLabel:   {"Ask Human", "询问人工"},
	msgLabelPrompt: {"Prompt", "提示语"},
	msgLabelField:  {"Answer field", "答案字段"},
})
