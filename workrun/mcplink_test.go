package workrun

import "testing"

// TestMCPLink_RoundTrips: a link reads back as written, whatever the
// session id holds (it runs to the end); a link lacking parts reads them
// empty.
func TestMCPLink_RoundTrips(t *testing.T) {
	for _, l := range []MCPLink{
		{Protocol: "2025-11-25", Handle: "task", Form: "2025-11-25", Session: "s-1"},
		{Protocol: "2026-07-28", Handle: "job", Session: "a; handle=task; form=x session= y"},
		{},
	} {
		if got := ParseMCPLink(l.String()); got != l {
			t.Errorf("ParseMCPLink(%q) = %+v, want %+v", l.String(), got, l)
		}
	}
	if got := ParseMCPLink("protocol=2025-06-18"); got != (MCPLink{Protocol: "2025-06-18"}) {
		t.Errorf("a link with the protocol only reads %+v", got)
	}
}
