// Package set implements the Set node: it assigns State fields from literal
// values or "{{field}}" templates.
//
// A string value is a template: "{{name}}" alone copies the field's value
// (the types must match, or the target is text and gets its text form); any
// other string with "{{…}}" produces text. Any other JSON value is a literal
// checked against the target's type. The fields named in templates are the
// node's reads; the assigned fields are its writes.
package set
