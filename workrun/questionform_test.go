package workrun_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"workrun/workrun"
)

// sep1330 has every field shape an elicitation's requestedSchema may use
// (SEP-1330 enums, SEP-1034 defaults), in an order that is not sorted.
const sep1330 = `{"type":"object","properties":{
	"name":{"type":"string","title":"Your name","minLength":2,"maxLength":5,"default":"Ann"},
	"email":{"type":"string","format":"email"},
	"age":{"type":"integer","minimum":0,"maximum":150,"default":30},
	"ratio":{"type":"number","default":0.5},
	"ok":{"type":"boolean","default":true},
	"color":{"type":"string","enum":["r","g"],"default":"g"},
	"size":{"type":"string","oneOf":[{"const":"s","title":"Small"},{"const":"l","title":"Large"}]},
	"legacy":{"type":"string","enum":["a","b"],"enumNames":["Alpha","Beta"]},
	"tags":{"type":"array","minItems":1,"maxItems":2,"items":{"type":"string","enum":["x","y","z"]},"default":["x"]},
	"pets":{"type":"array","items":{"anyOf":[{"const":"cat","title":"Cat"},{"const":"dog","title":"Dog"}]}},
	"pin":{"type":"string","format":"password"},
	"day":{"type":"string","format":"date"}
},"required":["name","age","tags"]}`

func TestParseForm_AllShapes(t *testing.T) {
	f, err := workrun.ParseForm(json.RawMessage(sep1330))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, fd := range f.Fields {
		names = append(names, fd.Name)
	}
	if want := []string{"name", "email", "age", "ratio", "ok", "color", "size", "legacy", "tags", "pets", "pin", "day"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("order %v, want the schema's %v", names, want)
	}
	kinds := map[string]workrun.FormKind{"name": workrun.FormString, "age": workrun.FormInteger, "ratio": workrun.FormNumber,
		"ok": workrun.FormBoolean, "color": workrun.FormChoice, "size": workrun.FormChoice, "legacy": workrun.FormChoice,
		"tags": workrun.FormChoices, "pets": workrun.FormChoices}
	for n, k := range kinds {
		if fd, _ := f.Field(n); fd.Kind != k {
			t.Errorf("%s: kind %s, want %s", n, fd.Kind, k)
		}
	}
	size, _ := f.Field("size")
	legacy, _ := f.Field("legacy")
	pets, _ := f.Field("pets")
	if size.Options[1] != (workrun.FormOption{Value: "l", Title: "Large"}) || legacy.Options[0].Label() != "Alpha" || pets.Options[1].Label() != "Dog" {
		t.Errorf("titled options: %v %v %v", size.Options, legacy.Options, pets.Options)
	}
	if pin, _ := f.Field("pin"); !pin.Secret {
		t.Error("a password field is not secret")
	}
	if name, _ := f.Field("name"); !name.Required || name.Label() != "Your name" {
		t.Errorf("name: %+v", name)
	}
	want := map[string]any{"name": "Ann", "age": 30.0, "ratio": 0.5, "ok": true, "color": "g", "tags": []string{"x"}}
	if got := f.Defaults(); !reflect.DeepEqual(got, want) {
		t.Errorf("defaults %v, want %v", got, want)
	}
	if err := f.Validate(f.Defaults()); err != nil {
		t.Errorf("the defaults do not validate: %v", err)
	}
}

func TestForm_Validate(t *testing.T) {
	f, err := workrun.ParseForm(json.RawMessage(sep1330))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		vals string
		want []string // English reasons; none = valid
	}{
		{`{"name":"Bo","age":1,"tags":["y","z"],"email":"a@b.example","pets":["cat"],"size":"s","legacy":"b","day":"2026-12-02"}`, nil},
		{`{}`, []string{"Your name: a value is required", "age: a value is required", "tags: a value is required"}},
		{`{"name":"B","age":1.5,"tags":[]}`, []string{"Your name: at least 2 characters", "age: want a whole number", "tags: a value is required"}},
		{`{"name":"Bobbyx","age":200,"tags":["x","x"]}`, []string{"at most 5 characters", "age: at most 150", `tags: "x" is picked twice`}},
		{`{"name":"Bo","age":"3","tags":["x","y","z"]}`, []string{"age: want a number", "tags: pick at most 2"}},
		{`{"name":"Bo","age":3,"tags":["w"],"color":"blue","ok":"yes","email":"nope","day":"02/12/2026"}`,
			[]string{"tags: pick one of x, y, z", "color: pick one of r, g", "ok: want yes or no", "email: not a valid email", "day: not a valid date"}},
		{`{"name":"Bo","age":3,"tags":["x"],"extra":1}`, []string{"extra: the form has no such field"}},
	}
	for _, c := range cases {
		var vals map[string]any
		if err := json.Unmarshal([]byte(c.vals), &vals); err != nil {
			t.Fatal(err)
		}
		err := f.Validate(vals)
		if len(c.want) == 0 {
			if err != nil {
				t.Errorf("%s: %v, want valid", c.vals, err)
			}
			continue
		}
		if !errors.Is(err, workrun.ErrBadAnswer) {
			t.Errorf("%s: %v, want ErrBadAnswer", c.vals, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q lacks %q", c.vals, err, w)
			}
		}
	}
	// Each reason renders in Chinese too.
	probs := f.Check(map[string]any{"age": 200.0})
	if len(probs) == 0 {
		t.Fatal("no problems")
	}
	for _, p := range probs {
		if zh := p.Text.In("zh"); zh == p.Text.In("en") || !strings.ContainsAny(zh, "必能应请") {
			t.Errorf("%s: Chinese %q", p.Field, zh)
		}
	}
}

