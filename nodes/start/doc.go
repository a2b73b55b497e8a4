// Package start implements the Start node: it hands the run's inputs to the
// nodes after it. Every workflow has exactly one; it provides every State
// field (an input left out stays unset).
package start
