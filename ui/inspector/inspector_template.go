package inspector

import (
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"workrun/ui/document"
	"workrun/ui/tooltip"
	"workrun/workrun"
)

// A template config value (workrun.ValueTemplate, such as the Remote
// Agent's message) is written in the node's inspector: typing "{{" lists
// the workflow's State fields the template may name under the entry (Up,
// Down, Enter or a click inserts "name}}"; Escape closes the list), a name
// State lacks can be made a field there, and a field the template names
// that State lacks is said under the entry (docs/remote-agent.md R3.2,
// docs/workflow-format.md "Templates").

// TemplateEntry is the editor of a template (a message, an argument): an
// entry that tells its completion list about keys and typed text.
type TemplateEntry struct {
	widget.Entry
	completion *fieldCompletion
}

// newTemplateEntry makes the entry: multiLine for a message, one line for
// a tool argument's value.
func newTemplateEntry(multiLine bool) *TemplateEntry {
	e := &TemplateEntry{}
	e.MultiLine = multiLine
	if multiLine {
		e.Wrapping = fyne.TextWrapWord
	}
	e.ExtendBaseWidget(e)
	if multiLine {
		e.SetMinRowsVisible(3)
	}
	return e
}

// TypedKey implements fyne.Focusable: the completion list takes Up, Down,
// Enter and Escape while it is shown.
func (e *TemplateEntry) TypedKey(k *fyne.KeyEvent) {
	c := e.completion
	if c != nil && c.key(k) {
		return
	}
	before := e.Text
	e.Entry.TypedKey(k)
	if e.Text == before && c != nil {
		c.update() // the cursor moved: into or out of a reference
	}
}

// templatePrefix finds the reference being typed at rune offset cursor of
// text: the "{{" before it and the part of a name typed after it. ok is
// false when the cursor is not inside an unclosed "{{".
func templatePrefix(text string, cursor int) (prefix string, ok bool) {
	rs := []rune(text)
	if cursor < 0 || cursor > len(rs) {
		return "", false
	}
	before := string(rs[:cursor])
	i := strings.LastIndex(before, "{{")
	if i < 0 {
		return "", false
	}
	p := strings.TrimLeft(before[i+2:], " ")
	if strings.ContainsAny(p, "{} \t\n") {
		return "", false
	}
	return p, true
}

// fieldCompletion is the list of State fields shown under a template entry
// while a reference is typed.
type fieldCompletion struct {
	in     *Inspector
	entry  *TemplateEntry
	types  []workrun.FieldType
	box    *fyne.Container // the items, under the entry
	items  []completionItem
	sel    int
	create func(name string) // opens the new-field row for name (nil: none is offered)
}

// maxCompletions is how many fields the list shows at once.
const maxCompletions = 8

// completionItem is one line of the list: a field to insert, or a name to
// make a field of.
type completionItem struct {
	name   string
	create bool
	button *widget.Button
}

// update lists what the reference being typed can become; the list is
// hidden when no reference is being typed.
func (c *fieldCompletion) update() {
	prefix, ok := templatePrefix(c.entry.Text, c.entry.CursorTextOffset())
	c.box.RemoveAll()
	c.items = nil
	c.sel = 0
	if !ok {
		c.box.Hide()
		return
	}
	state := c.in.doc().State()
	low := strings.ToLower(prefix)
	var first, then []string
	for _, n := range document.FieldNames(state, c.types...) {
		switch l := strings.ToLower(n); {
		case strings.HasPrefix(l, low):
			first = append(first, n)
		case strings.Contains(l, low):
			then = append(then, n)
		}
	}
	// A few at a time: typing narrows the list, which never pushes the
	// rest of the form far down.
	for _, n := range append(first, then...)[:min(len(first)+len(then), maxCompletions)] {
		c.items = append(c.items, completionItem{name: n})
	}
	if _, exists := state[prefix]; c.create != nil && prefix != "" && !exists && workrun.IsFieldName(prefix) {
		c.items = append(c.items, completionItem{name: prefix, create: true})
	}
	if len(c.items) == 0 {
		if prefix == "" {
			l := caption(c.in.loc.X("insp.tpl_no_fields", "No State field to insert yet: type a name after {{ to create one."))
			c.box.Add(l)
			c.box.Show()
		} else {
			c.box.Hide()
		}
		return
	}
	for i := range c.items {
		it := &c.items[i]
		label, icon := fmt.Sprintf(c.in.loc.X("insp.tpl_create", "Create the field “%s”…"), it.name), theme.ContentAddIcon()
		if !it.create {
			label, icon = it.name+"  ("+FieldTypeLabel(c.in.loc, state[it.name])+")", theme.NavigateNextIcon()
		}
		idx := i
		it.button = widget.NewButtonWithIcon(label, icon, func() { c.pick(idx) })
		it.button.Alignment = widget.ButtonAlignLeading
		c.box.Add(it.button)
	}
	c.mark()
	c.box.Show()
}

