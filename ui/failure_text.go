package ui

import "workrun/workrun"

// The wording of failure handling in the window (docs/engine.md "Failure
// handling"): a catalogue like the kinds', rendered in the window's
// language with uiText.
type uiMsgID string

const (
	msgStatusHandled uiMsgID = "ui.status_handled"
	msgRunFromHere   uiMsgID = "ui.run_from_here"
	msgTestThisNode  uiMsgID = "ui.test_this_node"
	msgTrigStartedBy uiMsgID = "ui.trig_started_by"
	msgNoEarlierRun  uiMsgID = "ui.no_earlier_run"
	msgRunPinnedFrom uiMsgID = "ui.run_pinned_from"
	msgPinsTitle     uiMsgID = "ui.pins_title"
	msgPinsRun       uiMsgID = "ui.pins_run"
)

var uiTexts = workrun.NewCatalog(map[uiMsgID][2]string{
	msgStatusHandled: {"failed (handled)", "失败（已处理）"},
	msgRunFromHere:   {"Run from here", "从这里运行"},
	msgTestThisNode:  {"Test this node", "测试此节点"},
	msgTrigStartedBy: {"started by a %s", "由%s启动"},
	msgNoEarlierRun:  {"This workflow has no earlier run to take the outputs of the nodes before %s from: type them here, or run the workflow once first.", "此工作流没有更早的运行可提供 %s 之前节点的输出：请在此填写，或先完整运行一次工作流。"},
	msgRunPinnedFrom: {"run from a node; the nodes before it pinned from run %s", "从某节点运行；其之前的节点固定自运行 %s"},
	msgPinsTitle:     {"Outputs of the nodes before %s (JSON per field; empty: from the earlier run)", "%s 之前节点的输出（每个字段填 JSON；留空：取自更早的运行）"},
	msgPinsRun:       {"Run", "运行"},
})

// uiText renders one entry in the window's language.
func uiText(loc workrun.Localizer, id uiMsgID, args ...any) string {
	return uiTexts.Msg(id, args...).In(loc.Messages())
}
