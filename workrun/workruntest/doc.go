// Package workruntest provides an in-memory workrun.RunStore for tests of the
// engine, the node kinds and the command line. Like net/http/httptest it is
// imported only by _test files. Each method can be overridden through a
// function field to inject failures or observe calls.
//
// NodeContext runs one node kind's Step outside the engine;
// MainInEnglish is the TestMain of a package whose tests assert English
// wording; FailWhen is a "process" node that fails once a run reached the
// state under test, so a test waits on that state instead of sleeping;
// MemCalls is the remote node kinds' call store in memory.
package workruntest
