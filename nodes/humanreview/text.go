package humanreview

import "workrun/workrun"

// msgID names one node message or failure reason; texts holds its English
// and Simplified Chinese wording, chosen by workrun.Language when written
// (issue 7). Keep the English byte-identical: tests and the CLI assert it.
type msgID int

const (
	msgWaiting msgID = iota
	msgValue
	msgWaitingReason
	msgRejected
	msgRejectedWhy
	msgRejectedErr
	msgRejectedErrWhy
	msgApproved
	msgApprovedWhy
)

var texts = workrun.Catalog[msgID]{
	msgWaiting:        {"Waiting for review: %s", "等待审核：%s"},
	msgValue:          {"%s: %s", "%s：%s"},
	msgWaitingReason:  {"waiting for review: %s", "等待审核：%s"},
	msgRejected:       {"Rejected", "已驳回"},
	msgRejectedWhy:    {"Rejected: %s", "已驳回：%s"},
	msgRejectedErr:    {"rejected by the reviewer", "审核人已驳回"},
	msgRejectedErrWhy: {"rejected by the reviewer: %s", "审核人已驳回：%s"},
	msgApproved:       {"Approved", "已批准"},
	msgApprovedWhy:    {"Approved: %s", "已批准：%s"},
}
