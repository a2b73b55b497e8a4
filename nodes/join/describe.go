package join

import "workrun/workrun"

// join writes no messages; its one catalogue holds its editor label.
type msgID string

const msgKindLabel msgID = "join.kind"

var texts = workrun.NewCatalog(map[msgID][2]string{
	msgKindLabel: {"Join", "汇合"},
})

// Describe implements workrun.Describer: join takes no config.
func (Kind) Describe() workrun.KindInfo {
	return workrun.KindInfo{Type: "join", Group: workrun.GroupLogic, Label: texts.Msg(msgKindLabel)}
}
