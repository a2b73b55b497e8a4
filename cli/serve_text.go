package cli

import "workrun/workrun"

// `workrun serve`'s words for a person (docs/conventions.md §9). The lines
// a program reads — "a2a URL", "push URL" and "ready" on stdout — are
// data, not text.
type serveMsg string

const (
	msgServeNoFlows      serveMsg = "cli.serve_no_flows"
	msgServeNonLoopback  serveMsg = "cli.serve_non_loopback"
	msgServeTLSPair      serveMsg = "cli.serve_tls_pair"
	msgServeStopping     serveMsg = "cli.serve_stopping"
	msgServeResumed      serveMsg = "cli.serve_resumed"
	msgServeTokensOn     serveMsg = "cli.serve_tokens_on"
	msgServeTokensOff    serveMsg = "cli.serve_tokens_off"
	msgServeTokenCreated serveMsg = "cli.serve_token_created"
	msgServeTokenNone    serveMsg = "cli.serve_token_none"
	msgServeTokenRevoked serveMsg = "cli.serve_token_revoked"
	msgServeNoKeyring    serveMsg = "cli.serve_no_keyring"
	msgServePublicURL    serveMsg = "cli.serve_public_url"
	msgServePushOn       serveMsg = "cli.serve_push_on"
)

var serveTexts = workrun.NewCatalog(map[serveMsg][2]string{
	msgServeNoFlows: {"serve: no workflow to serve: give FLOW.json files, or publish a workflow in the window (its file's \"publish\" settings)",
		"serve：没有可提供的工作流：请给出 FLOW.json 文件，或在窗口中发布一个工作流（文件中的 \"publish\" 设置）"},
	msgServeNonLoopback: {"serve: %s is not a loopback address: serving other machines needs TLS (--tls-cert, --tls-key) and at least one token (workrun serve token create LABEL)",
		"serve：%s 不是本机回环地址：向其他机器提供服务需要 TLS（--tls-cert、--tls-key）和至少一个令牌（workrun serve token create LABEL）"},
	msgServeTLSPair:  {"serve: --tls-cert and --tls-key go together", "serve：--tls-cert 与 --tls-key 必须同时给出"},
	msgServeStopping: {"serve: %s: stopping; runs going on are interrupted, nothing is cancelled (the next `workrun serve` resumes them)", "serve：%s：正在停止；进行中的运行被中断，不取消任何远程工作（下次 `workrun serve` 会继续它们）"},
	msgServeResumed:  {"serve: resumed %d unfinished task(s)", "serve：已继续 %d 个未完成的任务"},
	msgServeTokensOn: {"serve: callers need a bearer token (%d saved)", "serve：调用方需要持有令牌（已保存 %d 个）"},
	msgServeTokensOff: {"serve: no token saved: any program on this machine may call (workrun serve token create LABEL to require one)",
		"serve：没有保存令牌：本机任何程序都可以调用（用 workrun serve token create LABEL 要求令牌）"},
	msgServeTokenCreated: {"token %s created; its secret is shown this once and kept in the OS keyring:",
		"令牌 %s 已创建；其密钥只显示这一次，并保存在系统密钥环中："},
	msgServeTokenNone:    {"no tokens", "没有令牌"},
	msgServeTokenRevoked: {"token %s revoked", "令牌 %s 已吊销"},
	msgServeNoKeyring:    {"serve token: no OS keyring in this build", "serve token：此版本没有系统密钥环"},
	msgServePublicURL: {"serve: --public-url (or WORKRUN_PUBLIC_URL) %s: give an absolute http or https URL of this server as agents reach it, without query or fragment",
		"serve：--public-url（或 WORKRUN_PUBLIC_URL）%s：请给出远端智能体访问本服务所用的绝对 http 或 https 地址，不带查询串或片段"},
	msgServePushOn: {"serve: Remote Agent nodes whose agent supports push notifications wait by push at %s (no connection held)",
		"serve：若远端智能体支持推送通知，远程智能体节点将通过 %s 接收推送并等待（不占用连接）"},
})
