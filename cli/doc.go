// Package cli is Workrun's command line: it parses the global options, picks
// the data directory, and dispatches to the subcommands that register
// themselves from init (run, resume, runs, show, review, answer, check-agent,
// credential, demo-agent, gc, version, help). With no command, Main opens the
// window through Deps.GUI.
//
// Data directory. --data-dir DIR (before or after the command name; the last
// one wins) beats WORKRUN_DATA_DIR, which beats os.UserConfigDir()/workrun.
// The directory is resolved lazily: version and help work without a home
// directory. Before the window or a command opens the data directory's
// services, it is created if missing and checked for writing; a directory that
// cannot be created or written is reported once, naming the path, with exit
// status 1 — never a panic and never a failure deep inside SQLite.
//
// Exit status. 0 succeeded, 1 failed (or the command could not do its work),
// 2 invalid workflow or usage (unknown command or flag: the usage goes to
// stderr), 3 interrupted, 4 stopped. --help, -h and help print the usage to
// stdout and exit 0.
//
// Output. Node messages are stored as a catalogue key and arguments and
// rendered when printed, in the reader's language: --lang en|zh on run and
// show, else the locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG); lines saved
// before keys existed print as saved. --json keeps each message's key and
// arguments beside its rendered text. Everything printed that an agent, a
// process or a workflow file supplied is escaped: control characters
// (ESC, CR, backspace, C1, bidirectional overrides, invalid UTF-8) show as
// \xNN or \uNNNN and a newline continues on an indented "| " line, so no
// agent can retitle the terminal or forge a status line. `run` prints one
// progress stream (a node's lines of one key) at most every 200 ms, the
// newest line counting those it replaced; JSON output keeps every event.
package cli
