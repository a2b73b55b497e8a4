// Package condition implements the Condition node: it compares one State
// field with a value and picks the "true" or "false" branch; the engine skips
// the nodes only reachable through the other branch.
//
// Operators: eq and ne (any type; the value must have the field's type), gt
// and lt (number fields), contains (text: substring; files and json lists:
// element). An unset field compares unequal to everything and is not
// greater, less or containing.
package condition
