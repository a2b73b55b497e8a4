package remotemcp

import "workrun/workrun"

// Configuration errors Compile returns: the window shows them in the
// reader's language (workrun.Problem.In); the English is what the CLI prints.
const (
	msgCfgURLRequired msgID = "remotemcp.cfg_url_required"
	msgCfgDecode      msgID = "remotemcp.cfg_decode"
	msgCfgTool        msgID = "remotemcp.cfg_tool"
	msgCfgTask        msgID = "remotemcp.cfg_task"
	msgCfgNoField     msgID = "remotemcp.cfg_no_field"
	msgCfgFileAlone   msgID = "remotemcp.cfg_file_alone"
	msgCfgFieldType   msgID = "remotemcp.cfg_field_type"
	msgCfgFieldUsed   msgID = "remotemcp.cfg_field_used"
)

var configTexts = workrun.NewCatalog(map[msgID][2]string{
	msgCfgURLRequired: {"remote MCP config: url is required", "远程 MCP 配置：必须填写 url"},
	msgCfgDecode:      {"remote MCP config: %v", "远程 MCP 配置有误：%v"},
	msgCfgTool:        {"remote MCP config: tool: name the tool to call", "远程 MCP 配置：tool：请指明要调用的工具"},
	msgCfgTask:        {"remote MCP config: task: %q is not auto, always or never", "远程 MCP 配置：task：%q 不是 auto、always 或 never"},
	msgCfgNoField:     {"remote MCP config: %s: State has no field %q", "远程 MCP 配置：%s：状态中没有字段 %q"},
	msgCfgFileAlone:   {"remote MCP config: %s: file field %q can only be sent alone, as \"{{%s}}\"", "远程 MCP 配置：%s：文件字段 %q 只能单独发送，写作 \"{{%s}}\""},
	msgCfgFieldType:   {"remote MCP config: %s: field %q is %s; expected %s", "远程 MCP 配置：%s：字段 %q 是 %s；应为 %s"},
	msgCfgFieldUsed:   {"remote MCP config: %s: field %q is already used in %s", "远程 MCP 配置：%s：字段 %q 已在 %s 中使用"},
})
