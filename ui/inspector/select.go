package inspector

import (
	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

// The pickers the form is made of, in the window's language; the window's
// other forms (the run inputs, Publish) use them too.

// FieldTypeLabel names a State field type for people.
func FieldTypeLabel(loc Localizer, t workrun.FieldType) string {
	return loc.X("type."+string(t), string(t))
}

// NewSelect is a widget.Select whose placeholder is in the window's
// language (Fyne's own "(Select one)" has no translation).
func NewSelect(loc Localizer, options []string, changed func(string)) *widget.Select {
	s := widget.NewSelect(options, changed)
	s.PlaceHolder = loc.X("select.one", "(Select one)")
	return s
}

var fieldTypes = []workrun.FieldType{workrun.FieldText, workrun.FieldNumber, workrun.FieldBoolean, workrun.FieldJSON, workrun.FieldFile, workrun.FieldFiles}

// FieldTypeSelect picks a State field type by its translated name; text
// is selected. SelectedFieldType reads the choice.
func FieldTypeSelect(loc Localizer) *widget.Select {
	opts := make([]string, len(fieldTypes))
	for i, t := range fieldTypes {
		opts[i] = FieldTypeLabel(loc, t)
	}
	s := NewSelect(loc, opts, nil)
	s.SetSelectedIndex(0)
	return s
}

// SelectedFieldType is the field type chosen in a FieldTypeSelect.
func SelectedFieldType(s *widget.Select) workrun.FieldType {
	if i := s.SelectedIndex(); i >= 0 && i < len(fieldTypes) {
		return fieldTypes[i]
	}
	return workrun.FieldText
}
