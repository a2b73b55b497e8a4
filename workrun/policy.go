package workrun

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"
)

// RetryPolicy is a node's "retry" key (docs/workflow-format.md#retry):
// how many attempts it gets in all and how long to wait between them.
type RetryPolicy struct {
	MaxAttempts int     `json:"max_attempts"`
	WaitSeconds float64 `json:"wait_seconds,omitempty"`
	// Backoff is BackoffFixed (the default: every wait is WaitSeconds) or
	// BackoffExponential (the wait doubles after each attempt).
	Backoff string `json:"backoff,omitempty"`
}

// Retry policy bounds and values.
const (
	RetryMaxAttempts    = 10
	RetryMaxWaitSeconds = 3600
	BackoffFixed        = "fixed"
	BackoffExponential  = "exponential"
)

// Wait is how long to wait before attempt next (2, 3, …), at most
// RetryMaxWaitSeconds.
func (p RetryPolicy) Wait(next int) time.Duration {
	s := p.WaitSeconds
	if p.Backoff == BackoffExponential {
		s *= math.Pow(2, float64(max(next-2, 0)))
	}
	return time.Duration(min(s, RetryMaxWaitSeconds) * float64(time.Second))
}

// OnError is a node's "on_error" key.
type OnError string

const (
	OnErrorFail     OnError = "fail"     // the default: the run fails as before
	OnErrorContinue OnError = "continue" // the run goes on along the node's normal edges
	OnErrorBranch   OnError = "branch"   // the run goes on along the node's error edges only
)

// PortError is Edge.Port of an edge leaving a node's error port.
const PortError = "error"

// DeadlineMaxSeconds bounds deadline_seconds (one week).
const DeadlineMaxSeconds = 7 * 24 * 3600

// Failures callers and node kinds branch on.
var (
	// ErrKnownFailure marks a remote call's failure as known to be final:
	// the remote task ended FAILED or REJECTED, the tool answered isError,
	// or the service refused the call before accepting it. Only such a
	// failure lets the engine retry a RemoteStep, as a new call with a new
	// identity. Anything else a remote node returns — a timeout, a broken
	// stream, "submission result unknown", "cancel unconfirmed", an
	// interrupted task, a passed deadline — is an unknown outcome and is
	// never retried (the remote work may be going on).
	ErrKnownFailure = errors.New("the remote call failed and is known to have ended")
	// ErrDeadlinePassed: the node's deadline_seconds passed after its
	// remote task was accepted.
	ErrDeadlinePassed = errors.New("deadline passed")
	// ErrPin: a run from a node cannot be started as asked (a pinned node
	// without outputs, a typed pin of a field the node does not write…).
	ErrPin = errors.New("cannot pin")
)

// knownFailure is KnownFailure's error: err, classified.
type knownFailure struct{ err error }

func (k knownFailure) Error() string   { return k.err.Error() }
func (k knownFailure) Unwrap() []error { return []error{k.err, ErrKnownFailure} }

// KnownFailure marks err (a remote kind's failure) as a known terminal
// failure (ErrKnownFailure); its text and what it wraps are unchanged.
// nil stays nil.
func KnownFailure(err error) error {
	if err == nil || errors.Is(err, ErrKnownFailure) {
		return err
	}
	return knownFailure{err}
}

// RemoteStep is implemented by the steps of kinds whose work is a call to a
// remote service (Remote Agent, Remote MCP Tool). The engine retries such a
// step only after a failure wrapping ErrKnownFailure, and allows
// deadline_seconds on it.
type RemoteStep interface {
	Step
	RemoteCalls()
}

// AttemptCallKey is the call key of a remote call in the node's current
// attempt: key itself for the first attempt (so records and identities from
// before attempts are unchanged), "key#N" for attempt N. A kind derives its
// messageId or idempotency key from it, so each attempt is a new logical
// call.
func AttemptCallKey(key string, nc NodeContext) string {
	if n := nc.Attempt(); n > 1 {
		return key + "#" + strconv.Itoa(n)
	}
	return key
}

// DeadlineStarter is implemented by the engine's NodeContext: see StartDeadline.
type DeadlineStarter interface {
	StartDeadline()
}

// StartDeadline is called by a remote kind (through remotecall) once its
// task id is committed: the node's deadline_seconds, if any, start now. The
// engine saves the instant in the node's record before it returns, so a
// resumed node keeps the same deadline; calling it again changes nothing.
// When the instant passes, the node's context is canceled and the node
// fails with ErrDeadlinePassed (then the run's abort cancels the task,
// unless the node's on_error handles the failure).
func StartDeadline(nc NodeContext) {
	if d, ok := nc.(DeadlineStarter); ok {
		d.StartDeadline()
	}
}

// checkPolicy returns the problems of a node's failure handling keys: the
// ranges, an error field that is not a text field, deadline_seconds on a
// kind that makes no remote call.
func checkPolicy(n NodeSpec, st Step, wf Workflow, problem func(msgID, ...any)) {
	if p := n.Retry; p != nil {
		if p.MaxAttempts < 1 || p.MaxAttempts > RetryMaxAttempts {
			problem(msgRetryAttempts, p.MaxAttempts, RetryMaxAttempts)
		}
		if p.WaitSeconds < 0 || p.WaitSeconds > RetryMaxWaitSeconds || math.IsNaN(p.WaitSeconds) {
			problem(msgRetryWait, fmt.Sprint(p.WaitSeconds), RetryMaxWaitSeconds)
		}
		if p.Backoff != "" && p.Backoff != BackoffFixed && p.Backoff != BackoffExponential {
			problem(msgRetryBackoff, p.Backoff)
		}
	}
	switch n.OnError {
	case "", OnErrorFail:
		if n.ErrorField != "" {
			problem(msgErrorFieldUnused, n.ErrorField)
		}
	case OnErrorContinue, OnErrorBranch:
		if f := n.ErrorField; f != "" {
			if t, ok := wf.State[f]; !ok {
				problem(msgErrorFieldUndeclared, f)
			} else if t != FieldText {
				problem(msgErrorFieldType, f, t)
			}
		}
	default:
		problem(msgOnErrorValue, n.OnError)
	}
	if n.DeadlineSeconds != 0 {
		if _, remote := st.(RemoteStep); !remote {
			problem(msgDeadlineLocal)
		} else if n.DeadlineSeconds < 1 || n.DeadlineSeconds > DeadlineMaxSeconds {
			problem(msgDeadlineRange, n.DeadlineSeconds, DeadlineMaxSeconds)
		}
	}
}

// writesOf is what a node provides to the nodes after it: its step's
// writes and its error field.
func writesOf(n NodeSpec, st Step) []string {
	w := st.Writes()
	if n.ErrorField != "" && (n.OnError == OnErrorContinue || n.OnError == OnErrorBranch) {
		w = append(w[:len(w):len(w)], n.ErrorField)
	}
	return w
}
