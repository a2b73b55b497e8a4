package workrun

// msgID names one engine-written failure reason or node message; texts holds
// its English and Simplified Chinese wording (docs/conventions.md §9). The English texts are
// the ones tests and the CLI assert; keep them byte-identical.
type msgID string

const (
	msgStoppedByUser   msgID = "workrun.stopped_by_user"
	msgAppExited       msgID = "workrun.app_exited"
	msgSaveFailed      msgID = "workrun.save_failed"
	msgNeverReady      msgID = "workrun.never_ready"
	msgNodePanicked    msgID = "workrun.node_panicked"
	msgNoBranch        msgID = "workrun.no_branch"
	msgUndeclaredWrite msgID = "workrun.undeclared_write"
	msgBadFieldValue   msgID = "workrun.bad_field_value"
	msgNodeAppExited   msgID = "workrun.node_app_exited"
	msgNodeNotStopped  msgID = "workrun.node_not_stopped"
	msgWantString      msgID = "workrun.want_string"
	msgWantNumber      msgID = "workrun.want_number"
	msgWantBoolean     msgID = "workrun.want_boolean"
	msgWantFilesItem   msgID = "workrun.want_files_item"
	msgWantFiles       msgID = "workrun.want_files"
	msgWantJSON        msgID = "workrun.want_j_s_o_n"
	msgUnknownType     msgID = "workrun.unknown_type"
	msgHookPanicked    msgID = "workrun.hook_panicked"
	msgRearmPanicked   msgID = "workrun.rearm_panicked"
	msgNodesNotSaved   msgID = "workrun.nodes_not_saved"
	msgRunNotSaved     msgID = "workrun.run_not_saved"
	msgLineNotSaved    msgID = "workrun.line_not_saved"
	msgNoRearm         msgID = "workrun.no_rearm"
	msgStoppedNode     msgID = "workrun.stopped_node"
)

var texts = NewCatalog(map[msgID][2]string{
	msgStoppedByUser:   {"stopped by the user", "已被用户停止"},
	msgAppExited:       {"the application exited while the run was going on", "运行期间应用程序已退出"},
	msgSaveFailed:      {"saving the run failed: %v", "保存运行失败：%v"},
	msgNeverReady:      {"the run could not go on: some nodes never became ready", "运行无法继续：有些节点始终未能就绪"},
	msgNodePanicked:    {"node panicked: %v", "节点崩溃：%v"},
	msgNoBranch:        {"picked no branch (got %q)", "未选择任何分支（得到 %q）"},
	msgUndeclaredWrite: {"write not permitted: wrote field %q, which the node does not declare it writes", "不允许写入：写入了字段 %q，但节点未声明会写入该字段"},
	msgBadFieldValue:   {"write not permitted: field %q: %v", "不允许写入：字段 %q：%v"},
	msgNodeAppExited:   {"the application exited", "应用程序已退出"},
	msgNodeNotStopped:  {"did not stop within %s", "未能在 %s 内停止"},
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
})
