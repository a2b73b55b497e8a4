package cli

import (
	"errors"
	"testing"
)

// reportJSON keeps the report's own fields first, then ok and error, and
// fails loudly on a report that is not a JSON object.
func TestReportJSON(t *testing.T) {
	type rep struct {
		Name string `json:"name"`
	}
	cases := []struct {
		rep  any
		err  error
		want string
	}{
		{rep{"a"}, nil, "{\n  \"name\": \"a\",\n  \"ok\": true\n}\n"},
		{rep{"a"}, errors.New("refused"), "{\n  \"name\": \"a\",\n  \"ok\": false,\n  \"error\": \"refused\"\n}\n"},
		{struct{}{}, nil, "{\n  \"ok\": true\n}\n"},
	}
	for _, c := range cases {
		got, err := reportJSON(c.rep, c.err)
		if err != nil || string(got) != c.want {
			t.Errorf("reportJSON(%+v, %v) = %q, %v; want %q", c.rep, c.err, got, err, c.want)
		}
	}
	if _, err := reportJSON([]int{1}, nil); err == nil {
		t.Error("a report that is not an object was accepted")
	}
}
