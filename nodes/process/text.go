package process

import "workrun/workrun"

// msgID names one node message or failure reason; texts holds its English
// and Simplified Chinese wording, chosen by workrun.Language when written
// (docs/conventions.md §9). Keep the English byte-identical: tests and the CLI assert it.
type msgID string

const (
	msgRunning         msgID = "process.running"
	msgFinished        msgID = "process.finished"
	msgCleanupRunning  msgID = "process.cleanup_running"
	msgCleanupFailed   msgID = "process.cleanup_failed"
	msgCleanupFinished msgID = "process.cleanup_finished"
	msgNotNumber       msgID = "process.not_number"
	msgNotJSON         msgID = "process.not_j_s_o_n"
	msgTooLarge        msgID = "process.too_large"
	msgTimedOut        msgID = "process.timed_out"
	msgCanceled        msgID = "process.canceled"
	msgExit            msgID = "process.exit"
	msgExitStderr      msgID = "process.exit_stderr"
	msgRunFailed       msgID = "process.run_failed"
)

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

var texts = workrun.NewCatalog(map[msgID][2]string{
	msgRunning:         {"Running %q", "正在运行 %q"},
	msgFinished:        {"Finished", "已完成"},
	msgCleanupRunning:  {"Cleanup: running %q", "清理：正在运行 %q"},
	msgCleanupFailed:   {"Cleanup failed: %v", "清理失败：%v"},
	msgCleanupFinished: {"Cleanup finished", "清理已完成"},
	msgNotNumber:       {"stdout is not a number: %q", "标准输出不是数字：%q"},
	msgNotJSON:         {"stdout is not JSON: %v", "标准输出不是 JSON：%v"},
	msgTooLarge:        {"stdout is larger than %d bytes", "标准输出超过 %d 字节"},
	msgTimedOut:        {"command timed out after %s", "命令超时（%s）"},
	msgCanceled:        {"command canceled: %v", "命令已取消：%v"},
	msgExit:            {"command failed: exit status %d", "命令失败：退出状态 %d"},
	msgExitStderr:      {"command failed: exit status %d: %s", "命令失败：退出状态 %d：%s"},
	msgRunFailed:       {"run command: %v", "无法运行命令：%v"},

	// Editor labels (describe.go).
	msgKindLabel:    {"Process", "本地进程"},
	msgLabelCommand: {"Command (one argument per line)", "命令（每行一个参数）"},
	msgLabelEnv:     {"Environment (NAME=value)", "环境变量（名称=值）"},
	msgLabelTimeout: {"Timeout (seconds)", "超时（秒）"},
	msgLabelStdout:  {"Stdout into field", "标准输出写入字段"},
	msgLabelCleanup: {"Cleanup on failure (one argument per line)", "失败时的清理命令（每行一个参数）"},
	// Configuration errors Compile returns (workrun.Problem renders them).
	msgCfgCommand:            {"config: \"command\" must name a program, e.g. [\"sh\", \"-c\", \"echo hi\"]", "配置：\"command\" 必须指明一个程序，例如 [\"sh\", \"-c\", \"echo hi\"]"},
	msgCfgEnvName:            {"config: env: %q is not a valid environment variable name (letters, digits and _, not starting with a digit)", "配置：env：%q 不是有效的环境变量名（只能用字母、数字和 _，且不能以数字开头）"},
	msgCfgEnvNUL:             {"config: env: the value of %s contains a NUL byte", "配置：env：%s 的值含有 NUL 字节"},
	msgCfgTimeout:            {"config: timeout_seconds %v is out of range (1–%d)", "配置：timeout_seconds %v 超出范围（1–%d）"},
	msgCfgStdoutUndeclared:   {"config: stdout field %q is not declared in State", "配置：状态中未声明 stdout 字段 %q"},
	msgCfgStdoutType:         {"config: type mismatch: stdout goes into text, number or json, but %q is %s", "配置：类型不匹配：stdout 只能存入 text、number 或 json，但 %q 是 %s"},
	msgCfgTemplateUndeclared: {"config: template reads field %q, which is not declared in State", "配置：模板读取字段 %q，但状态中未声明该字段"},
})
