package a2a

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"strconv"
	"sync/atomic"

	"workrun/sse"
)

// taskFollower enforces that every event names the task being followed.
// For a new send the task id is learnt from the first event that names one.
// It also carries the stream's decoder state.
type taskFollower struct {
	id   string
	fast fastDecoder
}

func (f *taskFollower) check(ev *StreamEvent) error {
	if n := ev.members(); n != 1 {
		return fmt.Errorf("%w: stream event has %d of task, message, statusUpdate, artifactUpdate; want exactly one", ErrProtocol, n)
	}
	if err := ev.checkIDs(); err != nil {
		return err
	}
	got := ev.TaskID()
	if got == "" {
		if ev.Message != nil {
			return nil // a message may stand alone
		}
		return fmt.Errorf("%w: stream event names no task", ErrProtocol)
	}
	if f.id == "" {
		f.id = got
		return nil
	}
	if got != f.id {
		return fmt.Errorf("%w: stream event names task %q, but the stream follows %q", ErrProtocol, clip([]byte(got)), f.id)
	}
	return nil
}

// openStream posts a streaming request and yields its events (docs/remote-agent.md R7).
// The sequence is one-shot: ranging it again would post the request again
// (for SendStreamingMessage, submit the work twice), so a second range
// yields only ErrStreamReused.
func (c *Client) openStream(ctx context.Context, method string, body requestBody, id int64, follow string) iter.Seq2[StreamEvent, error] {
	var ranged atomic.Bool
	return func(yield func(StreamEvent, error) bool) {
		if ranged.Swap(true) {
			yield(StreamEvent{}, fmt.Errorf("%s: %w", method, ErrStreamReused))
			return
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		fail := func(err error) { yield(StreamEvent{}, fmt.Errorf("%s: %w", method, err)) }
		resp, err := c.post(ctx, body, true)
		if err != nil {
			fail(err)
			return
		}
		defer resp.Body.Close()
		wantID := strconv.AppendInt(nil, id, 10)
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			fail(httpErrorFrom(resp, wantID))
			return
		}
		f := &taskFollower{id: follow}
		if mediaType(resp.Header.Get("Content-Type")) != "text/event-stream" {
			// a2a-js answers an early error as a plain JSON-RPC body.
			c.plainReply(resp, wantID, f, method, yield)
			return
		}
		r := sse.NewReader(resp.Body, c.opts.MaxEventBytes)
		defer r.Release()
		for {
			event, err := r.Next()
			if err != nil {
				switch {
				case errors.Is(err, sse.ErrEventTooLarge):
					err = fmt.Errorf("%w: over the %d-byte limit", ErrEventTooLarge, c.opts.MaxEventBytes)
				case errors.Is(err, io.EOF):
					err = fmt.Errorf("%w: the body ended without a final state", ErrStreamBroken)
				case ctx.Err() != nil:
					err = fmt.Errorf("%w: %w", ErrStreamBroken, context.Cause(ctx))
				default:
					err = fmt.Errorf("%w: %w", ErrStreamBroken, err)
				}
				fail(err)
				return
			}
			ev, err := decodeEvent(event.Data, wantID, f)
			if err == nil && event.Event == "error" {
				err = fmt.Errorf("%w: an error event carries no JSON-RPC error", ErrProtocol)
			}
			if err != nil {
				fail(err)
				return
			}
			if !yield(ev, nil) || ev.Final() {
				return
			}
		}
	}
}

func decodeEvent(data []byte, wantID []byte, f *taskFollower) (StreamEvent, error) {
	// The common event (a statusUpdate result) is decoded in one pass;
	// anything else, and anything the fast path is unsure of, by
	// encoding/json.
	r, ok := f.fast.decode(data)
	if !ok {
		slow := new(response[StreamEvent]) // escapes into encoding/json
		if err := json.Unmarshal(data, slow); err != nil {
			return StreamEvent{}, fmt.Errorf("%w: stream event is not a JSON-RPC response: %v", ErrProtocol, err)
		}
		r = *slow
	}
	ev, err := r.check(wantID)
	if err != nil {
		return StreamEvent{}, err
	}
	if err := f.check(ev); err != nil {
		return StreamEvent{}, err
	}
	return *ev, nil
}

// plainReply handles a non-SSE answer to a streaming request: a JSON-RPC
// error, or a single result treated as the only event.
func (c *Client) plainReply(resp *http.Response, wantID []byte, f *taskFollower, method string, yield func(StreamEvent, error) bool) {
	b, err := readCapped(resp.Body, c.opts.MaxReplyBytes, fmt.Errorf("%w: over the %d-byte limit", ErrReplyTooLarge, c.opts.MaxReplyBytes))
	if err == nil {
		var ev StreamEvent
		if ev, err = decodeEvent(b, wantID, f); err == nil {
			if !yield(ev, nil) || ev.Final() {
				return
			}
			err = fmt.Errorf("%w: the reply was not a stream and held no final state", ErrStreamBroken)
		}
	}
	yield(StreamEvent{}, fmt.Errorf("%s: %w", method, err))
}
