package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// memSpool is a spool file in memory, counting Close.
type memSpool struct {
	b      []byte
	closed *int
}

func (m *memSpool) WriteAt(p []byte, off int64) (int, error) {
	if need := int(off) + len(p); need > len(m.b) {
		m.b = append(m.b, make([]byte, need-len(m.b))...)
	}
	return copy(m.b[off:], p), nil
}

func (m *memSpool) ReadAt(p []byte, off int64) (int, error) {
	if off >= int64(len(m.b)) {
		return 0, io.EOF
	}
	n := copy(p, m.b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func (m *memSpool) Close() error { *m.closed++; return nil }

func memSpools(closed *int) func() (SpoolFile, error) {
	return func() (SpoolFile, error) { return &memSpool{closed: closed}, nil }
}

// spooledResult reads body as a reply whose values over above bytes are
// spooled, and decodes its result as a ToolResult.
func spooledResult(body []byte, above int, closed *int) (res *ToolResult, msg []byte, readErr, decodeErr error) {
	set := newSpoolSet(memSpools(closed), 1<<30)
	set.above = above
	msg, err := readSpooled(bytes.NewReader(body), set, 1<<30, ErrReplyTooLarge)
	if err != nil {
		return nil, nil, err, nil
	}
	var env struct {
		Result *ToolResult `json:"result"`
	}
	if err := json.Unmarshal(msg, &env); err != nil {
		return nil, msg, nil, err
	}
	set.attach(env.Result)
	return env.Result, msg, nil, nil
}

// FuzzReadSpooled: a reply read through the spool is refused exactly when
// encoding/json refuses it, and otherwise gives the same text and the same
// structuredContent (compacted) as decoding it whole, whatever is spooled.
func FuzzReadSpooled(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hello world"}]}}`), uint8(3))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"a\u00e9\ud83d\ude00\n\"b"},{"type":"text","text":"second"}],"structuredContent":{"a":[1,2.5e3,true,null,"x"]}}}`), uint8(2))
	f.Add([]byte(`{"result":{"task":{"taskId":"t","result":{"content":[{"type":"text","Text":"long long text"}]}}}}`), uint8(1))
	f.Add([]byte(`{"result":{"result":{"StructuredContent":"just a string","content":[]}}}`), uint8(1))
	f.Add([]byte("{\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"\xff\xfe bad utf8 \xe2\x82\"}]}}"), uint8(2))
	f.Add([]byte(`{"result":{"content":[{"type":"text","text":"x"}]}} trailing`), uint8(0))
	f.Add([]byte(`{"result":{"content":[{"type":"text","text":"\ud800 lone"}]}}`), uint8(1))
	f.Fuzz(func(t *testing.T, body []byte, above uint8) {
		closed := 0
		got, msg, err, derr := spooledResult(body, int(above), &closed)
		var want struct {
			Result *ToolResult `json:"result"`
		}
		werr := json.Unmarshal(body, &want)
		if !json.Valid(body) {
			if err == nil && msg != nil {
				t.Fatalf("invalid JSON accepted:\n%q\nmessage %q", body, msg)
			}
			return
		}
		if err != nil {
			t.Fatalf("valid JSON refused: %v\n%q", err, body)
		}
		if (werr != nil) != (derr != nil) {
			t.Fatalf("decoded whole: %v; spooled: %v\nbody %q\nmessage %q", werr, derr, body, msg)
		}
		if werr != nil || want.Result == nil {
			return // not a tool result (the client refuses it by type)
		}
		if got == nil {
			t.Fatalf("no result from the spooled message %q", msg)
		}
		if g, w := got.Text(), want.Result.Text(); g != w {
			t.Fatalf("text %q, decoded whole %q\nbody %q", g, w, body)
		}
		wantSC := bytes.TrimSpace(want.Result.StructuredContent)
		gotSC := bytes.TrimSpace(got.StructuredContent)
		if rd, ok := got.StructuredReader(); ok {
			if gotSC, err = io.ReadAll(rd); err != nil {
				t.Fatal(err)
			}
		}
		var compact bytes.Buffer
		if len(wantSC) > 0 {
			if err := json.Compact(&compact, wantSC); err != nil {
				t.Fatal(err)
			}
		}
		var gotCompact bytes.Buffer
		if len(gotSC) > 0 {
			if err := json.Compact(&gotCompact, gotSC); err != nil {
				t.Fatalf("spooled structuredContent is not JSON: %v: %q", err, gotSC)
			}
		}
		if !bytes.Equal(gotCompact.Bytes(), compact.Bytes()) {
			t.Fatalf("structuredContent %q, decoded whole %q", gotCompact.Bytes(), compact.Bytes())
		}
		if err := got.Release(); err != nil {
			t.Fatal(err)
		}
		if closed > 1 {
			t.Fatalf("spool closed %d times", closed)
		}
	})
}

// TestSpooledToolResult: over HTTP with Options.Spool, a long text and a
// long structuredContent come back spooled (not in the decoded result),
// read back exactly; Release removes the spool; a reply over the spool cap
// or a bad one is refused as a whole body would be.
func TestSpooledToolResult(t *testing.T) {
	long := strings.Repeat("0123456789", 60<<10) + "é\n\"end"
	esc, _ := json.Marshal(long)
	items := `{"items":["` + strings.Repeat("x", 300<<10) + `"], "n": 1}`
	var body string
	asSSE := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		w.Header().Set("Content-Type", "application/json")
		switch req.Method {
		case "initialize":
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}`, req.ID)
		case "notifications/initialized":
			w.WriteHeader(http.StatusAccepted)
		case "tools/call", "tasks/result":
			if asSSE {
				w.Header().Set("Content-Type", "text/event-stream")
				fmt.Fprintf(w, "id: 1\ndata: \n\nid: 2\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progress\":1}}\n\n")
				fmt.Fprintf(w, "id: 3\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\r\ndata: \"result\":%s}\r\n\r\n", req.ID, body)
				return
			}
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, body)
		}
	}))
	defer srv.Close()
	closed := 0
	c, err := New(srv.URL, Options{Version: Version20251125, Spool: memSpools(&closed), MaxSpoolBytes: 2 << 20})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	if _, err := c.Connect(ctx); err != nil {
		t.Fatal(err)
	}

	body = `{"content":[{"type":"text","text":"short"},{"type":"text","text":` + string(esc) + `}],"structuredContent":` + items + `}`
	res, err := c.CallTool(ctx, CallParams{Name: "big"})
	if err != nil {
		t.Fatal(err)
	}
	r := res.Result
	if !r.SpooledText() || r.Content[1].Text != "" || r.StructuredContent != nil {
		t.Fatalf("the long values are in memory: spooled=%v text %d bytes, structuredContent %d bytes", r.SpooledText(), len(r.Content[1].Text), len(r.StructuredContent))
	}
	if got, _ := io.ReadAll(r.TextReader()); string(got) != "short\n"+long {
		t.Fatalf("text read back: %d bytes, want %d", len(got), len("short\n"+long))
	}
	rd, ok := r.StructuredReader()
	if !ok {
		t.Fatal("structuredContent not spooled")
	}
	if got, _ := io.ReadAll(rd); !json.Valid(got) || !bytes.Contains(got, []byte(`"n":1`)) || len(got) < 300<<10 {
		t.Fatalf("structuredContent read back: %.80q", got)
	}
	if closed != 0 {
		t.Fatal("the spool was removed before Release")
	}
	r.Release()
	if closed != 1 {
		t.Fatalf("Release closed the spool %d times", closed)
	}
	if _, err := io.ReadAll(r.TextReader()); err == nil {
		t.Fatal("a released result still reads")
	}

	// Small values stay in memory and no spool is made.
	body = `{"content":[{"type":"text","text":"small"}],"structuredContent":{"a":1}}`
	if res, err = c.CallTool(ctx, CallParams{Name: "small"}); err != nil {
		t.Fatal(err)
	}
	if res.Result.SpooledText() || res.Result.Text() != "small" || string(res.Result.StructuredContent) != `{"a":1}` || closed != 1 {
		t.Fatalf("small result: %+v (spools closed %d)", res.Result, closed)
	}

	// Over the spool cap: refused, and the spool removed.
	body = `{"content":[{"type":"text","text":"` + strings.Repeat("y", 3<<20) + `"}]}`
	if _, err = c.CallTool(ctx, CallParams{Name: "huge"}); !errors.Is(err, ErrReplyTooLarge) || !strings.Contains(err.Error(), "over the 2097152-byte limit") {
		t.Fatalf("a 3 MiB reply over a 2 MiB spool cap: %v", err)
	}
	if closed != 2 {
		t.Fatalf("the refused reply's spool: closed %d times in all, want 2", closed)
	}
	// Garbage after a spooled value: a protocol error, the spool removed.
	body = `{"content":[{"type":"text","text":` + string(esc) + `}]} x`
	if _, err = c.CallTool(ctx, CallParams{Name: "bad"}); !errors.Is(err, ErrProtocol) {
		t.Fatalf("trailing garbage: %v", err)
	}
	if closed != 3 {
		t.Fatalf("the bad reply's spool: closed %d times in all, want 3", closed)
	}
	// A task's result (tasks/result) is spooled too.
	body = `{"content":[{"type":"text","text":` + string(esc) + `}]}`
	tr, err := c.TaskResult(ctx, "t1")
	if err != nil {
		t.Fatal(err)
	}
	if !tr.SpooledText() || tr.Text() != long {
		t.Fatalf("tasks/result: spooled=%v, %d bytes", tr.SpooledText(), len(tr.Text()))
	}
	tr.Release()

	// The same over an SSE reply (data split over two lines, a priming
	// event and a notification first): spooled as it streams.
	asSSE = true
	body = `{"content":[{"type":"text","text":"short"},{"type":"text","text":` + string(esc) + `}],"structuredContent":` + items + `}`
	if res, err = c.CallTool(ctx, CallParams{Name: "big"}); err != nil {
		t.Fatal(err)
	}
	r = res.Result
	if !r.SpooledText() || r.Text() != "short\n"+long {
		t.Fatalf("SSE: spooled=%v, text %d bytes", r.SpooledText(), len(r.Text()))
	}
	if _, ok := r.StructuredReader(); !ok {
		t.Fatal("SSE: structuredContent not spooled")
	}
	r.Release()
	// An SSE event over the spool cap is refused.
	body = `{"content":[{"type":"text","text":"` + strings.Repeat("y", 3<<20) + `"}]}`
	if _, err = c.CallTool(ctx, CallParams{Name: "huge"}); !errors.Is(err, ErrReplyTooLarge) {
		t.Fatalf("SSE: a 3 MiB event over a 2 MiB spool cap: %v", err)
	}
}