// mark shows which item Enter picks.
func (c *fieldCompletion) mark() {
	for i, it := range c.items {
		imp := widget.LowImportance
		if i == c.sel {
			imp = widget.HighImportance
		}
		if it.button.Importance != imp {
			it.button.Importance = imp
			it.button.Refresh()
		}
	}
}

// Shown reports whether the list is offered.
func (c *fieldCompletion) shown() bool { return c.box.Visible() && len(c.items) > 0 }

// key moves through the list and picks from it while it is shown.
func (c *fieldCompletion) key(k *fyne.KeyEvent) bool {
	if !c.shown() {
		return false
	}
	switch k.Name {
	case fyne.KeyDown:
		c.sel = (c.sel + 1) % len(c.items)
		c.mark()
	case fyne.KeyUp:
		c.sel = (c.sel + len(c.items) - 1) % len(c.items)
		c.mark()
	case fyne.KeyReturn, fyne.KeyEnter:
		c.pick(c.sel)
	case fyne.KeyEscape:
		c.close()
	default:
		return false
	}
	return true
}

func (c *fieldCompletion) close() {
	c.box.RemoveAll()
	c.items = nil
	c.box.Hide()
}

// pick inserts the field of item i, or offers to create it.
func (c *fieldCompletion) pick(i int) {
	if i < 0 || i >= len(c.items) {
		return
	}
	it := c.items[i]
	c.close()
	if it.create {
		c.create(it.name)
		return
	}
	c.insert(it.name, true)
}

// insert completes the reference being typed with name (or, when none is
// being typed, inserts "{{name}}" at the cursor), through the entry's own
// editing so its cursor and undo follow. The change is applied when
// apply is true; otherwise the caller applies it.
func (c *fieldCompletion) insert(name string, apply bool) {
	e := c.entry
	changed := e.OnChanged
	e.OnChanged = nil
	text := name
	prefix, ok := templatePrefix(e.Text, e.CursorTextOffset())
	if ok {
		for range []rune(prefix) {
			e.Entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyBackspace})
		}
	} else {
		text = "{{" + name
	}
	rest := string([]rune(e.Text)[e.CursorTextOffset():])
	if !strings.HasPrefix(strings.TrimLeft(rest, " "), "}}") {
		text += "}}"
	}
	for _, r := range text {
		e.Entry.TypedRune(r)
	}
	e.OnChanged = changed
	if c.in.canvas != nil {
		c.in.canvas.Focus(e)
	}
	if apply && changed != nil {
		changed(e.Text)
	}
}

