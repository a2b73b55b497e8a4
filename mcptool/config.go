package mcptool

import (
	"errors"
	"fmt"
)

// ConfigWords are a kind's config errors for the problems this package
// finds (ArgumentProblem, OutputProblem), in the kind's own catalogue (each
// kind's errors name the kind). Each gets the words' arguments: NoField
// (key, field), FileAlone (key, field, field), FieldType (key, field, got,
// want), FieldUsed (key, field, earlier key).
type ConfigWords struct {
	NoField, FileAlone, FieldType, FieldUsed func(args ...any) error
}

// Explain turns a problem of CompileArguments or Outputs.Check into the
// kind's config error; any other error (or nil) is returned as it is.
func (w ConfigWords) Explain(err error) error {
	var ap *ArgumentProblem
	var op *OutputProblem
	switch {
	case errors.As(err, &ap) && ap.FileInTemplate:
		return w.FileAlone(ap.Key, ap.Field, ap.Field)
	case errors.As(err, &ap):
		return w.NoField(ap.Key, ap.Field)
	case errors.As(err, &op) && op.Prev != "":
		return w.FieldUsed(op.Key, op.Field, op.Prev)
	case errors.As(err, &op) && op.Got == "":
		return w.NoField(op.Key, op.Field)
	case errors.As(err, &op):
		return w.FieldType(op.Key, op.Field, fmt.Sprint(op.Got), fmt.Sprint(op.Want))
	}
	return err
}
