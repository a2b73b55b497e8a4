package join

import "workrun/workrun"

// Configuration errors Compile returns: the window shows them in the
// reader's language (workrun.Problem.In); the English is what the CLI prints.
const (
	msgCfgNone msgID = "join.cfg_none"
)

var configTexts = workrun.NewCatalog(map[msgID][2]string{
	msgCfgNone: {"join takes no config (got %s)", "汇合节点不接受配置（收到 %s）"},
})
