package workrun

// msgID names one engine-written failure reason or node message; texts holds
// its English and Simplified Chinese wording (docs/conventions.md §9). The English texts are
// the ones tests and the CLI assert; keep them byte-identical.
type msgID string

const (
	msgStartedByPerson   msgID = "workrun.started_by_person"
	msgStartedByA2A      msgID = "workrun.started_by_a2a"
	msgStartedByMCP      msgID = "workrun.started_by_mcp"
	msgStartedBySchedule msgID = "workrun.started_by_schedule"
	msgStartedByWebhook  msgID = "workrun.started_by_webhook"
	msgStartedByLabel    msgID = "workrun.started_by_label"
	msgStoppedByUser     msgID = "workrun.stopped_by_user"
	msgAppExited         msgID = "workrun.app_exited"
	msgSaveFailed        msgID = "workrun.save_failed"
	msgNeverReady        msgID = "workrun.never_ready"
	msgNodePanicked      msgID = "workrun.node_panicked"
	msgNoBranch          msgID = "workrun.no_branch"
	msgUndeclaredWrite   msgID = "workrun.undeclared_write"
	msgBadFieldValue     msgID = "workrun.bad_field_value"
	msgNodeAppExited     msgID = "workrun.node_app_exited"
	msgNodeNotStopped    msgID = "workrun.node_not_stopped"
	msgNodeStopped       msgID = "workrun.node_stopped"
	msgWantString        msgID = "workrun.want_string"
	msgWantNumber        msgID = "workrun.want_number"
	msgWantBoolean       msgID = "workrun.want_boolean"
	msgWantFilesItem     msgID = "workrun.want_files_item"
	msgWantFiles         msgID = "workrun.want_files"
	msgWantJSON          msgID = "workrun.want_j_s_o_n"
	msgUnknownType       msgID = "workrun.unknown_type"
	msgHookPanicked      msgID = "workrun.hook_panicked"
	msgRearmPanicked     msgID = "workrun.rearm_panicked"
	msgNodesNotSaved     msgID = "workrun.nodes_not_saved"
	msgRunNotSaved       msgID = "workrun.run_not_saved"
	msgLineNotSaved      msgID = "workrun.line_not_saved"
	msgNoRearm           msgID = "workrun.no_rearm"
	msgStoppedNode       msgID = "workrun.stopped_node"
	msgStopRequestFailed msgID = "workrun.stop_request_failed"

	// Validate's problems. A list joined with " or " comes twice, the
	// second time joined in Chinese ("或"); each language names the one it
	// uses by index.
	msgAtNodeEdge       msgID = "workrun.at_node_edge"
	msgAtNode           msgID = "workrun.at_node"
	msgAtEdge           msgID = "workrun.at_edge"
	msgNameRune         msgID = "workrun.name_rune"
	msgNameBytes        msgID = "workrun.name_bytes"
	msgFieldRune        msgID = "workrun.field_rune"
	msgFieldBytes       msgID = "workrun.field_bytes"
	msgFieldName        msgID = "workrun.field_name"
	msgFieldType        msgID = "workrun.field_type"
	msgNoID             msgID = "workrun.no_id"
	msgDupID            msgID = "workrun.dup_id"
	msgIDRune           msgID = "workrun.id_rune"
	msgIDBytes          msgID = "workrun.id_bytes"
	msgUnknownNodeType  msgID = "workrun.unknown_node_type"
	msgReadsUndeclared  msgID = "workrun.reads_undeclared"
	msgWritesUndeclared msgID = "workrun.writes_undeclared"
	msgNoStart          msgID = "workrun.no_start"
	msgNoNodes          msgID = "workrun.no_nodes"
	msgTwoStarts        msgID = "workrun.two_starts"
	msgEdgeRune         msgID = "workrun.edge_rune"
	msgEdgeBytes        msgID = "workrun.edge_bytes"
	msgEdgeFromMissing  msgID = "workrun.edge_from_missing"
	msgEdgeToMissing    msgID = "workrun.edge_to_missing"
	msgEdgeIntoStart    msgID = "workrun.edge_into_start"
	msgEdgeCycle        msgID = "workrun.edge_cycle"
	msgEdgeDup          msgID = "workrun.edge_dup"
	msgEdgeNeedsWhen    msgID = "workrun.edge_needs_when"
	msgEdgeStrayWhen    msgID = "workrun.edge_stray_when"
	msgUnreachable      msgID = "workrun.unreachable"
	msgReadsUnprovided  msgID = "workrun.reads_unprovided"
	msgConfigWrapped    msgID = "workrun.config_wrapped"
	msgConfigType       msgID = "workrun.config_type"
	msgConfigTrailing   msgID = "workrun.config_trailing"
	msgConfigUnknownKey msgID = "workrun.config_unknown_key"

	// Failure handling (policy.go) and runs from a node (from.go).
	msgRetryAttempts        msgID = "workrun.retry_attempts"
	msgRetryWait            msgID = "workrun.retry_wait"
	msgRetryBackoff         msgID = "workrun.retry_backoff"
	msgOnErrorValue         msgID = "workrun.on_error_value"
	msgErrorFieldUnused     msgID = "workrun.error_field_unused"
	msgErrorFieldUndeclared msgID = "workrun.error_field_undeclared"
	msgErrorFieldType       msgID = "workrun.error_field_type"
	msgDeadlineLocal        msgID = "workrun.deadline_local"
	msgDeadlineRange        msgID = "workrun.deadline_range"
	msgEdgePort             msgID = "workrun.edge_port"
	msgEdgePortWhen         msgID = "workrun.edge_port_when"
	msgEdgeErrorNoBranch    msgID = "workrun.edge_error_no_branch"
	msgBranchNoErrorEdge    msgID = "workrun.branch_no_error_edge"
	msgAttemptFailed        msgID = "workrun.attempt_failed"
	msgAttemptFailedNow     msgID = "workrun.attempt_failed_now"
	msgAttemptNotRetried    msgID = "workrun.attempt_not_retried"
	msgErrorHandled         msgID = "workrun.error_handled"
	msgDeadlinePassed       msgID = "workrun.deadline_passed"
	msgDeadlineStarted      msgID = "workrun.deadline_started"
	msgPinnedFrom           msgID = "workrun.pinned_from"
	msgPinnedByHand         msgID = "workrun.pinned_by_hand"
	msgNotTested            msgID = "workrun.not_tested"
	msgPinNoOutputs         msgID = "workrun.pin_no_outputs"
	msgPinField             msgID = "workrun.pin_field"
	msgPinValue             msgID = "workrun.pin_value"
	msgPinOtherWorkflow     msgID = "workrun.pin_other_workflow"
	msgPinUnknownNode       msgID = "workrun.pin_unknown_node"
	msgPinChosen            msgID = "workrun.pin_chosen"
	msgPinNotPinned         msgID = "workrun.pin_not_pinned"
)

