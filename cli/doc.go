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
package cli
