package sse

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// readAllStream reads every event of in with NextStream: the data of each
// and the last event id.
func readAllStream(src io.Reader) ([]string, string, error) {
	r := NewReader(src, 1<<30)
	defer r.Release()
	var got []string
	for {
		rd, err := r.NextStream()
		if err != nil {
			return got, r.LastEventID(), err
		}
		b, err := io.ReadAll(rd)
		if err != nil {
			return got, r.LastEventID(), err
		}
		got = append(got, string(b))
	}
}

// sameAsNext: NextStream gives every event's data, the last event id and
// the end (clean or truncated) exactly as Next does, whatever the read
// sizes.
func sameAsNext(t *testing.T, in []byte) {
	t.Helper()
	r := NewReader(bytes.NewReader(in), 1<<30)
	var want []string
	var werr error
	for {
		ev, err := r.Next()
		if err != nil {
			werr = err
			break
		}
		want = append(want, string(ev.Data))
	}
	wantID := r.LastEventID()
	r.Release()
	for _, src := range []io.Reader{bytes.NewReader(in), iotest.OneByteReader(bytes.NewReader(in)), iotest.HalfReader(bytes.NewReader(in))} {
		got, id, err := readAllStream(src)
		if errors.Is(err, ErrTruncated) != errors.Is(werr, ErrTruncated) || (err == io.EOF) != (werr == io.EOF) {
			t.Fatalf("end: %v, Next: %v (input %.200q)", err, werr, in)
		}
		if len(got) != len(want) {
			t.Fatalf("%d events, Next %d (input %.200q)", len(got), len(want), in)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("event %d: %.200q, Next %.200q", i, got[i], want[i])
			}
		}
		if werr == io.EOF && id != wantID {
			t.Fatalf("last event id %q, Next %q", id, wantID)
		}
	}
}

func FuzzNextStream(f *testing.F) {
	f.Add([]byte("data: {\"a\":1}\n\n"))
	f.Add([]byte("id: 1\r\nevent: error\r\ndata:x\r\ndata: y\r\n\r\n: keep-alive\n\n"))
	f.Add([]byte("data\ndata:\ndata: \r\nid: 7\n\ndata: a\r\r\n\n"))
	f.Add([]byte("retry: 10\nid: 2\ndata: x\n"))
	f.Fuzz(func(t *testing.T, in []byte) { sameAsNext(t, in) })
}

// Lines longer than the buffer, a CRLF split across two reads of the
// buffer, and fields after the data are streamed as Next reads them.
func TestNextStream_LongLines(t *testing.T) {
	big := strings.Repeat("x", 100<<10)
	for name, in := range map[string]string{
		"one big line":       "data: " + big + "\n\n",
		"big then small":     "data: " + big + "\ndata: tail\n\ndata: next\n\n",
		"small then big":     "data: head\ndata: " + big + "\n\n",
		"two big events":     "data: " + big + "\n\nid: 2\ndata:" + big + "y\r\n\r\n",
		"big comment":        ": " + big + "\ndata: a\n\n",
		"big truncated":      "data: " + big,
		"CR at the boundary": "data: " + strings.Repeat("y", bufSize-6-1) + "\r\n\r\ndata: " + strings.Repeat("z", bufSize-6) + "\r\r\n\n",
		"id after data":      "data: " + big + "\nid: 9\n\n",
	} {
		t.Run(name, func(t *testing.T) { sameAsNext(t, []byte(in)) })
	}
}
