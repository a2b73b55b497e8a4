// Package askhuman implements the Ask Human node: the run waits (interrupted,
// InterruptedByHuman) until a person types an answer, in the run panel or
// with `workrun answer RUN_ID NODE TEXT`; the answer goes into a text field.
package askhuman
