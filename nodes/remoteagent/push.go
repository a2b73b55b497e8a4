package remoteagent

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"

	"workrun/a2a"
	"workrun/remotecall"
	"workrun/workrun"
)

// Waits by push (docs/triggers.md P1–P6). When the process serves a push
// receiver on a public base URL (Deps.Push) and the agent's card says
// capabilities.pushNotifications, the business message goes as one
// SendMessage with returnImmediately and a taskPushNotificationConfig: the
// receiver's URL for this call and a fresh random token. The token's
// SHA-256 (never the token) is committed in the call's push side record
// before the request is sent; once the task id is committed the node
// closes its idle connections and interrupts the run (InterruptedByPush):
// nothing is held while the task runs. A settling push resumes the run,
// and a resume — by a push, by the next start of serve, or by a person —
// reads the task once (GetTask, the follow skeleton's read) and settles it
// as after a broken stream, or waits again.

// PushEndpoints hands out the push receiver's URL for one call; ok is
// false when no public URL is configured (then the node streams).
type PushEndpoints interface {
	Endpoint(runID, nodeID, callKey string) (url string, ok bool)
}

// PushSide is the suffix of the call's push side record.
const PushSide = "push"

// Push side record states.
const (
	PushWaiting = "waiting" // the agent was asked to push; the task has not settled
	PushSettled = "settled" // the call settled after a push wait
)

// PushWait is the push side record's content: what the receiver checks a
// push against. TokenSHA256 is the hex SHA-256 of the token sent to the
// agent; the token itself is never saved.
type PushWait struct {
	TokenSHA256 string `json:"token_sha256"`
}

// errPushWait ends a follow whose task has not settled: the node waits by
// push instead of subscribing.
var errPushWait = errors.New("waiting for the agent's push")

// pushEndpoint reports where the agent may push this call's updates.
func (c *call) pushEndpoint(agent AgentClient) (string, bool) {
	p := c.s.kind.deps.Push
	card := agent.Card()
	if p == nil || card == nil || !card.Capabilities.PushNotifications {
		return "", false
	}
	r := c.Record()
	return p.Endpoint(r.RunID, r.NodeID, r.CallKey)
}

// newPushToken makes a token of 32 random bytes.
func newPushToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("push token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// PushTokenHash is the hex SHA-256 the push side record keeps of a token.
func PushTokenHash(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// submitPush sends the business message with a push config and waits by
// push once the task is known (P1, P2).
func (c *call) submitPush(ctx context.Context, agent AgentClient, req a2a.SendMessageRequest, url string) (workrun.Values, error) {
	token, err := newPushToken()
	if err != nil {
		return nil, err
	}
	c.red.Add(token)
	// P2: the wait is durable before anything is sent.
	if err := remotecall.SaveSide(ctx, c.s.kind.deps.Calls, c.Record(), PushSide, PushWaiting, PushWait{TokenSHA256: PushTokenHash(token)}, c.red); err != nil {
		return nil, err
	}
	c.log(msgPushAsked, redactURL(url))
	req.Configuration = &a2a.SendMessageConfiguration{ReturnImmediately: true,
		TaskPushNotificationConfig: &a2a.TaskPushNotificationConfig{URL: url, Token: token}}
	done, err := c.sendOnce(ctx, agent, req)
	if err != nil {
		return nil, err
	}
	if done {
		return c.settlePush(ctx)
	}
	return nil, c.waitByPush()
}

// waitByPush lets go of every connection and interrupts the run.
func (c *call) waitByPush() error {
	if ci, ok := c.s.kind.base().(interface{ CloseIdleConnections() }); ok {
		ci.CloseIdleConnections()
	}
	return &workrun.InterruptError{Cause: workrun.InterruptedByPush, Reason: texts.Text(msgPushWaiting, c.Record().TaskID)}
}

// settlePush finishes a call that waited by push and marks its wait settled.
func (c *call) settlePush(ctx context.Context) (workrun.Values, error) {
	out, err := c.finish(ctx)
	var ie *workrun.InterruptError
	if err != nil && errors.As(err, &ie) {
		return out, err // the agent asks: the wait is answered in place (R8)
	}
	var w PushWait
	if ok, lerr := remotecall.LoadSide(ctx, c.s.kind.deps.Calls, c.Record(), PushSide, &w); lerr != nil || !ok {
		return out, errors.Join(err, lerr)
	}
	if serr := remotecall.SaveSide(ctx, c.s.kind.deps.Calls, c.Record(), PushSide, PushSettled, w, c.red); serr != nil {
		return out, errors.Join(err, serr)
	}
	return out, err
}

// pushWaiting reports whether the call's push side record says it waits.
func (c *call) pushWaiting(ctx context.Context) (bool, error) {
	r, err := c.s.kind.deps.Calls.GetRemoteCall(ctx, c.Record().RunID, c.Record().NodeID, remotecall.SideKey(c.Record().CallKey, PushSide))
	switch {
	case errors.Is(err, workrun.ErrNotFound):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("read push record: %w", err)
	}
	return r.RemoteState == PushWaiting, nil
}