func TestFormField_Parse(t *testing.T) {
	f, err := workrun.ParseForm(json.RawMessage(sep1330))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		field, typed string
		want         any
	}{
		{"age", "42", 42.0}, {"ratio", "0.25", 0.25}, {"ok", "no", false}, {"ok", "是", true},
		{"size", "Large", "l"}, {"size", "s", "s"}, {"tags", "x, z", []any{"x", "z"}}, {"pets", "Dog,cat", []any{"dog", "cat"}},
		{"name", " Bo ", "Bo"}, {"age", "", nil},
	}
	for _, c := range cases {
		fd, _ := f.Field(c.field)
		got, err := fd.Parse(c.typed)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %q: %#v %v, want %#v", c.field, c.typed, got, err, c.want)
		}
	}
	for _, bad := range [][2]string{{"age", "forty"}, {"ok", "maybe"}, {"size", "medium"}, {"tags", "x,w"}} {
		fd, _ := f.Field(bad[0])
		if _, err := fd.Parse(bad[1]); !errors.Is(err, workrun.ErrBadAnswer) {
			t.Errorf("%s %q: %v, want ErrBadAnswer", bad[0], bad[1], err)
		}
	}
}

func TestParseForm_Refuses(t *testing.T) {
	for _, s := range []string{`{"properties":{"x":{"type":"object"}}}`, `{"properties":[1]}`, `not json`} {
		if _, err := workrun.ParseForm(json.RawMessage(s)); !errors.Is(err, workrun.ErrBadAnswer) {
			t.Errorf("%s: %v, want ErrBadAnswer", s, err)
		}
	}
	if f, err := workrun.ParseForm(nil); err != nil || len(f.Fields) != 0 {
		t.Errorf("empty schema: %v %v", f, err)
	}
}

// TestFormAnswer: the content an accept answer sends — text read as each
// field's type, defaults for the fields without a value (SEP-1034), then
// checked; the one form rule for the engine, the window, the CLI, the
// Remote MCP Tool node and the conformance client.
func TestFormAnswer(t *testing.T) {
	f, err := workrun.ParseForm(json.RawMessage(`{"type":"object","properties":{
		"name":{"type":"string","default":"John Doe","maxLength":10},
		"age":{"type":"integer","default":30,"minimum":0},
		"score":{"type":"number","default":95.5},
		"status":{"type":"string","enum":["active","inactive"],"default":"active"},
		"verified":{"type":"boolean","default":true},
		"tags":{"type":"array","items":{"anyOf":[{"const":"a","title":"A"},{"const":"b","title":"B"}]}},
		"pin":{"type":"string","format":"password"},
		"must":{"type":"string"}},"required":["must"]}`))
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.Answer(map[string]any{"must": "x", "age": "41", "tags": "a, B", "verified": false})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"age":41,"must":"x","name":"John Doe","score":95.5,"status":"active","tags":["a","b"],"verified":false}`
	if b, _ := json.Marshal(got); string(b) != want {
		t.Errorf("answer %s\nwant   %s", b, want)
	}
	for _, bad := range []map[string]any{
		{},                              // required missing
		{"must": ""},                    // required left empty
		{"must": "x", "age": "old"},     // not a number
		{"must": "x", "age": 1.5},       // not whole
		{"must": "x", "age": -1.0},      // below minimum
		{"must": "x", "status": "gone"}, // not a choice
		{"must": "x", "tags": "c"},      // not a choice
		{"must": "x", "name": "far too long a name"},
		{"must": "x", "other": "y"}, // not a field of the form
	} {
		if _, err := f.Answer(bad); !errors.Is(err, workrun.ErrBadAnswer) {
			t.Errorf("%v: err = %v, want ErrBadAnswer", bad, err)
		}
	}
	if pin, _ := f.Field("pin"); !pin.Secret {
		t.Error("a password field is not secret")
	}
	if name, _ := f.Field("name"); name.Secret {
		t.Error("a plain field is secret")
	}
}

// FuzzParseForm: a remote's schema is network bytes.
func FuzzParseForm(f *testing.F) {
	f.Add([]byte(sep1330))
	f.Add([]byte(`{"properties":{"a":{"type":"array","items":{"anyOf":[{"const":1}]}}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		form, err := workrun.ParseForm(b)
		if err != nil {
			return
		}
		_ = form.Check(form.Defaults())
		if content, err := form.Answer(map[string]any{}); err == nil {
			if probs := form.Check(content); len(probs) > 0 {
				t.Fatalf("Answer gave %v, which Check refuses: %v", content, probs)
			}
		}
		for _, fd := range form.Fields {
			_, _ = fd.Parse("1,2")
		}
	})
}
