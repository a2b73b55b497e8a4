// Package runinputs is the Run dialog's form: one row per workflow input
// (a State field no node writes before it is read), in the order the
// workflow reads them, each with its type, filled with what the last run
// got or the sample's default; a file field's Choose file… is reported to
// the app layer, which imports the file and hands it back (AddFile). It is
// a widget package (ui/doc.go): it starts no goroutine and reads nothing.
package runinputs

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"workrun/ui/inspector"
	"workrun/workrun"
)

// Localizer words the form's labels in the window's language; the app
// layer hands it its Localizer.
type Localizer interface {
	// X is the label under key, fallback when it has none.
	X(key, fallback string) string
	// Messages is the language catalogue texts are rendered in.
	Messages() string
}

// Inputs are what the form asks for and starts with.
type Inputs struct {
	Workflow workrun.Workflow
	// Names are the inputs, in the order the workflow reads them.
	Names []string
	// Last holds the previous run's inputs.
	Last workrun.Values
	// Defaults are a sample's texts, for the inputs Last lacks.
	Defaults map[string]string
	// Hint is said above the rows ("": nothing).
	Hint string
}

// Form is the Run dialog's form: one row per workflow input, in the
// order the workflow reads them, each with its type, filled with what the
// last run of this workflow got (or the sample's question).
type Form struct {
	Names []string
	forms []*Fields
	box   *fyne.Container
}

// New builds the form of in; chooseFile is each file field's picker (see
// NewFields).
func New(loc Localizer, in Inputs, chooseFile func(f *Fields, field string)) *Form {
	wf, last := in.Workflow, in.Last
	ri := &Form{Names: in.Names, box: container.NewVBox()}
	if h := in.Hint; h != "" {
		// Read as ordinary text: the low importance's grey looked disabled.
		hint := widget.NewLabel(h)
		hint.Wrapping = fyne.TextWrapWord
		ri.box.Add(hint)
	}
	for _, n := range ri.Names {
		t := wf.State[n]
		// One single-field form per input keeps the order and reuses the
		// widgets (and file picking) of Fields.
		f := NewFields(loc, map[string]workrun.FieldType{n: t}, chooseFile)
		v, ok := last[n]
		if !ok {
			if s, ok2 := in.Defaults[n]; ok2 {
				v, ok = s, true
			}
		}
		if ok {
			switch t {
			case workrun.FieldBoolean:
				if b, isBool := v.(bool); isBool && f.checks[n] != nil {
					f.checks[n].SetChecked(b)
				}
			case workrun.FieldJSON:
				if b, err := json.Marshal(v); err == nil {
					f.SetText(n, string(b))
				}
			case workrun.FieldNumber:
				if x, isNum := v.(float64); isNum {
					f.SetText(n, strconv.FormatFloat(x, 'f', -1, 64))
				} else {
					f.SetText(n, fmt.Sprint(v))
				}
			case workrun.FieldFile, workrun.FieldFiles:
				// Files are chosen again for each run.
			default:
				if s, isStr := v.(string); isStr {
					f.SetText(n, s)
				}
			}
		}
		ri.forms = append(ri.forms, f)
		ri.box.Add(f.Object())
	}
	return ri
}

// Object is the form's widget tree.
func (ri *Form) Object() fyne.CanvasObject { return ri.box }

// SubmitOnEnter makes Enter in a one-line field call submit, as the
// dialog's Run button does, and returns the first such field (nil: none),
// which takes the focus.
func (ri *Form) SubmitOnEnter(submit func()) *widget.Entry {
	var first *widget.Entry
	for i, f := range ri.forms {
		if e := f.text[ri.Names[i]]; e != nil && !e.MultiLine {
			e.OnSubmitted = func(string) { submit() }
			if first == nil {
				first = e
			}
		}
	}
	return first
}

// Text is what the entry of input name holds ("" for none).
func (ri *Form) Text(name string) string {
	for _, f := range ri.forms {
		if e := f.text[name]; e != nil {
			return e.Text
		}
	}
	return ""
}

// Values returns every input typed.
func (ri *Form) Values() (workrun.Values, error) {
	out := workrun.Values{}
	for _, f := range ri.forms {
		v, err := f.Values()
		if err != nil {
			return nil, err
		}
		for k, x := range v {
			out[k] = x
		}
	}
	return out, nil
}

