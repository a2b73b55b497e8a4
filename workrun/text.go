package workrun

// msgID names one engine-written failure reason or node message; texts holds
// its English and Simplified Chinese wording (issue 7). The English texts are
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
})
