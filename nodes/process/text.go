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
})