// addTemplate adds the editor of a template config key: the entry, the
// completion list under it, the field it names that State lacks (with a
// button that creates it) and the new-field row.
func (in *Inspector) addTemplate(n workrun.NodeSpec, f workrun.ConfigField, text, hint string, changed func()) fyne.CanvasObject {
	e := newTemplateEntry(true)
	e.SetText(text)
	e.SetPlaceHolder(hint)
	in.widgets[f.Key] = e
	c := &fieldCompletion{in: in, entry: e, types: f.FieldTypes, box: container.NewVBox()}
	c.box.Hide()
	e.completion = c
	problem := widget.NewLabel("")
	problem.Wrapping = fyne.TextWrapWord
	problem.Importance = widget.DangerImportance
	problem.Hide()
	var missing string // the first field named that State lacks
	fix := widget.NewButtonWithIcon("", theme.ContentAddIcon(), nil)
	fix.Hide()
	nf := in.newFieldRow(f, func(name string, t workrun.FieldType) {
		if strings.Contains(e.Text, "{{") && slices.Contains(workrun.TemplateFields(e.Text), name) {
			in.createField(n, name, t) // the template names it already
			return
		}
		c.insert(name, false)
		in.createField(n, name, t)
	})
	c.create = nf.open
	fix.OnTapped = func() { nf.open(missing) }
	check := func() {
		state := in.doc().State()
		err := workrun.CheckTemplate(f.Key, e.Text, state, f.FieldTypes...)
		missing = ""
		for _, name := range workrun.TemplateFields(e.Text) {
			if _, ok := state[name]; !ok {
				missing = name
				break
			}
		}
		if err == nil {
			problem.SetText("")
			problem.Hide()
		} else {
			problem.SetText("⚠ " + errText(in.loc, err))
			problem.Show()
		}
		if missing != "" && workrun.IsFieldName(missing) {
			fix.SetText(fmt.Sprintf(in.loc.X("insp.tpl_create", "Create the field “%s”…"), missing))
			fix.Show()
		} else {
			fix.Hide()
		}
	}
	e.OnChanged = func(string) {
		c.update()
		check()
		changed()
	}
	in.stateShown = append(in.stateShown, func() {
		check()
		if c.shown() {
			c.update()
		}
	})
	in.inPlace = append(in.inPlace, func() string { return strings.TrimPrefix(problem.Text, "⚠ ") })
	check()
	return container.NewVBox(e, c.box, problem, fix, nf.box)
}

// newFieldRow is the row that makes a new State field from a node's
// inspector: its name, its type (of those the config key accepts) and
// Create; a name State has or cannot have is said in place.
type newFieldRow struct {
	canvas fyne.Canvas
	box    *fyne.Container
	name   *widget.Entry
	typ    *widget.Select
	types  []workrun.FieldType
	err    *widget.Label
	parts  []fyne.CanvasObject // in box while the row is open
}

func (in *Inspector) newFieldRow(f workrun.ConfigField, create func(name string, t workrun.FieldType)) *newFieldRow {
	r := &newFieldRow{canvas: in.canvas, name: widget.NewEntry(), types: f.FieldTypes}
	if len(r.types) == 0 {
		r.types = fieldTypes
	}
	opts := make([]string, len(r.types))
	for i, t := range r.types {
		opts[i] = FieldTypeLabel(in.loc, t)
	}
	r.typ = NewSelect(in.loc, opts, nil)
	r.typ.SetSelectedIndex(0)
	r.name.SetPlaceHolder(in.loc.X("insp.new_field_name", "new field's name"))
	r.err = widget.NewLabel("")
	r.err.Wrapping = fyne.TextWrapWord
	r.err.Importance = widget.DangerImportance
	r.err.Hide()
	submit := func() {
		name := strings.TrimSpace(r.name.Text)
		if msg := in.fieldNameProblem(name); msg != "" {
			r.err.SetText("⚠ " + msg)
			r.err.Show()
			return
		}
		t := r.types[max(r.typ.SelectedIndex(), 0)]
		r.close()
		create(name, t)
	}
	r.name.OnSubmitted = func(string) { submit() }
	ok := widget.NewButtonWithIcon(in.loc.X("insp.create_field", "Create field"), theme.ConfirmIcon(), submit)
	ok.Importance = widget.HighImportance
	cancel := tooltip.NewButton(in.tips, "", theme.CancelIcon(), in.loc.X("insp.cancel_field", "Do not create the field"), r.close)
	// The row's widgets join the form only while it is open: a closed
	// row holds nothing a walk of the form (or the keyboard) can reach.
	r.parts = []fyne.CanvasObject{caption(in.loc.X("insp.new_field", "New State field")), r.name,
		container.NewBorder(nil, nil, nil, container.NewHBox(ok, cancel), r.typ), r.err}
	r.box = container.NewVBox()
	r.box.Hide()
	in.newFields[f.Key] = r
	// The row by its parts: key+"+new.row" (shown while open), .name, .type
	// and .error (why a name is refused).
	k := f.Key + "+new."
	in.widgets[k+"row"], in.widgets[k+"name"], in.widgets[k+"type"], in.widgets[k+"error"] = r.box, r.name, r.typ, r.err
	return r
}

