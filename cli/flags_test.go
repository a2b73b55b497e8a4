package cli

import (
	"flag"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseInterleaved(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		pos    []string
		inputs []string
		json   bool
	}{
		{"flags first", []string{"--json", "--input", "a=1", "f.json"}, []string{"f.json"}, []string{"a=1"}, true},
		{"flags after", []string{"f.json", "--input", "a=1", "--json"}, []string{"f.json"}, []string{"a=1"}, true},
		{"flags between", []string{"x", "--input=a=1", "y", "--input", "b=2", "z"}, []string{"x", "y", "z"}, []string{"a=1", "b=2"}, false},
		{"no flags", []string{"x", "y"}, []string{"x", "y"}, nil, false},
		{"nothing", nil, nil, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := flag.NewFlagSet("t", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			var inputs repeated
			fs.Var(&inputs, "input", "")
			asJSON := fs.Bool("json", false, "")
			pos, err := parseInterleaved(fs, tc.args)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.pos, pos); d != "" {
				t.Errorf("positionals (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.inputs, []string(inputs)); d != "" {
				t.Errorf("--input (-want +got):\n%s", d)
			}
			if *asJSON != tc.json {
				t.Errorf("--json = %v, want %v", *asJSON, tc.json)
			}
		})
	}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if _, err := parseInterleaved(fs, []string{"x", "--nope"}); err == nil {
		t.Error("an unknown flag after a positional was accepted")
	}
}
