// Package join implements the Join node. It has no work of its own: the
// engine runs a node only once every node with an edge into it has finished
// (a skipped branch counts as finished), so a join is where parallel branches
// meet.
package join
