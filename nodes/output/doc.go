// Package output implements the Output node: it shows the values of chosen
// State fields as node messages, the run's visible result.
package output
