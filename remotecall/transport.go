package remotecall

import "net/http"

// FanOutTransport is the HTTP transport the calls of one remote node kind
// share. The default transport keeps only 2 idle connections per host, so
// 100 parallel calls to one service would close and re-dial almost every
// connection between one request and the next. Here the idle pool holds a
// whole fan-out, and the number of connections per host stays unbounded:
// every running call may hold one for its stream or wait, and a cap would
// queue the cancels of a failed run behind those, serializing the fan-out
// (docs/remote-agent.md R10: one call never holds back another's cancel).
// Over https, HTTP/2 is still negotiated and multiplexes the requests
// instead.
func FanOutTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxConnsPerHost = 0
	t.MaxIdleConns = 512
	t.MaxIdleConnsPerHost = 256
	return t
}
