package remotecall

import (
	"math"
	"time"

	"workrun/workrun"
)

// Timeout is the bound timeout_seconds puts on each request to the remote
// service (nil: the default), or an error naming the key when it is not a
// whole number of seconds in range (docs/remote-agent.md R3.5; the bounds
// are workrun.RemoteTimeout*Seconds).
func Timeout(secs *float64) (time.Duration, error) {
	if secs == nil {
		return workrun.RemoteTimeoutDefaultSeconds * time.Second, nil
	}
	s := *secs
	if s != math.Trunc(s) || s < workrun.RemoteTimeoutMinSeconds || s > workrun.RemoteTimeoutMaxSeconds {
		return 0, texts.Fail(nil, msgTimeoutRange,
			s, workrun.RemoteTimeoutMinSeconds, workrun.RemoteTimeoutMaxSeconds)
	}
	return time.Duration(s) * time.Second, nil
}
