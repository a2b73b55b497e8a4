// Package join implements the Join node. It has no work of its own: the
// engine runs a node only once every node with an edge into it has finished
// (a skipped branch counts as finished), so a join is where parallel branches
// meet. Its one key, "inputs", says how it treats a branch not taken (a
// condition's other branch, an error branch that was not needed): "any"
// (the default) runs the join when at least one input was followed; "all"
// runs it only when every input was, and skips it otherwise
// (workrun.AllInputsStep).
package join
