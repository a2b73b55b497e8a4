package process

import "workrun/workrun"

// Configuration errors Compile returns: the window shows them in the
// reader's language (workrun.Problem.In); the English is what the CLI prints.
const (
	msgCfgCommand            msgID = "process.cfg_command"
	msgCfgEnvName            msgID = "process.cfg_env_name"
	msgCfgEnvNUL             msgID = "process.cfg_env_nul"
	msgCfgTimeout            msgID = "process.cfg_timeout"
	msgCfgStdoutUndeclared   msgID = "process.cfg_stdout_undeclared"
	msgCfgStdoutType         msgID = "process.cfg_stdout_type"
	msgCfgTemplateUndeclared msgID = "process.cfg_template_undeclared"
)

var configTexts = workrun.NewCatalog(map[msgID][2]string{
	msgCfgCommand:            {"config: \"command\" must name a program, e.g. [\"sh\", \"-c\", \"echo hi\"]", "配置：\"command\" 必须指明一个程序，例如 [\"sh\", \"-c\", \"echo hi\"]"},
	msgCfgEnvName:            {"config: env: %q is not a valid environment variable name (letters, digits and _, not starting with a digit)", "配置：env：%q 不是有效的环境变量名（只能用字母、数字和 _，且不能以数字开头）"},
	msgCfgEnvNUL:             {"config: env: the value of %s contains a NUL byte", "配置：env：%s 的值含有 NUL 字节"},
	msgCfgTimeout:            {"config: timeout_seconds %v is out of range (1–%d)", "配置：timeout_seconds %v 超出范围（1–%d）"},
	msgCfgStdoutUndeclared:   {"config: stdout field %q is not declared in State", "配置：状态中未声明 stdout 字段 %q"},
	msgCfgStdoutType:         {"config: type mismatch: stdout goes into text, number or json, but %q is %s", "配置：类型不匹配：stdout 只能存入 text、number 或 json，但 %q 是 %s"},
	msgCfgTemplateUndeclared: {"config: template reads field %q, which is not declared in State", "配置：模板读取字段 %q，但状态中未声明该字段"},
})