// open shows the row with name filled in and puts the keyboard in it.
func (r *newFieldRow) open(name string) {
	r.name.SetText(name)
	r.err.Hide()
	if len(r.box.Objects) == 0 {
		for _, o := range r.parts {
			r.box.Add(o)
		}
	}
	r.box.Show()
	if r.canvas != nil {
		r.canvas.Focus(r.name)
	}
}

func (r *newFieldRow) close() {
	r.err.Hide()
	r.box.RemoveAll()
	r.box.Hide()
}

// fieldNameProblem says why name cannot be a new State field ("" when it
// can be one).
func (in *Inspector) fieldNameProblem(name string) string {
	switch {
	case name == "":
		return in.loc.X("insp.field_name_empty", "Give the field a name.")
	case !workrun.IsFieldName(name):
		return fmt.Sprintf(in.loc.X("insp.field_name_bad", "“%s” cannot name a field: no spaces or braces."), name)
	}
	if _, ok := in.doc().State()[name]; ok {
		return fmt.Sprintf(in.loc.X("insp.field_exists", "State already has a field “%s”."), name)
	}
	return ""
}

// createField adds the State field name of type t together with the
// config the form holds now (which uses it), as one undo step, without
// rebuilding the form: its pickers get the new field in place.
func (in *Inspector) createField(n workrun.NodeSpec, name string, t workrun.FieldType) {
	d := in.doc()
	cur, ok := d.Node(n.ID)
	if !ok || in.nodeID != n.ID {
		return
	}
	vals, err := in.collect()
	if err != nil {
		// Another value of the form cannot be read: nothing is applied
		// until it is fixed, and the field is not made without the node's
		// use of it.
		in.pending = err.Error()
		in.status(fmt.Sprintf(in.loc.X("insp.dropped", "Not applied: %s"), err.Error()))
		return
	}
	in.pending = ""
	cfg := document.MergeConfig(cur.Config, in.info, vals)
	in.apply(func() { in.Edits.newField(name, t, n.ID, cfg) })
	for _, f := range in.stateShown {
		f()
	}
	in.recheck(n)
	in.status(fmt.Sprintf(in.loc.X("insp.field_created", "Added the State field %s (%s); Ctrl+Z removes it."), name, FieldTypeLabel(in.loc, t)))
}

// addFieldPicker is the editor of a ValueField or ValueFields key: the
// picker, a button that makes a new field for it, and the new-field row.
func (in *Inspector) addFieldPicker(n workrun.NodeSpec, f workrun.ConfigField, picker fyne.CanvasObject, choose func(name string)) fyne.CanvasObject {
	nf := in.newFieldRow(f, func(name string, t workrun.FieldType) {
		choose(name)
		in.createField(n, name, t)
	})
	add := tooltip.NewButton(in.tips, "", theme.ContentAddIcon(), in.loc.X("insp.new_field_for", "Create a new State field for this"), func() { nf.open("") })
	in.widgets[f.Key+"+new"] = add
	// The + stays at the top right, its own height, beside a tall list.
	return container.NewVBox(container.NewBorder(nil, nil, nil, container.NewVBox(add), picker), nf.box)
}
