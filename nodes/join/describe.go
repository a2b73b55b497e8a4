package join

import "workrun/workrun"

// join writes no messages; its one catalogue holds its editor label.
type msgID string

const msgKindLabel msgID = "join.kind"

// Configuration errors Compile returns: the window shows them in the
// reader's language (workrun.Problem.In); the English is what the CLI prints.
const (
	msgCfgNone msgID = "join.cfg_none"
)

var texts = workrun.NewCatalog(map[msgID][2]string{
	msgKindLabel: {"Join", "汇合"},
	// Configuration errors Compile returns (workrun.Problem renders them).
	msgCfgNone: {"join takes no config (got %s)", "汇合节点不接受配置（收到 %s）"},
})

// Describe implements workrun.Describer: join takes no config.
func (Kind) Describe() workrun.KindInfo {
	return workrun.KindInfo{Type: "join", Group: workrun.GroupLogic, Label: texts.Msg(msgKindLabel)}
}
