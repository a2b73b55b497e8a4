package runpanel

import (
	"encoding/json"
	"fmt"
	"mime"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

// ValuesView shows named values — a node's inputs or outputs — as a person
// reads and uses them: text wrapped and selectable, with Copy; JSON as an
// indented tree whose objects and lists open and close (the first level
// open, the rest built only when opened, so a large value costs nothing
// until looked at), with Copy of the whole value indented; a file (a file
// or files field, or a large value kept by reference) by its name, media
// type and size, with Open and Save…. The run panel and the run record's
// window show node values with it.
//
// It is a widget in the sense of doc.go: the app layer reads artifact
// descriptions off the UI thread when OnNeedFiles asks and hands them back
// with KnowFiles; Open and Save… go to OnOpenFile and OnSaveFile.
type ValuesView struct {
	box   *fyne.Container
	shown []string            // one line per row shown, in order (what tests read)
	objs  []fyne.CanvasObject // the object that draws each line of shown
	col   *fyne.Container     // the column render adds to (nil: box)

	sections []ValuesSection
	types    map[string]workrun.FieldType
	files    map[string]workrun.ArtifactInfo
	failed   map[string]string // why a file's description could not be read
	asked    map[string]bool

	OnNeedFiles func(ids []string)
	OnOpenFile  func(id string)
	OnSaveFile  func(id string)

	loc   Localizer // the words, in the window's language
	words Wording   // the window's wording of reasons, counts, JSON
}

// ValuesSection is one titled group of values ("inputs", "outputs"); Empty
// is what it says when it holds none.
type ValuesSection struct {
	Title  string
	Values workrun.Values
	Empty  string
}

// NewValuesView makes an empty view.
func NewValuesView(loc Localizer, words Wording) *ValuesView {
	return &ValuesView{loc: loc, words: words, box: container.NewVBox(), files: map[string]workrun.ArtifactInfo{}, failed: map[string]string{}, asked: map[string]bool{}}
}

// Object is the view's widget tree.
func (v *ValuesView) Object() fyne.CanvasObject { return v.box }

// Show replaces what the view shows; types are the workflow's State
// fields (which say that a string is a file's id).
func (v *ValuesView) Show(types map[string]workrun.FieldType, sections ...ValuesSection) {
	v.types, v.sections = types, sections
	v.render()
}

// KnowFiles adds artifact descriptions, and the errors of those that could
// not be read; the values shown are drawn again when one of their files is
// among them.
func (v *ValuesView) KnowFiles(infos map[string]workrun.ArtifactInfo, failed map[string]error) {
	redraw := false
	for id, a := range infos {
		v.files[id] = a
		redraw = redraw || v.shows(id)
	}
	for id, err := range failed {
		v.failed[id] = v.words.Reason(err.Error())
		redraw = redraw || v.shows(id)
	}
	if redraw {
		v.render()
	}
}

// shows reports whether a file of the values shown has id.
func (v *ValuesView) shows(id string) bool {
	for _, s := range v.sections {
		for name, val := range s.Values {
			if slices.Contains(v.fileIDs(name, val), id) {
				return true
			}
		}
	}
	return false
}

// text is what the view shows, one row a line.
func (v *ValuesView) text() string { return strings.Join(v.shown, "\n") }

func (v *ValuesView) render() {
	v.box.RemoveAll()
	v.shown, v.objs = v.shown[:0], v.objs[:0]
	var need []string
	// Inputs and outputs side by side: a node's first input and first
	// output row then show in the few rows a 1024×700 window leaves the
	// detail (docs/product.md "The window").
	var cols []*fyne.Container
	for _, s := range v.sections {
		if len(v.sections) == 2 {
			v.col = container.NewVBox()
			cols = append(cols, v.col)
		}
		if len(s.Values) == 0 {
			line := s.Title + colon(v.loc) + s.Empty
			v.add(widget.NewLabel(line), line)
			continue
		}
		h := widget.NewLabelWithStyle(s.Title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		v.add(h, s.Title+":")
		names := make([]string, 0, len(s.Values))
		for name := range s.Values {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			need = append(need, v.value(name, s.Values[name])...)
		}
	}
	if len(cols) == 2 {
		v.box.Add(container.NewGridWithColumns(2, cols[0], cols[1]))
	}
	v.col = nil
	v.box.Refresh()
	if len(need) > 0 && v.OnNeedFiles != nil {
		v.OnNeedFiles(need)
	}
}

func (v *ValuesView) add(o fyne.CanvasObject, line string) {
	if v.col != nil {
		v.col.Add(o)
	} else {
		v.box.Add(o)
	}
	v.shown = append(v.shown, line)
	v.objs = append(v.objs, o)
}

// oneRow is the longest text value drawn on its name's row (name, value,
// Copy): at 1024×700 a node's detail has room for a few rows only, and a
// short value took two (docs/product.md "The window").
const oneRow = 60

// short reports whether a text value fits on its name's row.
func short(s string) bool {
	return s != "" && !strings.ContainsAny(s, "\n\r") && len([]rune(s)) <= oneRow
}

// value adds the rows of one value and returns the file ids whose
// descriptions it still needs.
func (v *ValuesView) value(name string, val any) (need []string) {
	if ids := v.fileIDs(name, val); ids != nil {
		for _, id := range ids {
			v.add(v.fileRow(name, id), v.fileLine(name, id))
			if _, ok := v.files[id]; !ok && !v.asked[id] {
				v.asked[id] = true
				need = append(need, id)
			}
		}
		if len(ids) == 0 {
			line := name + colon(v.loc) + v.loc.X("values.no_files", "no files")
			v.add(widget.NewLabel(line), line)
		}
		return need
	}
	switch x := val.(type) {
	case string:
		l := selectableText(clipText(v.words, x))
		if short(x) {
			l.Wrapping = fyne.TextWrapOff
			l.Truncation = fyne.TextTruncateEllipsis
			name := widget.NewLabelWithStyle(name+colon(v.loc), fyne.TextAlignLeading, fyne.TextStyle{Italic: true})
			row := container.NewBorder(nil, nil, name, copyButton(v.loc, x), l)
			v.add(row, strings.TrimSuffix(name.Text, colon(v.loc))+":")
			v.shown = append(v.shown, "  "+x) // drawn by the same row
			v.objs = append(v.objs, row)
			return nil
		}
		v.add(container.NewBorder(nil, nil, nil, copyButton(v.loc, x), widget.NewLabelWithStyle(name, fyne.TextAlignLeading, fyne.TextStyle{Italic: true})), name+":")
		v.add(l, "  "+firstLine(x))
	case map[string]any, []any:
		whole, _ := json.MarshalIndent(x, "", "  ")
		v.add(container.NewBorder(nil, nil, nil, copyButton(v.loc, string(whole)), widget.NewLabelWithStyle(name, fyne.TextAlignLeading, fyne.TextStyle{Italic: true})), name+":")
		v.add(jsonNode(v.loc, "", x, 1, true), "  "+firstLine(v.words.JSON(x)))
	default:
		b, _ := json.Marshal(x)
		l := selectableText(name + ": " + string(b))
		v.add(l, name+": "+string(b))
	}
	return nil
}

// fileIDs are the artifact ids val holds as a file value (nil: it is not
// one): a file or files field, or a large text/JSON value kept by
// reference.
func (v *ValuesView) fileIDs(name string, val any) []string {
	if r, ok := workrun.RefOf(val); ok {
		return []string{r.Artifact}
	}
	switch v.types[name] {
	case workrun.FieldFile:
		if s, ok := val.(string); ok && s != "" {
			return []string{s}
		}
		return []string{}
	case workrun.FieldFiles:
		ids := []string{}
		if xs, ok := val.([]any); ok {
			for _, x := range xs {
				if s, ok := x.(string); ok && s != "" {
					ids = append(ids, s)
				}
			}
		}
		return ids
	}
	return nil
}

// fileLine names a file for a person: its name, media type and size once
// known, its id's start until then.
func (v *ValuesView) fileLine(field, id string) string {
	a, ok := v.files[id]
	if why, bad := v.failed[id]; bad && !ok {
		return fmt.Sprintf("%s: 📄 %s… — %s", field, v.words.ShortID(id), why)
	}
	if !ok {
		return fmt.Sprintf("%s: 📄 %s…", field, v.words.ShortID(id))
	}
	return fmt.Sprintf("%s: 📄 %s (%s, %s)", field, a.Name, mediaEssence(a.MediaType), sizeText(a.Size))
}

// mediaEssence is a media type without its parameters ("text/plain" for
// "text/plain; charset=utf-8"): the parameters tell a person nothing and
// made the line too long for half a 1024 px detail.
func mediaEssence(t string) string {
	if mt, _, err := mime.ParseMediaType(t); err == nil {
		return mt
	}
	return t
}

func (v *ValuesView) fileRow(field, id string) fyne.CanvasObject {
	open := widget.NewButtonWithIcon(v.loc.X("values.open", "Open"), theme.FileIcon(), func() { v.OnOpenFile(id) })
	save := widget.NewButtonWithIcon(v.loc.X("remote.save", "Save…"), theme.DocumentSaveIcon(), func() { v.OnSaveFile(id) })
	if v.OnOpenFile == nil {
		open.Disable()
	}
	if v.OnSaveFile == nil {
		save.Disable()
	}
	// The file's line whole (wrapped, never cut), its buttons on the line
	// below: beside the buttons, in the half of a 1024 px detail a node's
	// outputs get, the line was cut to "docs: demo.txt (t…" and the type
	// and size were lost.
	l := widget.NewLabel(v.fileLine(field, id))
	l.Wrapping = fyne.TextWrapWord
	return container.NewVBox(l, container.NewHBox(open, save))
}

// colon is the colon after a label in the window's language: Chinese
// takes the full-width one (as HumanError's lines do).
func colon(loc Localizer) string {
	if workrun.IsChinese(loc.Language()) {
		return "："
	}
	return ": "
}

// sizeText is a byte count for a person (1.5 KiB).
func sizeText(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	f, units := float64(n)/unit, "KMGT"
	i := 0
	for f >= unit && i < len(units)-1 {
		f /= unit
		i++
	}
	return fmt.Sprintf("%.1f %ciB", f, units[i])
}

// maxShownText is how much of a long text the view draws; Copy copies it
// all.
const maxShownText = 20000

func clipText(words Wording, s string) string {
	if len(s) <= maxShownText {
		return s
	}
	cut := strings.ToValidUTF8(s[:maxShownText], "")
	return cut + "\n" + words.Count(len([]rune(s[len(cut):])), "values.more_text", "… %d more character (Copy copies all)", "… %d more characters (Copy copies all)")
}

func firstLine(s string) string {
	line, _, more := strings.Cut(s, "\n")
	if len(line) > 200 {
		line, more = strings.ToValidUTF8(line[:200], ""), true
	}
	if more {
		line += "…"
	}
	return line
}

// selectableText is a wrapped label whose text can be selected and copied.
func selectableText(s string) *widget.Label {
	l := widget.NewLabel(s)
	l.Wrapping = fyne.TextWrapWord
	l.Selectable = true
	return l
}

// copyButton puts text on the clipboard.
func copyButton(loc Localizer, text string) *widget.Button {
	return widget.NewButtonWithIcon(loc.X("values.copy", "Copy"), theme.ContentCopyIcon(), func() {
		fyne.CurrentApp().Clipboard().SetContent(text)
	})
}

// maxTreeChildren is how many members of one object or list the tree
// draws; the rest are counted.
const maxTreeChildren = 200

// jsonNode draws one JSON value at depth: a scalar as a selectable line,
// an object or list as a row that opens and closes its members (built the
// first time it opens).
func jsonNode(loc Localizer, key string, val any, depth int, open bool) fyne.CanvasObject {
	indent := strings.Repeat("    ", depth-1)
	prefix := indent
	if key != "" {
		prefix += key + ": "
	}
	var keys []string
	var member func(k string) any
	switch x := val.(type) {
	case map[string]any:
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		member = func(k string) any { return x[k] }
	case []any:
		for i := range x {
			keys = append(keys, fmt.Sprint(i))
		}
		member = func(k string) any {
			var i int
			fmt.Sscan(k, &i)
			return x[i]
		}
	default:
		b, _ := json.Marshal(x)
		l := widget.NewLabel(prefix + string(b))
		l.Wrapping = fyne.TextWrapWord
		l.Selectable = true
		return l
	}
	summary := fmt.Sprintf("{%d}", len(keys))
	if _, ok := val.([]any); ok {
		summary = fmt.Sprintf("[%d]", len(keys))
	}
	children := container.NewVBox()
	built := false
	var toggle *widget.Button
	set := func(on bool) {
		if on && !built {
			built = true
			for i, k := range keys {
				if i == maxTreeChildren {
					children.Add(widget.NewLabel(indent + "    " + fmt.Sprintf(loc.X("values.more_members", "… %d more"), len(keys)-i)))
					break
				}
				children.Add(jsonNode(loc, k, member(k), depth+1, false))
			}
		}
		arrow := "▸ "
		if on {
			arrow = "▾ "
			children.Show()
		} else {
			children.Hide()
		}
		toggle.SetText(prefix + arrow + summary)
	}
	toggle = widget.NewButton("", nil)
	toggle.Importance = widget.LowImportance
	toggle.Alignment = widget.ButtonAlignLeading
	toggle.OnTapped = func() { set(!children.Visible()) }
	set(open && len(keys) > 0)
	return container.NewVBox(toggle, children)
}

// firstRowsHeight is the height down to the end of each section's first
// value row (the taller column when side by side).
func (v *ValuesView) firstRowsHeight() float32 {
	var h, best float32
	pad := theme.Padding()
	for _, c := range v.box.Objects {
		g, ok := c.(*fyne.Container)
		if !ok || len(g.Objects) != 2 {
			continue
		}
		for _, col := range g.Objects {
			cc, ok := col.(*fyne.Container)
			if !ok {
				continue
			}
			h = 0
			for j, o := range cc.Objects {
				h += o.MinSize().Height + pad
				if j >= 2 {
					break
				}
			}
			best = max(best, h)
		}
	}
	return best
}
