package mcpserve

import "workrun/workrun"

// The words a caller or a person reads (docs/conventions.md §9). The wire
// carries English (a caller's model reads it); the catalogue has Chinese
// for the window and terminal that show them.
type msgID string

const (
	msgForbiddenHost    msgID = "mcpserve.forbidden_host"
	msgTokenRequired    msgID = "mcpserve.token_required"
	msgRunFailed        msgID = "mcpserve.run_failed"
	msgRunStopped       msgID = "mcpserve.run_stopped"
	msgRunNotFinal      msgID = "mcpserve.run_not_final"
	msgQuestionNoPrompt msgID = "mcpserve.question_no_prompt"
	msgNoElicitation    msgID = "mcpserve.no_elicitation"
	msgNotAnswered      msgID = "mcpserve.not_answered"
	msgInstructions     msgID = "mcpserve.instructions"
)

var texts = workrun.NewCatalog(map[msgID][2]string{
	msgForbiddenHost: {"Forbidden: the Host or Origin header is not this local server",
		"禁止访问：Host 或 Origin 请求头不是本机服务器"},
	msgTokenRequired: {"a bearer token is required (workrun serve token create LABEL)",
		"需要持有令牌（workrun serve token create LABEL）"},
	msgRunFailed:  {"the workflow failed: %s", "工作流失败：%s"},
	msgRunStopped: {"the workflow run was stopped", "工作流运行已停止"},
	msgRunNotFinal: {"the workflow run has not ended yet",
		"工作流运行尚未结束"},
	msgQuestionNoPrompt: {"node %s waits for an answer", "节点 %s 正在等待回答"},
	msgNoElicitation: {"the workflow asks: %q. This client declared no elicitation, so it cannot answer here; answer it in the Workrun window (the run waits), or call again from a client that supports elicitation",
		"工作流提问：%q。此客户端未声明 elicitation，无法在此回答；请在 Workrun 窗口中回答（运行会等待），或用支持 elicitation 的客户端再次调用"},
	msgNotAnswered: {"the question %q was not answered", "问题 %q 没有得到回答"},
	msgInstructions: {"Each tool is a published Workrun workflow. A short run answers at once; a long one becomes a task when the client takes tasks. A Human Review or Ask Human node asks the caller (elicitation).",
		"每个工具都是一个已发布的 Workrun 工作流。短的运行立即回答；客户端支持任务时，长的运行成为任务。人工审核或询问人节点会向调用方提问（elicitation）。"},
})
