package ui

import (
	"regexp"
	"strings"

	"workrun/workrun"
)

// Connection-test and transport errors come from Go's net and net/http
// packages and from the protocol clients, in English, with addresses and
// URLs in them. In Chinese the window rewrites their fixed words
// (netWordsZh) and leaves the data — URLs, hosts, ports, HTTP status codes,
// protocol and method names — as it is (issue 23 item 9). The order
// matters: a longer phrase comes before the words it contains.
var netWordsZh = []struct {
	re *regexp.Regexp
	to string
}{
	{regexp.MustCompile(`dial tcp: lookup (\S+?)(?: on \S+)?: no such host`), "找不到主机 $1"},
	{regexp.MustCompile(`dial tcp (\S+?): connect: connection refused`), "$1 拒绝了连接"},
	{regexp.MustCompile(`dial tcp (\S+?): i/o timeout`), "连接 $1 超时"},
	{regexp.MustCompile(`dial tcp (\S+?): connect: (network is unreachable|no route to host)`), "无法到达 $1"},
	{regexp.MustCompile(`dial tcp (\S+?):`), "连接 $1："},
	{regexp.MustCompile(`\bGet "`), `GET "`},
	{regexp.MustCompile(`\bPost "`), `POST "`},
	{regexp.MustCompile(`not an A2A agent: no Agent Card at `), "不是 A2A 智能体：此处没有智能体名片："},
	{regexp.MustCompile(`\(the server did not answer server/discover either: (.*)\)`), "（服务器也没有应答 server/discover：$1）"},
	{regexp.MustCompile(`the server speaks neither revision: to server/discover \(2026-07-28\) it answered: `), "服务器两个修订版都不支持：对 server/discover（2026-07-28）的回答："},
	{regexp.MustCompile(`; to initialize \(([^)]*)\): `), "；对初始化（$1）的回答："},
	{regexp.MustCompile(`unsupported protocol version`), "不支持的协议版本"},
	{regexp.MustCompile(`\bthe server supports `), "服务器支持 "},
	{regexp.MustCompile(`\bfetch agent card `), "获取智能体名片 "},
	{regexp.MustCompile(`^discover `), "查找智能体 "},
	{regexp.MustCompile(`\binitialize `), "初始化 "},
	{regexp.MustCompile(`\binitialize: `), "初始化："},
	{regexp.MustCompile(` ?\(agent server error\)`), "（智能体服务器出错）"},
	{regexp.MustCompile(` ?\(server error\)`), "（服务器出错）"},
	{regexp.MustCompile(`connection reset by peer`), "连接被对方重置"},
	{regexp.MustCompile(`connection refused`), "连接被拒绝"},
	{regexp.MustCompile(`unexpected EOF`), "连接意外中断"},
	{regexp.MustCompile(`\bEOF\b`), "连接已中断"},
	{regexp.MustCompile(`i/o timeout`), "网络超时"},
	{regexp.MustCompile(`network is unreachable`), "网络不可达"},
	{regexp.MustCompile(`no route to host`), "没有到主机的路由"},
	{regexp.MustCompile(`tls: failed to verify certificate: x509: certificate signed by unknown authority`), "TLS：无法验证证书（签发机构未知）"},
	{regexp.MustCompile(`tls: failed to verify certificate`), "TLS：无法验证证书"},
	{regexp.MustCompile(`http: server gave HTTP response to HTTPS client`), "服务器以 HTTP 回复了 HTTPS 请求"},
	{regexp.MustCompile(`(^|: |：)a2a: `), "${1}A2A："}, // the client's prefix, not a URL's path
	{regexp.MustCompile(`(^|: |：)mcp: `), "${1}MCP："},
	{regexp.MustCompile(`: `), "："},
}

// netWords rewrites the transport words of an error in the window's
// language (only Chinese needs it: the words are English already).
func netWords(loc workrun.Localizer, s string) string {
	if loc.Messages() != "zh" {
		return s
	}
	for _, w := range netWordsZh {
		s = w.re.ReplaceAllString(s, w.to)
	}
	return strings.TrimSpace(s)
}