// Fields asks for a run's inputs, one row per State field. A file
// field's "Choose file…" is reported to chooseFile; the app layer imports
// the file and hands it back with AddFile.
type Fields struct {
	state      map[string]workrun.FieldType
	chooseFile func(f *Fields, field string)
	names      []string
	text       map[string]*widget.Entry
	checks     map[string]*widget.Check
	files      map[string][]workrun.ArtifactInfo
	flabel     map[string]*widget.Label
	form       *widget.Form

	loc Localizer // the words, in the window's language
}

// NewFields builds the form; a file field's button calls chooseFile
// (docs/product.md W3), and is disabled when chooseFile is nil.
func NewFields(loc Localizer, state map[string]workrun.FieldType, chooseFile func(f *Fields, field string)) *Fields {
	f := &Fields{loc: loc, state: state, chooseFile: chooseFile, text: map[string]*widget.Entry{},
		checks: map[string]*widget.Check{}, files: map[string][]workrun.ArtifactInfo{}, flabel: map[string]*widget.Label{}}
	for n := range state {
		f.names = append(f.names, n)
	}
	slices.Sort(f.names)
	f.form = widget.NewForm()
	for _, n := range f.names {
		t := state[n]
		var o fyne.CanvasObject
		switch t {
		case workrun.FieldBoolean:
			c := widget.NewCheck("", nil)
			f.checks[n] = c
			o = c
		case workrun.FieldFile, workrun.FieldFiles:
			l := widget.NewLabel(loc.X("run.no_file", "no file"))
			f.flabel[n] = l
			b := widget.NewButton(loc.X("run.choose_file", "Choose file…"), func() { f.chooseFile(f, n) })
			if chooseFile == nil {
				b.Disable()
			}
			o = container.NewBorder(nil, nil, nil, b, l)
		case workrun.FieldJSON:
			e := widget.NewMultiLineEntry()
			e.SetPlaceHolder(`{"key": "value"}`)
			f.text[n] = e
			o = e
		default:
			e := widget.NewEntry()
			f.text[n] = e
			o = e
		}
		f.form.Append(fmt.Sprintf("%s (%s)", n, inspector.FieldTypeLabel(loc, t)), o)
	}
	return f
}

// Object is the form's widget.
func (f *Fields) Object() fyne.CanvasObject { return f.form }

// SetText fills a text, number or JSON field (tests and defaults).
func (f *Fields) SetText(name, v string) {
	if e := f.text[name]; e != nil {
		e.SetText(v)
	}
}

// AddFile sets (file) or appends to (files) a file field: the file the
// person chose, imported.
func (f *Fields) AddFile(name string, info workrun.ArtifactInfo) {
	if f.state[name] == workrun.FieldFile {
		f.files[name] = []workrun.ArtifactInfo{info}
	} else {
		f.files[name] = append(f.files[name], info)
	}
	var names []string
	for _, a := range f.files[name] {
		names = append(names, fmt.Sprintf("%s (%s, %d B)", a.Name, a.MediaType, a.Size))
	}
	f.flabel[name].SetText(strings.Join(names, ", "))
}

// Values returns the inputs typed for each field; empty fields are left out.
func (f *Fields) Values() (workrun.Values, error) {
	v := workrun.Values{}
	for _, n := range f.names {
		switch t := f.state[n]; t {
		case workrun.FieldBoolean:
			v[n] = f.checks[n].Checked
		case workrun.FieldFile:
			if fs := f.files[n]; len(fs) > 0 {
				v[n] = fs[0].ID
			}
		case workrun.FieldFiles:
			if fs := f.files[n]; len(fs) > 0 {
				ids := make([]any, len(fs))
				for i, a := range fs {
					ids[i] = a.ID
				}
				v[n] = ids
			}
		case workrun.FieldNumber:
			s := strings.TrimSpace(f.text[n].Text)
			if s == "" {
				continue
			}
			x, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, fmt.Errorf(f.loc.X("run.bad_number", "%s: not a number"), n)
			}
			v[n] = x
		case workrun.FieldJSON:
			s := strings.TrimSpace(f.text[n].Text)
			if s == "" {
				continue
			}
			var x any
			if err := json.Unmarshal([]byte(s), &x); err != nil {
				return nil, fmt.Errorf(f.loc.X("run.bad_json", "%s: not valid JSON"), n)
			}
			v[n] = x
		default:
			if s := f.text[n].Text; s != "" {
				v[n] = s
			}
		}
	}
	return v, nil
}
