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
)

// The Chinese of msgURLNotAbsolute leaves out the service ("an A2A
// service"), an English phrase of the caller.
var texts = workrun.NewCatalog(map[msgID][2]string{
	msgURLRequired:    {"url is required", "必须填写 url"},
	msgURLNotAbsolute: {"url %q is not an absolute http(s) URL of %s", "url %[1]q 不是绝对的 http(s) 地址"},
	msgURLUserinfo:    {"url must not carry a user name or password; save a credential instead", "url 中不能带用户名或密码；请改为保存一个凭据"},
	msgURLPlainHTTP:   {"a credential is sent over plain http only to a loopback address; use https for %s", "凭据只会经明文 http 发往本机回环地址；请对 %s 使用 https"},
	msgTimeoutRange:   {"timeout_seconds: %v is out of range; use a whole number of seconds from %d to %d", "timeout_seconds：%v 超出范围；请填写 %d 到 %d 之间的整数秒"},
})
