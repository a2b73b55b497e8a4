package join

import "workrun/workrun"

// join writes no messages; its one catalogue holds its editor wording.
type msgID string

const msgKindLabel msgID = "join.kind"

// Configuration errors Compile returns: the window shows them in the
// reader's language (workrun.Problem.In); the English is what the CLI prints.
const (
	msgCfgInputs   msgID = "join.cfg_inputs"
	msgCfgUnknown  msgID = "join.cfg_unknown"
	msgLabelInputs msgID = "join.label_inputs"
	msgInputsAny   msgID = "join.inputs_any"
	msgInputsAll   msgID = "join.inputs_all"
)

var texts = workrun.NewCatalog(map[msgID][2]string{
	msgKindLabel: {"Join", "汇合"},
	// Configuration errors Compile returns (workrun.Problem renders them).
	msgCfgUnknown:  {"config: a join has only the key inputs (got %q)", "配置：汇合节点只有 inputs 一个键（得到 %q）"},
	msgCfgInputs:   {"config: inputs must be any or all (got %q)", "配置：inputs 须为 any 或 all（得到 %q）"},
	msgLabelInputs: {"Run when", "何时运行"},
	msgInputsAny:   {"any input arrived (a branch not taken counts as done)", "任一输入到达（未走的分支算作完成）"},
	msgInputsAll:   {"every input arrived (else skipped)", "所有输入都到达（否则跳过）"},
})

// Describe implements workrun.Describer.
func (Kind) Describe() workrun.KindInfo {
	return workrun.KindInfo{Type: "join", Group: workrun.GroupLogic, Label: texts.Msg(msgKindLabel), Fields: []workrun.ConfigField{
		{Key: "inputs", Value: workrun.ValueChoice, Label: texts.Msg(msgLabelInputs), Default: InputsAny, Options: []workrun.Choice{
			{Value: InputsAny, Label: texts.Msg(msgInputsAny)},
			{Value: InputsAll, Label: texts.Msg(msgInputsAll)},
		}},
	}}
}
