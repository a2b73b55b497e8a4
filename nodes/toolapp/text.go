package toolapp

import "workrun/workrun"

// msgID names one node message or failure reason; texts holds its English
// and Simplified Chinese wording (docs/conventions.md §9).
type msgID string

const (
	msgStarting      msgID = "toolapp.starting"
	msgStartFailed   msgID = "toolapp.start_failed"
	msgConnectFailed msgID = "toolapp.connect_failed"
	msgStarted       msgID = "toolapp.started"
	msgCalling       msgID = "toolapp.calling"
	msgTaskAccepted  msgID = "toolapp.task_accepted"
	msgTaskStatus    msgID = "toolapp.task_status"
	msgTaskFailed    msgID = "toolapp.task_failed"
	msgInputRequired msgID = "toolapp.input_required"
	msgProgress      msgID = "toolapp.progress"
	msgStderr        msgID = "toolapp.stderr"
	msgCompleted     msgID = "toolapp.completed"
	msgReused        msgID = "toolapp.reused"
	msgRecalling     msgID = "toolapp.recalling"
	msgResultUnknown msgID = "toolapp.result_unknown"
	msgEndedBefore   msgID = "toolapp.ended_before"
	msgNoTool        msgID = "toolapp.no_tool"
	msgToolError     msgID = "toolapp.tool_error"
	msgNoAnswer      msgID = "toolapp.no_answer"
	msgCallFailed    msgID = "toolapp.call_failed"
)

// Configuration errors Compile returns.
const (
	msgCfgCommand     msgID = "toolapp.cfg_command"
	msgCfgTool        msgID = "toolapp.cfg_tool"
	msgCfgEnvName     msgID = "toolapp.cfg_env_name"
	msgCfgEnvNUL      msgID = "toolapp.cfg_env_nul"
	msgCfgSecretName  msgID = "toolapp.cfg_secret_name"
	msgCfgCleanupArgs msgID = "toolapp.cfg_cleanup_args"
	msgCfgNoField     msgID = "toolapp.cfg_no_field"
	msgCfgFileAlone   msgID = "toolapp.cfg_file_alone"
	msgCfgFieldType   msgID = "toolapp.cfg_field_type"
	msgCfgFieldUsed   msgID = "toolapp.cfg_field_used"
)