var texts = NewCatalog(map[msgID][2]string{
	msgStartedByPerson:   {"a person", "用户"},
	msgStartedByA2A:      {"A2A caller", "A2A 调用方"},
	msgStartedByMCP:      {"MCP caller", "MCP 调用方"},
	msgStartedBySchedule: {"schedule", "定时触发"},
	msgStartedByWebhook:  {"webhook", "Webhook 触发"},
	msgStartedByLabel:    {"%s (%s)", "%s（%s）"},
	msgStoppedByUser:     {"stopped by the user", "已被用户停止"},
	msgStopRequestFailed: {"cannot read or clear stop requests: %v", "无法读取或清除停止请求：%v"},
	msgAppExited:         {"the application exited while the run was going on", "运行期间应用程序已退出"},
	msgSaveFailed:        {"saving the run failed: %v", "保存运行失败：%v"},
	msgNeverReady:        {"the run could not go on: some nodes never became ready", "运行无法继续：有些节点始终未能就绪"},
	msgNodePanicked:      {"node panicked: %v", "节点崩溃：%v"},
	msgNoBranch:          {"picked no branch (got %q)", "未选择任何分支（得到 %q）"},
	msgUndeclaredWrite:   {"write not permitted: wrote field %q, which the node does not declare it writes", "不允许写入：写入了字段 %q，但节点未声明会写入该字段"},
	msgBadFieldValue:     {"write not permitted: field %q: %v", "不允许写入：字段 %q：%v"},
	msgNodeAppExited:     {"the application exited", "应用程序已退出"},
	msgNodeNotStopped:    {"did not stop within %s", "未能在 %s 内停止"},
	msgNodeStopped:       {"the run failed or was stopped while this node ran", "运行失败或被停止时本节点仍在执行"},
	// NormalizeValue: they reach a failure reason through msgBadFieldValue.
	msgWantString:    {"want %s (a string), got %T", "应为 %s（字符串），实际为 %T"},
	msgWantNumber:    {"want a number, got %T", "应为数字，实际为 %T"},
	msgWantBoolean:   {"want a boolean, got %T", "应为布尔值，实际为 %T"},
	msgWantFilesItem: {"want a list of artifact ids, found %T", "应为产物 ID 列表，其中有 %T"},
	msgWantFiles:     {"want a list of artifact ids, got %T", "应为产物 ID 列表，实际为 %T"},
	msgWantJSON:      {"want a JSON value: %v", "应为 JSON 值：%v"},
	msgUnknownType:   {"unknown field type %q", "未知的字段类型 %q"},
	msgHookPanicked:  {"the abort work panicked: %v", "中止处理崩溃：%v"},
	msgRearmPanicked: {"registering the abort work again panicked: %v", "重新登记中止处理时崩溃：%v"},
	msgNodesNotSaved: {"saving the final node records failed: %v", "保存节点的最终记录失败：%v"},
	msgRunNotSaved:   {"saving the run as %s failed: %v", "将运行保存为 %s 失败：%v"},
	msgLineNotSaved:  {"saving a message of this node failed: %v", "保存该节点的一条消息失败：%v"},
	msgNoRearm:       {"the abort work of the run's nodes could not be registered again: %v", "无法重新登记各节点的中止处理：%v"},
	msgStoppedNode:   {"stopped while interrupted", "在中断期间被停止"},

	msgAtNodeEdge:       {"node %q, edge %d: %s", "节点 %q，连线 %d：%s"},
	msgAtNode:           {"node %q: %s", "节点 %q：%s"},
	msgAtEdge:           {"edge %d: %s", "连线 %d：%s"},
	msgNameRune:         {"the workflow name %q contains an invisible or control character (%s)", "工作流名称 %q 含有不可见字符或控制字符（%s）"},
	msgNameBytes:        {"the workflow name %q contains bytes that are not UTF-8", "工作流名称 %q 含有非 UTF-8 字节"},
	msgFieldRune:        {"state field %q: a name must not contain an invisible or control character (%s)", "状态字段 %q：名称不能含有不可见字符或控制字符（%s）"},
	msgFieldBytes:       {"state field %q: a name must not contain bytes that are not UTF-8", "状态字段 %q：名称不能含有非 UTF-8 字节"},
	msgFieldName:        {"state field %q: a name must not be empty or contain spaces or braces", "状态字段 %q：名称不能为空，也不能含有空格或花括号"},
	msgFieldType:        {"state field %q: unknown type %q (use text, number, boolean, json, file or files)", "状态字段 %q：未知类型 %q（可用 text、number、boolean、json、file 或 files）"},
	msgNoID:             {"a node of type %q has no id", "一个 %q 类型的节点没有 ID"},
	msgDupID:            {"duplicate node id", "节点 ID 重复"},
	msgIDRune:           {"a node id must not contain an invisible or control character (%s)", "节点 ID 不能含有不可见字符或控制字符（%s）"},
	msgIDBytes:          {"a node id must not contain bytes that are not UTF-8", "节点 ID 不能含有非 UTF-8 字节"},
	msgUnknownNodeType:  {"unknown node type %q", "未知的节点类型 %q"},
	msgReadsUndeclared:  {"reads field %q, which is not declared in State", "读取字段 %q，但状态中未声明该字段"},
	msgWritesUndeclared: {"writes field %q, which is not declared in State", "写入字段 %q，但状态中未声明该字段"},
	msgNoStart:          {"the workflow has no start node", "工作流没有开始节点"},
	msgNoNodes:          {"the workflow has no nodes", "工作流没有任何节点"},
	msgTwoStarts:        {"a workflow has exactly one start node (%q is the first)", "工作流只能有一个开始节点（第一个是 %q）"},
	msgEdgeRune:         {"edge %s %q contains an invisible or control character (%s)", "连线的 %s %q 含有不可见字符或控制字符（%s）"},
	msgEdgeBytes:        {"edge %s %q contains bytes that are not UTF-8", "连线的 %s %q 含有非 UTF-8 字节"},
	msgEdgeFromMissing:  {"edge from missing node %q", "连线的起点节点 %q 不存在"},
	msgEdgeToMissing:    {"edge to missing node %q", "连线的终点节点 %q 不存在"},
	msgEdgeIntoStart:    {"an edge leads into the start node", "有连线指向开始节点"},
	msgEdgeCycle:        {"edge %s → %s makes a cycle", "连线 %s → %s 构成了环"},
	msgEdgeDup:          {"duplicate edge %s → %s", "连线 %s → %s 重复"},
	msgEdgeNeedsWhen:    {"edge %[1]s → %[2]s must say when it is followed (when: %[3]s)", "连线 %[1]s → %[2]s 须注明何时走这条线（when：%[4]s）"},
	msgEdgeStrayWhen:    {"edge %s → %s has when %q, but only a condition node picks a branch", "连线 %s → %s 设了 when %q，但只有条件节点才选择分支"},
	msgUnreachable:      {"not reachable from the start node %q", "从开始节点 %q 无法到达"},
	msgReadsUnprovided:  {"reads field %q, but no node before it provides it", "读取字段 %q，但它之前没有节点提供该字段"},
	// DecodeConfig.
	msgConfigWrapped:  {"config: %v", "配置有误：%v"},
	msgConfigType:     {"config: %[1]q must be %[2]s, not a JSON %[3]s", "配置：%[1]q 应为%[4]s，而不是 JSON %[3]s"},
	msgConfigTrailing: {"config: trailing data after the object", "配置：对象之后还有多余的数据"},
	// The English stays the decoder's own words; Chinese names the key.
	msgConfigUnknownKey: {"config: json: unknown field %s", "配置：未知的键 %s"},

	msgRetryAttempts:        {"retry: max_attempts must be 1–%[2]d (got %[1]d)", "重试：max_attempts 须在 1–%[2]d 之间（得到 %[1]d）"},
	msgRetryWait:            {"retry: wait_seconds must be 0–%[2]d (got %[1]s)", "重试：wait_seconds 须在 0–%[2]d 之间（得到 %[1]s）"},
	msgRetryBackoff:         {"retry: backoff must be fixed or exponential (got %q)", "重试：backoff 须为 fixed 或 exponential（得到 %q）"},
	msgOnErrorValue:         {"on_error must be fail, continue or branch (got %q)", "on_error 须为 fail、continue 或 branch（得到 %q）"},
	msgErrorFieldUnused:     {"error_field %q needs on_error: continue or branch", "error_field %q 需要 on_error 为 continue 或 branch"},
	msgErrorFieldUndeclared: {"error_field %q is not declared in State", "error_field %q 未在状态中声明"},
	msgErrorFieldType:       {"error_field %q must be a text field (it is %s)", "error_field %q 须为文本字段（它是 %s）"},
	msgDeadlineLocal:        {"deadline_seconds is only for remote nodes (Remote Agent, Remote MCP Tool)", "deadline_seconds 只适用于远程节点（远程智能体、远程 MCP 工具）"},
	msgDeadlineRange:        {"deadline_seconds must be 1–%[2]d (got %[1]d)", "deadline_seconds 须在 1–%[2]d 之间（得到 %[1]d）"},
	msgEdgePort:             {"edge %s → %s: port must be \"error\" or left out (got %q)", "连线 %s → %s：port 须为 \"error\" 或不写（得到 %q）"},
	msgEdgePortWhen:         {"edge %s → %s leaves the error port and takes no when", "连线 %s → %s 从错误端口出发，不能设 when"},
	msgEdgeErrorNoBranch:    {"edge %[1]s → %[2]s leaves the error port of %[1]s, which needs on_error: branch", "连线 %[1]s → %[2]s 从 %[1]s 的错误端口出发，该节点须设 on_error: branch"},
	msgBranchNoErrorEdge:    {"on_error: branch needs at least one edge from this node's error port", "on_error: branch 需要至少一条从该节点错误端口出发的连线"},
	msgAttemptFailed:        {"Attempt %s of %s failed: %s — trying again in %s", "第 %s 次尝试（共 %s 次）失败：%s；%s 后重试"},
	msgAttemptFailedNow:     {"Attempt %s of %s failed: %s — trying again now", "第 %s 次尝试（共 %s 次）失败：%s；立即重试"},
	msgAttemptNotRetried:    {"Attempt %s of %s failed and is not retried: the remote outcome is unknown (%s)", "第 %s 次尝试（共 %s 次）失败，不会重试：远程结果未知（%s）"},
	msgErrorHandled:         {"Failed (handled by on_error: %s), the run goes on: %s", "失败（已由 on_error: %s 处理），运行继续：%s"},
	msgDeadlinePassed:       {"deadline passed: the remote task did not end within %s of being accepted", "已过截止时间：远程任务在被接受后 %s 内未结束"},
	msgDeadlineStarted:      {"Deadline: the remote task must end by %s", "截止时间：远程任务须在 %s 前结束"},
	msgPinnedFrom:           {"Not run: outputs pinned from run %s", "未运行：输出取自运行 %s（已固定）"},
	msgPinnedByHand:         {"Not run: outputs typed by hand", "未运行：输出为手动填写（已固定）"},
	msgNotTested:            {"not run: only %s is being tested", "未运行：只测试 %s"},
	msgPinNoOutputs:         {"node %q did not finish in run %s: type its outputs or choose another run", "节点 %q 在运行 %s 中未完成：请手动填写它的输出，或选择另一次运行"},
	msgPinField:             {"pinned outputs of node %q: it does not write field %q", "节点 %q 的固定输出：该节点不写入字段 %q"},
	msgPinValue:             {"pinned outputs of node %q, field %q: %v", "节点 %q 的固定输出，字段 %q：%v"},
	msgPinOtherWorkflow:     {"run %s is a run of another workflow (%s)", "运行 %s 属于另一个工作流（%s）"},
	msgPinUnknownNode:       {"the workflow has no node %q", "工作流中没有节点 %q"},
	msgPinChosen:            {"node %q runs in this run; its outputs cannot be pinned", "节点 %q 在本次运行中执行，不能固定它的输出"},
	msgPinNotPinned:         {"node %q runs in this run (it comes after %s); its outputs cannot be pinned", "节点 %q 在本次运行中执行（它在 %s 之后），不能固定它的输出"},
})
