package ui

import (
	"workrun/workrun"
)

// The wording of Workflow → Publish as agent… and of runs a caller
// started (docs/serve.md), in the window's language.
const (
	msgPubMenu       uiMsgID = "ui.pub_menu"
	msgPubItem       uiMsgID = "ui.pub_item"
	msgPubTitle      uiMsgID = "ui.pub_title"
	msgPubOn         uiMsgID = "ui.pub_on"
	msgPubName       uiMsgID = "ui.pub_name"
	msgPubNameHint   uiMsgID = "ui.pub_name_hint"
	msgPubDesc       uiMsgID = "ui.pub_desc"
	msgPubDescHint   uiMsgID = "ui.pub_desc_hint"
	msgPubInputs     uiMsgID = "ui.pub_inputs"
	msgPubNoFields   uiMsgID = "ui.pub_no_fields"
	msgPubTextInput  uiMsgID = "ui.pub_text_input"
	msgPubTextAuto   uiMsgID = "ui.pub_text_auto"
	msgPubOutputs    uiMsgID = "ui.pub_outputs"
	msgPubAddr       uiMsgID = "ui.pub_addr"
	msgPubURL        uiMsgID = "ui.pub_url"
	msgPubCopy       uiMsgID = "ui.pub_copy"
	msgPubServer     uiMsgID = "ui.pub_server"
	msgPubCheck      uiMsgID = "ui.pub_check"
	msgPubChecking   uiMsgID = "ui.pub_checking"
	msgPubRunning    uiMsgID = "ui.pub_running"
	msgPubNotRunning uiMsgID = "ui.pub_not_running"
	msgPubCommand    uiMsgID = "ui.pub_command"
	msgPubSave       uiMsgID = "ui.pub_save"
	msgPubCancel     uiMsgID = "ui.pub_cancel"
	msgPubBadAddr    uiMsgID = "ui.pub_bad_addr"
	msgPubHere       uiMsgID = "ui.pub_here"
	msgPubHereOn     uiMsgID = "ui.pub_here_on"
	msgPubHereNone   uiMsgID = "ui.pub_here_none"
	msgPubHereFailed uiMsgID = "ui.pub_here_failed"
	msgPubHereInUse  uiMsgID = "ui.pub_here_in_use"
	msgPubHereStatus uiMsgID = "ui.pub_here_status"
	msgCalledBy      uiMsgID = "ui.called_by"
	msgCalledByAny   uiMsgID = "ui.called_by_any"
)

var pubTexts = workrun.NewCatalog(map[uiMsgID][2]string{
	msgPubMenu:       {"Workflow", "工作流"},
	msgPubItem:       {"Publish as agent…", "发布为智能体…"},
	msgPubTitle:      {"Publish as agent", "发布为智能体"},
	msgPubOn:         {"Publish this workflow: other programs can call it as an A2A agent", "发布此工作流：其他程序可以把它当作A2A智能体调用"},
	msgPubName:       {"Agent name", "智能体名称"},
	msgPubNameHint:   {"%s (the workflow's name)", "%s（工作流名称）"},
	msgPubDesc:       {"Description", "说明"},
	msgPubDescHint:   {"What the agent does, for its callers", "告诉调用者这个智能体做什么"},
	msgPubInputs:     {"Caller fills", "调用者填写"},
	msgPubNoFields:   {"This workflow has no State fields yet: add them in the workflow's inspector.", "此工作流还没有状态字段：请在工作流检查器中添加。"},
	msgPubTextInput:  {"Text message fills", "文本消息填入"},
	msgPubTextAuto:   {"(the one text input, if there is one)", "（唯一的文本输入，如果有）"},
	msgPubOutputs:    {"Returned", "返回字段"},
	msgPubAddr:       {"Serve on (host:port)", "服务地址（主机:端口）"},
	msgPubURL:        {"Agent URL", "智能体URL"},
	msgPubCopy:       {"Copy", "复制"},
	msgPubServer:     {"Server", "服务器"},
	msgPubCheck:      {"Check", "检查"},
	msgPubChecking:   {"checking…", "正在检查…"},
	msgPubRunning:    {"running: the agent %q answers at this URL", "运行中：智能体“%s”在此URL应答"},
	msgPubNotRunning: {"not running here: no agent answers at this URL. Save, then start the server with the command below (one started before Save serves this agent after a restart).", "未在此运行：此URL没有智能体应答。请先保存，再用下面的命令启动服务器（保存前启动的服务器要重启后才提供此智能体）。"},
	msgPubCommand:    {"Start it with: workrun serve --addr %s", "启动命令：workrun serve --addr %s"},
	msgPubSave:       {"Save", "保存"},
	msgPubCancel:     {"Cancel", "取消"},
	msgPubBadAddr:    {"Type the address as HOST:PORT with a port, e.g. 127.0.0.1:8470: without one the server takes any free port and the URL is not known before it starts.", "请按“主机:端口”填写地址并写明端口，例如127.0.0.1:8470：不写端口时服务器会用任意空闲端口，启动前无法知道URL。"},
	msgPubHere:       {"Serve from this window while it is open (A2A agents, MCP tools and webhooks at this address)", "窗口打开期间由本窗口提供服务（在此地址提供A2A智能体、MCP工具和Webhook）"},
	msgPubHereOn:     {"Serving from this window:\n%s", "本窗口正在提供服务：\n%s"},
	msgPubHereNone:   {"Serving from this window once a workflow is published and saved.", "发布并保存工作流后，本窗口即开始提供服务。"},
	msgPubHereFailed: {"This window could not serve at %s: %s", "本窗口无法在 %s 提供服务：%s"},
	msgPubHereInUse:  {"This window could not serve at %s: the address is in use (is `workrun serve` already running there? It serves the same workflows).", "本窗口无法在 %s 提供服务：地址已被占用（是否已有 `workrun serve` 在此运行？它提供的是同样的工作流）。"},
	msgPubHereStatus: {"Serving published workflows at %s", "正在 %s 提供已发布的工作流"},
	msgCalledBy:      {"called by %s", "调用者：%s"},
	msgCalledByAny:   {"called by an agent", "由智能体调用"},
})

// pubText renders one entry in the window's language.
func pubText(loc workrun.Localizer, id uiMsgID, args ...any) string {
	return pubTexts.Msg(id, args...).In(loc.Messages())
}