var texts = workrun.NewCatalog(map[msgID][2]string{
	msgStarting:      {"Starting the tool program %s", "正在启动工具程序 %s"},
	msgStartFailed:   {"the tool program could not be started: %s", "无法启动工具程序：%s"},
	msgConnectFailed: {"the tool program %s did not answer as an MCP server: %s", "工具程序 %s 未按 MCP 服务器应答：%s"},
	msgStarted:       {"Tool program %s running (pid %d, MCP %s)", "工具程序 %s 正在运行（pid %d，MCP %s）"},
	msgCalling:       {"Calling tool %s (%s): %s", "正在调用工具 %s（%s）：%s"},
	msgTaskAccepted:  {"Task %s accepted by the tool program", "工具程序已接收任务 %s"},
	msgTaskStatus:    {"Task: %s%s", "任务：%s%s"},
	msgTaskFailed:    {"task %s %s: %s", "任务 %s %s：%s"},
	msgInputRequired: {"task %s needs input, which Workrun cannot give a local program: %s", "任务 %s 需要输入，Workrun 无法为本地程序提供：%s"},
	msgProgress:      {"Progress: %s", "进度：%s"},
	msgStderr:        {"stderr: %s", "标准错误：%s"},
	msgCompleted:     {"Tool %s: completed", "工具 %s：已完成"},
	msgReused:        {"Tool %s: reusing the saved result", "工具 %s：复用已保存的结果"},
	msgRecalling:     {"The tool program was stopped with Workrun during the call; tool %s is annotated idempotentHint: true, so it is called again", "调用期间工具程序随 Workrun 一起停止；工具 %s 标注了 idempotentHint: true，因此再次调用"},
	msgResultUnknown: {"the tool program was stopped with Workrun; result unknown (tool %s is not annotated idempotentHint: true, so it is not called again)", "工具程序随 Workrun 一起停止；结果未知（工具 %s 未标注 idempotentHint: true，因此不再调用）"},
	msgEndedBefore:   {"tool %s already ended in an earlier attempt: %s", "工具 %s 已在之前的尝试中结束：%s"},
	msgNoTool:        {"the tool program has no tool %q (it offers: %s); nothing was called", "工具程序没有工具 %q（可用：%s）；未调用任何工具"},
	msgToolError:     {"tool %s reported an error: %s", "工具 %s 报告错误：%s"},
	msgNoAnswer:      {"tool %s gave no answer within %s; the tool program was stopped", "工具 %s 在 %s 内未应答；工具程序已停止"},
	msgCallFailed:    {"the call failed: %s", "调用失败：%s"},

	// Editor labels (describe.go).
	msgKindLabel:        {"Tool App", "工具应用"},
	msgLabelCommand:     {"Program (one argument per line)", "程序（每行一个参数）"},
	msgLabelEnv:         {"Environment (NAME=value; no secrets)", "环境变量（名称=值；不要放密钥）"},
	msgLabelSecretEnv:   {"Secret environment (NAME=saved credential)", "密钥环境变量（名称=已保存的凭据）"},
	msgLabelCwd:         {"Working directory", "工作目录"},
	msgLabelTool:        {"Tool", "工具"},
	msgHintTool:         {"test the program, then choose", "先测试程序，再选择"},
	msgLabelArguments:   {"Arguments", "参数"},
	msgLabelOutput:      {"Text result into field", "文本结果写入字段"},
	msgLabelOutputJSON:  {"Structured result into field", "结构化结果写入字段"},
	msgLabelOutputFiles: {"Result files into field", "结果文件写入字段"},
	msgLabelCleanupTool: {"Cleanup tool on failure", "失败时的清理工具"},
	msgLabelCleanupArgs: {"Cleanup tool's arguments (a JSON object; templates may name this node's outputs)", "清理工具的参数（JSON 对象；模板可引用本节点的输出）"},
	msgLabelTimeout:     {"Request timeout (%d–%d s)", "请求超时（%d–%d 秒）"},

	msgCfgCommand:     {"tool app config: command must name a program, e.g. [\"npx\", \"-y\", \"@modelcontextprotocol/server-filesystem\", \"/tmp\"]", "工具应用配置：command 必须指明一个程序，例如 [\"npx\", \"-y\", \"@modelcontextprotocol/server-filesystem\", \"/tmp\"]"},
	msgCfgTool:        {"tool app config: tool: name the tool to call", "工具应用配置：tool：请指明要调用的工具"},
	msgCfgEnvName:     {"tool app config: env: %q is not a valid environment variable name (letters, digits and _, not starting with a digit)", "工具应用配置：env：%q 不是有效的环境变量名（只能用字母、数字和 _，且不能以数字开头）"},
	msgCfgEnvNUL:      {"tool app config: env: the value of %s contains a NUL byte", "工具应用配置：env：%s 的值含有 NUL 字节"},
	msgCfgSecretName:  {"tool app config: secret_env: %s must name a saved credential", "工具应用配置：secret_env：%s 必须指明一个已保存的凭据"},
	msgCfgCleanupArgs: {"tool app config: cleanup_arguments without cleanup_tool", "工具应用配置：有 cleanup_arguments 但没有 cleanup_tool"},
	msgCfgNoField:     {"tool app config: %s: State has no field %q", "工具应用配置：%s：状态中没有字段 %q"},
	msgCfgFileAlone:   {"tool app config: %s: file field %q can only be sent alone, as \"{{%s}}\"", "工具应用配置：%s：文件字段 %q 只能单独发送，写作 \"{{%s}}\""},
	msgCfgFieldType:   {"tool app config: %s: field %q is %s; expected %s", "工具应用配置：%s：字段 %q 是 %s；应为 %s"},
	msgCfgFieldUsed:   {"tool app config: %s: field %q is already used in %s", "工具应用配置：%s：字段 %q 已在 %s 中使用"},
})
