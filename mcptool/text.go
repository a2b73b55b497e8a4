package mcptool

import "workrun/workrun"

// msgID names one message; texts holds its English and Simplified Chinese
// wording (docs/conventions.md §9). The file and link lines keep the Remote
// MCP Tool's English, byte for byte.
type msgID string

const (
	msgTooManyFiles      msgID = "mcptool.too_many_files"
	msgFilesTooLarge     msgID = "mcptool.files_too_large"
	msgFileSaved         msgID = "mcptool.file_saved"
	msgFileNotKept       msgID = "mcptool.file_not_kept"
	msgFileInvalid       msgID = "mcptool.file_invalid"
	msgLinkNotDownloaded msgID = "mcptool.link_not_downloaded"
	msgCleanupCalling    msgID = "mcptool.cleanup_calling"
	msgCleanupDone       msgID = "mcptool.cleanup_done"
	msgCleanupToolError  msgID = "mcptool.cleanup_tool_error"
	msgCleanupFailed     msgID = "mcptool.cleanup_failed"
	msgCleanupTimedOut   msgID = "mcptool.cleanup_timed_out"
	msgCleanupAlready    msgID = "mcptool.cleanup_already"
	msgArgumentsSummary  msgID = "mcptool.arguments_summary"
)

var texts = workrun.NewCatalog(map[msgID][2]string{
	msgTooManyFiles:      {"files over the limit: %d files; at most %d files may be sent per call. Nothing was sent", "文件超出限制：%d 个文件；每次调用最多发送 %d 个文件。未发送任何内容"},
	msgFilesTooLarge:     {"files over the limit: %d bytes of files; at most %d bytes (20 MiB) may be sent per call. Nothing was sent", "文件超出限制：文件共 %d 字节；每次调用最多发送 %d 字节（20 MiB）。未发送任何内容"},
	msgFileSaved:         {"Saved file %s (%s, %d bytes)", "已保存文件 %s（%s，%d 字节）"},
	msgFileNotKept:       {"File %s not kept: no output_files field is configured", "文件 %s 未保存：未配置 output_files 字段"},
	msgFileInvalid:       {"File %s not kept: %s", "文件 %s 未保存：%s"},
	msgLinkNotDownloaded: {"Resource link not downloaded: %s", "资源链接未下载：%s"},
	msgCleanupCalling:    {"Cleanup: calling tool %s…", "清理：正在调用工具 %s…"},
	msgCleanupDone:       {"Cleanup: tool %s finished: %s", "清理：工具 %s 已完成：%s"},
	msgCleanupToolError:  {"Cleanup: tool %s reported an error: %s", "清理：工具 %s 报告错误：%s"},
	msgCleanupFailed:     {"Cleanup failed: tool %s: %s", "清理失败：工具 %s：%s"},
	msgCleanupTimedOut:   {"Cleanup unconfirmed: tool %s did not answer within %s; it will not be called again", "清理未确认：工具 %s 在 %s 内未应答，不会再次调用"},
	msgCleanupAlready:    {"Cleanup: tool %s was already called (%s); not called again", "清理：工具 %s 已调用过（%s），不再调用"},
	// Written in the current language when the call goes out (a message argument).
	msgArgumentsSummary: {"%d arguments, %d files (%d bytes)", "%d 个参数，%d 个文件（%d 字节）"},
})
