package start

import "workrun/workrun"

// The editor's labels of this kind (their wording is in text.go).
const (
	msgKindLabel msgID = "start.kind"
)

// Describe implements workrun.Describer: start takes no config.
func (Kind) Describe() workrun.KindInfo {
	return workrun.KindInfo{Type: "start", Group: workrun.GroupLogic, Label: texts.Msg(msgKindLabel)}
}
