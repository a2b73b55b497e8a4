package sse

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// refEvent is what both parsers report for one event.
type refEvent struct {
	Event, ID, Data string
}

// referenceSSE is a deliberately naive SSE parser (split into lines, then the
// WHATWG rules) used to cross-check Reader.
func referenceSSE(in []byte) ([]refEvent, bool) {
	var out []refEvent
	text := string(in)
	lines := strings.Split(text, "\n")
	last := lines[len(lines)-1]
	lines = lines[:len(lines)-1]
	var data []string
	var ev refEvent
	pending := false
	for _, l := range lines {
		l = strings.TrimSuffix(l, "\r")
		if l == "" {
			if len(data) > 0 {
				ev.Data = strings.Join(data, "\n")
				out = append(out, ev)
			}
			data, ev, pending = nil, refEvent{}, false
			continue
		}
		if l[0] == ':' {
			continue
		}
		pending = true
		field, value, found := strings.Cut(l, ":")
		if found {
			value = strings.TrimPrefix(value, " ")
		}
		switch field {
		case "data":
			data = append(data, value)
		case "event":
			ev.Event = value
		case "id":
			if !strings.Contains(value, "\x00") {
				ev.ID = value
			}
		}
	}
	truncated := pending || (last != "" && last[0] != ':')
	return out, truncated
}

// readAll reads every event of in and releases the reader.
func readAll(src io.Reader, maxEvent int64) ([]refEvent, error) {
	r := NewReader(src, maxEvent)
	defer r.Release()
	var got []refEvent
	for {
		ev, err := r.Next()
		if err != nil {
			return got, err
		}
		got = append(got, refEvent{ev.Event, ev.ID, string(ev.Data)})
	}
}

func FuzzSSEReader(f *testing.F) {
	f.Add([]byte("data: {\"a\":1}\n\n"))
	f.Add([]byte("id: 1\r\nevent: error\r\ndata:x\r\ndata: y\r\n\r\n: keep-alive\n\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		got, err := readAll(bytes.NewReader(in), 1<<20)
		want, truncated := referenceSSE(in)
		if truncated != errors.Is(err, ErrTruncated) || (!truncated && err != io.EOF) {
			t.Fatalf("end: err %v, reference truncated=%v", err, truncated)
		}
		if len(got) != len(want) {
			t.Fatalf("got %d events %q, reference %d %q", len(got), got, len(want), want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("event %d: got %+v, reference %+v", i, got[i], want[i])
			}
		}
	})
}

// Lines longer than the reader's buffer take the slow path, including the
// buffer swap for a big single-line event; the result must match the naive
// reference parser whatever the read sizes.
func TestReader_LongLinesMatchReference(t *testing.T) {
	big := strings.Repeat("x", 100<<10)
	inputs := map[string]string{
		"one big line":             "data: " + big + "\n\n",
		"big then small":           "data: " + big + "\ndata: tail\n\ndata: next\n\n",
		"small then big":           "data: head\ndata: " + big + "\n\n",
		"two big events":           "data: " + big + "\n\nid: 2\ndata:" + big + "y\r\n\r\n",
		"big comment":              ": " + big + "\ndata: a\n\n",
		"big truncated":            "data: " + big,
		"big line then truncation": "data: " + big + "\n",
	}
	for name, in := range inputs {
		t.Run(name, func(t *testing.T) {
			want, truncated := referenceSSE([]byte(in))
			for _, src := range []io.Reader{strings.NewReader(in), iotest.OneByteReader(strings.NewReader(in)), iotest.HalfReader(strings.NewReader(in))} {
				got, err := readAll(src, 1<<20)
				if errors.Is(err, ErrTruncated) != truncated {
					t.Errorf("err = %v, reference truncated = %v", err, truncated)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("events differ from reference (-want +got):\n%.500s", diff)
				}
			}
		})
	}
}

func TestReader_EventCapCountsJoinedData(t *testing.T) {
	in := "data: " + strings.Repeat("a", 600) + "\ndata: " + strings.Repeat("b", 600) + "\n\n"
	r := NewReader(strings.NewReader(in), 1000)
	_, err := r.Next()
	r.Release()
	if !errors.Is(err, ErrEventTooLarge) {
		t.Errorf("err = %v, want ErrEventTooLarge", err)
	}
	r = NewReader(bytes.NewReader([]byte(in)), 2000)
	defer r.Release()
	ev, err := r.Next()
	if err != nil || len(ev.Data) != 1201 {
		t.Errorf("len %d, err %v", len(ev.Data), err)
	}
}

// A single line over the cap is refused before it is read whole: the reader
// stops pulling from the body soon after the cap.
func TestReader_LongLineRefusedEarly(t *testing.T) {
	const limit = 64 << 10
	body := &countingReader{r: strings.NewReader("data: " + strings.Repeat("z", 10<<20) + "\n\n")}
	r := NewReader(body, limit)
	defer r.Release()
	if _, err := r.Next(); !errors.Is(err, ErrEventTooLarge) {
		t.Fatalf("err = %v, want ErrEventTooLarge", err)
	}
	if body.n > limit+2*bufSize {
		t.Errorf("read %d bytes of the body for a %d-byte cap", body.n, limit)
	}
}

// A pooled buffer handed to the next body must not leak the previous body's
// unread bytes, and data returned before Release stays intact after it.
func TestReader_PooledBufferStartsClean(t *testing.T) {
	first := NewReader(strings.NewReader("data: one\n\ndata: left-over\n\n"), 1<<20)
	ev, err := first.Next()
	if err != nil {
		t.Fatal(err)
	}
	kept := ev.Data
	first.Release()
	for range 4 { // the pool may hand back the same buffer
		got, err := readAll(strings.NewReader("data: two\n\n"), 1<<20)
		if err != io.EOF || len(got) != 1 || got[0].Data != "two" {
			t.Fatalf("second body: %q, %v", got, err)
		}
	}
	if string(kept) != "one" {
		t.Errorf("event data changed after Release: %q", kept)
	}
}

type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}
