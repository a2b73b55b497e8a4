package remotecall

import "workrun/workrun"

// Configuration errors Compile returns: the window shows them in the
// reader's language (workrun.Problem.In); the English is what the CLI prints.
type msgID string

const (
	msgURLRequired    msgID = "remotecall.url_required"
	msgURLNotAbsolute msgID = "remotecall.url_not_absolute"
	msgURLUserinfo    msgID = "remotecall.url_userinfo"
	msgURLPlainHTTP   msgID = "remotecall.url_plain_http"
	msgTimeoutRange   msgID = "remotecall.timeout_range"

	msgOriginBad     msgID = "remotecall.origin_bad"
	msgOriginScheme  msgID = "remotecall.origin_scheme"
	msgOriginHost    msgID = "remotecall.origin_host"
	msgOriginPort    msgID = "remotecall.origin_port"
	msgOtherOrigin   msgID = "remotecall.other_origin"
	msgRequestOrigin msgID = "remotecall.request_origin"
	msgRedirect      msgID = "remotecall.redirect_origin"
	msgPeerNotLocal  msgID = "remotecall.peer_not_loopback"
	msgRequestSize   msgID = "remotecall.request_too_large"
	msgCallBytes     msgID = "remotecall.call_bytes"
	msgBadCredential msgID = "remotecall.bad_credential"

	msgSignInAgain    msgID = "remotecall.sign_in_again"
	msgSignInAgainWhy msgID = "remotecall.sign_in_again_why"
	msgSignInResume   msgID = "remotecall.sign_in_resume"

	msgWhyRefused msgID = "remotecall.why_refused"
	msgWhyReset   msgID = "remotecall.why_reset"
)

// The Chinese of msgURLNotAbsolute leaves out the service ("an A2A
// service"), an English phrase of the caller.
var texts = workrun.NewCatalog(map[msgID][2]string{
	msgURLRequired:    {"url is required", "必须填写 url"},
	msgURLNotAbsolute: {"url %q is not an absolute http(s) URL of %s", "url %[1]q 不是绝对的 http(s) 地址"},
	msgURLUserinfo:    {"url must not carry a user name or password; save a credential instead", "url 中不能带用户名或密码；请改为保存一个凭据"},
	msgURLPlainHTTP:   {"a credential is sent over plain http only to a loopback address; use https for %s", "凭据只会经明文 http 发往本机回环地址；请对 %s 使用 https"},
	msgOriginBad:      {"%q is not an http(s) origin such as https://host or http://host:port", "%q 不是 http(s) 源地址（例如 https://host 或 http://host:port）"},
	msgOriginScheme:   {"%q: the scheme must be http or https", "%q：协议必须是 http 或 https"},
	msgOriginHost:     {"%q: the host is missing or malformed", "%q：主机名缺失或格式不正确"},
	msgOriginPort:     {"%q: the port must be a number from 1 to 65535", "%q：端口必须是 1 到 65535 之间的数字"},
	msgOtherOrigin:    {"the credential belongs to %s, not %s", "该凭据属于 %s，而不是 %s"},
	msgRequestOrigin:  {"request to %s refused: this call's credential belongs to %s", "已拒绝发往 %s 的请求：此调用的凭据属于 %s"},
	msgRedirect:       {"redirect to %s refused: this call is bound to %s", "已拒绝重定向到 %s：此调用只发往 %s"},
	msgPeerNotLocal:   {"connection to %s refused: it resolved to %s, not a loopback address, and a credential goes over plain http only to this machine", "已拒绝连接 %s：它解析到 %s，不是本机回环地址，而凭据只会经明文 http 发往本机"},
	msgRequestSize:    {"the request is %d bytes, over the limit of %d bytes; nothing was sent", "请求有 %d 字节，超过 %d 字节的上限；未发送任何内容"},
	msgCallBytes:      {"the server sent more than %d bytes in this call; reading stopped", "服务器在本次调用中发送了超过 %d 字节；已停止读取"},
	msgBadCredential:  {"the credential cannot be sent: %s", "无法发送该凭据：%s"},
	msgSignInAgain:    {"sign in to %s again", "请重新登录 %s"},
	msgSignInAgainWhy: {"sign in to %s again: %s", "请重新登录 %s：%s"},
	msgSignInResume:   {"sign in to %s again, then resume: task %s is kept at the server and followed again (%s)", "请重新登录 %s，然后点击“恢复”：任务 %s 保留在服务器上，恢复后继续跟进（%s）"},
	msgWhyRefused:     {"the connection was refused", "连接被拒绝"},
	msgWhyReset:       {"the connection was reset", "连接被重置"},
	msgTimeoutRange:   {"timeout_seconds: %v is out of range; use a whole number of seconds from %d to %d", "timeout_seconds：%v 超出范围；请填写 %d 到 %d 之间的整数秒"},
})
