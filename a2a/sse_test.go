package a2a

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// Lines longer than the reader's buffer take the slow path, including the
// buffer swap for a big single-line event; the result must match the naive
// reference parser whatever the read sizes.
func TestSSEReader_LongLinesMatchReference(t *testing.T) {
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
				r := newSSEReader(src, 1<<20)
				var got []refEvent
				var err error
				for {
					var ev sseEvent
					if ev, err = r.next(); err != nil {
						break
					}
					got = append(got, refEvent{ev.Event, ev.ID, string(ev.Data)})
				}
				if errors.Is(err, errTruncatedEvent) != truncated {
					t.Errorf("err = %v, reference truncated = %v", err, truncated)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("events differ from reference (-want +got):\n%.500s", diff)
				}
			}
		})
	}
}

func TestSSEReader_EventCapCountsJoinedData(t *testing.T) {
	in := "data: " + strings.Repeat("a", 600) + "\ndata: " + strings.Repeat("b", 600) + "\n\n"
	_, err := newSSEReader(strings.NewReader(in), 1000).next()
	if !errors.Is(err, ErrEventTooLarge) {
		t.Errorf("err = %v, want ErrEventTooLarge", err)
	}
	ev, err := newSSEReader(bytes.NewReader([]byte(in)), 2000).next()
	if err != nil || len(ev.Data) != 1201 {
		t.Errorf("len %d, err %v", len(ev.Data), err)
	}
}
