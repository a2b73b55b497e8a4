package remoteagent

import (
	"fmt"
	"strings"

	"workrun/a2a"
	"workrun/workrun"
)

// msgID names one node message; texts holds its English and Simplified
// Chinese wording. The R11 lines are the SPEC's exact words.
type msgID int

const (
	msgCancelRequesting msgID = iota
	msgCanceled
	msgCancelUnconfirmed
	msgCancelError
	msgCancelStillWorking
	msgCancelAlreadyCompleted
	msgCancelAlreadyEnded
	msgCancelNotCancelable
	msgCancelNotFound
	msgSubmissionUnknown
	msgSending
	msgTaskAccepted
	msgStatus
	msgArtifact
	msgStreamLost
	msgReadingTask
	msgSubscribing
	msgCompleted
	msgReused
	msgFileSaved
	msgFileNotKept
	msgURLNotDownloaded
	msgResuming
	msgInterrupted
	msgQuiet
)

var texts = map[msgID][2]string{
	msgCancelRequesting:       {"Remote task: requesting cancellation…", "远程任务：正在请求取消…"},
	msgCanceled:               {"Remote task: canceled", "远程任务：已取消"},
	msgCancelUnconfirmed:      {"Cancel result unconfirmed: the request failed or timed out; it will not be retried automatically.", "取消结果未确认：请求失败或超时，不会自动重试"},
	msgCancelError:            {"Cancel request error: %s", "取消请求错误：%s"},
	msgCancelStillWorking:     {"Remote task: cancel requested; the agent reports it is still working (%s)", "远程任务：已请求取消，远端仍在执行（%s）"},
	msgCancelAlreadyCompleted: {"Remote task: already completed before the cancel arrived", "远程任务：取消到达前已完成"},
	msgCancelAlreadyEnded:     {"Remote task: already ended (%s)", "远程任务：已结束（%s）"},
	msgCancelNotCancelable:    {"Remote task: not cancelable (%s)", "远程任务：不可取消（%s）"},
	msgCancelNotFound:         {"Remote task: not found by the agent", "远程任务：远端未找到该任务"},
	msgSubmissionUnknown:      {"Remote task: submission result unknown (no taskId was received); no cancel sent, nothing resubmitted", "远程任务：提交结果未知（未收到 taskId），不取消、不重新提交"},
	msgSending:                {"Sending to %s (%s): %s", "正在发送到 %s（%s）：%s"},
	msgTaskAccepted:           {"Remote task %s accepted (context %s)", "远程任务 %s 已接收（上下文 %s）"},
	msgStatus:                 {"Remote task: %s", "远程任务：%s"},
	msgArtifact:               {"Result %s: %s", "结果 %s：%s"},
	msgStreamLost:             {"Remote task: update stream lost (%s); reading the task instead of resubmitting", "远程任务：更新流中断（%s），改为读取原任务，不重新提交"},
	msgReadingTask:            {"Remote task %s: reading its current state", "远程任务 %s：读取当前状态"},
	msgSubscribing:            {"Remote task %s: following its updates", "远程任务 %s：订阅更新"},
	msgCompleted:              {"Remote task: completed", "远程任务：已完成"},
	msgReused:                 {"Remote task %s: reusing the saved result", "远程任务 %s：复用已保存的结果"},
	msgFileSaved:              {"Saved file %s (%s, %d bytes)", "已保存文件 %s（%s，%d 字节）"},
	msgFileNotKept:            {"File %s not kept: no output_files field is configured", "文件 %s 未保存：未配置 output_files 字段"},
	msgURLNotDownloaded:       {"File link not downloaded: %s", "文件链接未下载：%s"},
	msgResuming:               {"Resuming remote task %s", "恢复远程任务 %s"},
	msgInterrupted:            {"Remote task needs %s: %s", "远程任务需要%s：%s"},
	msgQuiet:                  {"Remote task %s: no update for %v; the agent still answers, so Workrun keeps waiting", "远程任务 %s：%v 内没有更新；远端仍有应答，继续等待"},
}

// lang selects the wording: 0 English, 1 Simplified Chinese.
type lang int

// langOf maps a language tag ("en", "zh", "zh-Hans", "zh_CN.UTF-8") to a lang.
func langOf(tag string) lang {
	if strings.HasPrefix(strings.ToLower(tag), "zh") {
		return 1
	}
	return 0
}

// stateNamesZH are the Simplified Chinese names of the A2A task states, keyed
// by stateName's English word. English messages show that word itself.
var stateNamesZH = map[string]string{
	"submitted":      "已提交",
	"working":        "执行中",
	"completed":      "已完成",
	"failed":         "已失败",
	"canceled":       "已取消",
	"rejected":       "已拒绝",
	"input-required": "等待输入",
	"auth-required":  "等待认证",
	"unknown":        "未知",
	"unspecified":    "未知",
}

// state names a task state for a node message: "completed" in English,
// "已完成" in Chinese. A state this version does not know keeps its wire word.
func (l lang) state(s a2a.TaskState) string {
	name := stateName(s)
	if l == 1 {
		if zh, ok := stateNamesZH[name]; ok {
			return zh
		}
	}
	return name
}

func (l lang) text(id msgID, args ...any) string {
	t := texts[id][l]
	if len(args) == 0 {
		return t
	}
	return fmt.Sprintf(t, args...)
}

// EnvLanguage reads the language from the environment the way gettext does
// (LANGUAGE, then LC_ALL, LC_MESSAGES, LANG); the GUI's language switch sets
// LANGUAGE, so passing EnvLanguage as Deps.Language follows it, and the
// headless runner follows the user's locale.
func EnvLanguage() string {
	return workrun.LanguageTag()
}
