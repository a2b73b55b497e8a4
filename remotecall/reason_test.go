package remotecall_test

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"workrun/workrun/workruntest"

	"workrun/remotecall"
	"workrun/workrun"
)

var (
	errWire  = errors.New("wire: stream broken")
	reasonTx = workrun.NewCatalog(map[string][2]string{
		"remotecall_test.bad": {"the form does not fit", "表单不符"},
	})
)

// wireWords is a node kind's words for its protocol's errors.
func wireWords(err error) string {
	if errors.Is(err, errWire) {
		return "数据流中断"
	}
	return ""
}

// refusedErr is what a real dial to a closed loopback port gives.
func refusedErr(t *testing.T) error {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	resp, err := http.Get("http://" + addr + "/")
	if err == nil {
		resp.Body.Close()
		t.Fatal("a closed port answered")
	}
	return err
}

// TestWhy: in English a reason's detail is the error's own text; in Chinese
// a nested reason is shown as written (not reworded by a sentinel it
// wraps), a TextError in Chinese, the kind's wire words, this layer's
// words for a refused or reset connection, else the error's own text.
func TestWhy(t *testing.T) {
	refused := refusedErr(t)
	nested := fmt.Errorf("call: %w", remotecall.Reason("服务器说：不行", errWire))
	textErr := fmt.Errorf("answer: %w", &workrun.TextError{Text: reasonTx.Msg("remotecall_test.bad")})
	reset := fmt.Errorf("read: %w", syscall.ECONNRESET)
	own := errors.New("the server's own words")
	cases := []struct {
		err    error
		en, zh string
	}{
		{nil, "", ""},
		{nested, "call: 服务器说：不行", "服务器说：不行"},
		{textErr, "answer: the form does not fit", "表单不符"},
		{fmt.Errorf("get: %w", errWire), "get: wire: stream broken", "数据流中断"},
		{refused, refused.Error(), "连接被拒绝"},
		{reset, "read: connection reset by peer", "连接被重置"},
		{fmt.Errorf("write: %w", syscall.EPIPE), "write: broken pipe", "连接被重置"},
		{own, "the server's own words", "the server's own words"},
	}
	for _, lang := range []string{"en", "zh_CN.UTF-8"} {
		t.Run(lang, func(t *testing.T) {
			workruntest.InLanguage(t, lang)
			for _, c := range cases {
				want := c.en
				if strings.HasPrefix(lang, "zh") {
					want = c.zh
				}
				if got := remotecall.Why(c.err, wireWords); got != want {
					t.Errorf("Why(%v) = %q, want %q", c.err, got, want)
				}
			}
		})
	}
	if !errors.Is(nested, errWire) {
		t.Error("a Reason no longer wraps its cause")
	}
}
