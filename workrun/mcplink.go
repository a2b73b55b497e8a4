package workrun

import (
	"fmt"
	"strings"
)

// MCPLink is what a Remote MCP Tool call keeps in its record's ContextID
// besides the handle id (RemoteCall.TaskID): the protocol version, the
// handle kind ("task", or "job" for a legacy job id), the task form and the
// session, in a form a person can read ("protocol=2025-11-25; handle=task;
// form=2025-11-25; session=…"). The node writes it and follows the call by
// it; the window describes the call from it. The session comes last and
// runs to the end, so any session id round-trips.
type MCPLink struct {
	Protocol, Handle, Form, Session string
}

func (l MCPLink) String() string {
	return fmt.Sprintf("protocol=%s; handle=%s; form=%s; session=%s", l.Protocol, l.Handle, l.Form, l.Session)
}

// ParseMCPLink reads a link MCPLink.String wrote; what it lacks is empty.
func ParseMCPLink(s string) MCPLink {
	var l MCPLink
	head, sess, ok := strings.Cut(s, "session=")
	if ok {
		l.Session = sess
	}
	for _, kv := range strings.Split(head, ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(kv), "=")
		switch k {
		case "protocol":
			l.Protocol = v
		case "handle":
			l.Handle = v
		case "form":
			l.Form = v
		}
	}
	return l
}
