// Package workruntest provides an in-memory workrun.RunStore for tests of the
// engine, the node kinds and the command line. Like net/http/httptest it is
// imported only by _test files. Each method can be overridden through a
// function field to inject failures or observe calls.
//
// NodeContext runs one node kind's Step outside the engine, and
// MainInEnglish is the TestMain of a package whose tests assert English
// wording.
package workruntest
