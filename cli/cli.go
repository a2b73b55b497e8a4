package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Exit codes shared by every command (docs/product.md W6).
const (
	ExitOK          = 0
	ExitFailed      = 1 // the run failed, or the command could not do its work
	ExitUsage       = 2 // invalid workflow or usage
	ExitInterrupted = 3
	ExitStopped     = 4
)

// Stdio is where a command reads and writes.
type Stdio struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
}

// Command is one subcommand. Run gets the arguments after the command name and
// the global options already parsed.
type Command struct {
	Name    string
	Args    string // usage of the arguments, e.g. "FLOW.json [--input NAME=VALUE]…"
	Summary string
	Run     func(ctx context.Context, env *Env, args []string) int
	// Hidden keeps a command out of `workrun help` (a tool for test suites,
	// documented in docs/).
	Hidden bool
}

// Env is what a command works with.
type Env struct {
	Stdio
	DataDir string
	Deps    Deps

	dataDirErr error // why DataDir could not be resolved (no home directory)
}

// Deps is supplied by main.go: how to open the data directory's services and
// which node kinds to register. Fields may be nil in tests of single commands.
type Deps struct {
	Version string
	// Open opens the store, artifact store, credentials and engine in dataDir.
	Open func(ctx context.Context, dataDir string) (*Services, error)
	// GUI opens the window and blocks until it closes.
	GUI func(ctx context.Context, env *Env) error
}

var commands = map[string]*Command{}

// register adds a command; each command's file calls it from init.
func register(c *Command) {
	if _, dup := commands[c.Name]; dup {
		panic("cli: duplicate command " + c.Name)
	}
	commands[c.Name] = c
}

func init() {
	register(&Command{Name: "version", Summary: "print the version", Run: func(_ context.Context, env *Env, args []string) int {
		if len(args) > 0 {
			return usageError(env, "version takes no arguments")
		}
		fmt.Fprintf(env.Stdout, "workrun %s\n", env.Deps.Version)
		return ExitOK
	}})
	register(&Command{Name: "help", Summary: "show this help", Run: func(_ context.Context, env *Env, args []string) int {
		printUsage(env.Stdout)
		return ExitOK
	}})
}

// Main runs Workrun with the process arguments (without the program name) and
// returns the exit status. With no command it opens the GUI.
func Main(ctx context.Context, args []string, stdio Stdio, deps Deps) int {
	if stdio.Getenv == nil {
		stdio.Getenv = os.Getenv
	}
	deps.Open = recoverOnOpen(deps.Open, stdio.Stderr)
	env := &Env{Stdio: stdio, Deps: deps}

	// Global options come before the command; --data-dir may also follow it.
	fs := flag.NewFlagSet("workrun", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dataDir := fs.String("data-dir", "", "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printUsage(stdio.Stdout)
			return ExitOK
		}
		return usageError(env, err.Error())
	}
	rest := fs.Args()

	var cmd *Command
	var cmdArgs []string
	if len(rest) > 0 {
		var ok bool
		if cmd, ok = commands[rest[0]]; !ok {
			return usageError(env, fmt.Sprintf("unknown command %q", rest[0]))
		}
		var err error
		if cmdArgs, err = extractDataDir(rest[1:], dataDir); err != nil {
			return usageError(env, err.Error())
		}
	}
	// A missing home directory only matters to commands that use the data
	// directory: version and help still work.
	env.DataDir, env.dataDirErr = resolveDataDir(*dataDir, stdio.Getenv)

	if cmd == nil {
		if deps.GUI == nil {
			return usageError(env, "no command given")
		}
		if err := env.prepareDataDir(); err != nil {
			fmt.Fprintf(stdio.Stderr, "workrun: %v\n", err)
			return ExitFailed
		}
		if err := deps.GUI(ctx, env); err != nil {
			fmt.Fprintf(stdio.Stderr, "workrun: %v\n", err)
			return ExitFailed
		}
		return ExitOK
	}
	return cmd.Run(ctx, env, cmdArgs)
}

// recoverOnOpen makes every start — each command that opens the data
// directory, and the GUI — find the runs whose process died while they were
// going on and mark them interrupted by exit (docs/remote-agent.md R13; docs/engine.md, "Exit, restart and resume"), so that
// `workrun runs` never shows a dead run as running. Runs another live
// process is executing are left alone (workrun.OwnedRunStore). A failure
// here is reported but does not stop the command.
func recoverOnOpen(open func(ctx context.Context, dataDir string) (*Services, error), stderr io.Writer) func(ctx context.Context, dataDir string) (*Services, error) {
	if open == nil {
		return nil
	}
	return func(ctx context.Context, dataDir string) (*Services, error) {
		svc, err := open(ctx, dataDir)
		if err != nil || svc == nil || svc.Engine == nil {
			return svc, err
		}
		if _, err := svc.Engine.RecoverInterrupted(ctx); err != nil && stderr != nil {
			fmt.Fprintf(stderr, "workrun: warning: %v\n", err)
		}
		return svc, nil
	}
}

// extractDataDir takes a --data-dir DIR given after the command name; the
// last one given wins.
func extractDataDir(args []string, dataDir *string) ([]string, error) {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--data-dir" || a == "-data-dir":
			if i+1 >= len(args) {
				return nil, errors.New("--data-dir needs a directory")
			}
			*dataDir = args[i+1]
			i++
		case strings.HasPrefix(a, "--data-dir=") || strings.HasPrefix(a, "-data-dir="):
			*dataDir = a[strings.Index(a, "=")+1:]
		default:
			out = append(out, a)
		}
	}
	return out, nil
}

// resolveDataDir applies --data-dir, then WORKRUN_DATA_DIR, then the user config dir.
func resolveDataDir(flagValue string, getenv func(string) string) (string, error) {
	if flagValue != "" {
		return flagValue, nil
	}
	if v := getenv("WORKRUN_DATA_DIR"); v != "" {
		return v, nil
	}
	base, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("find the data directory (set --data-dir or WORKRUN_DATA_DIR): %w", err)
	}
	return filepath.Join(base, "workrun"), nil
}

func usageError(env *Env, msg string) int {
	fmt.Fprintf(env.Stderr, "workrun: %s\n\n", msg)
	printUsage(env.Stderr)
	return ExitUsage
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "Usage: workrun [--data-dir DIR] [COMMAND [ARGS]]")
	fmt.Fprintln(w, "\nWith no command, Workrun opens its window.\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n, c := range commands {
		if !c.Hidden {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		c := commands[n]
		fmt.Fprintf(w, "  %-12s %s\n", n, c.Summary)
		if c.Args != "" {
			fmt.Fprintf(w, "  %-12s   workrun %s %s\n", "", n, c.Args)
		}
	}
	fmt.Fprintln(w, "\nThe data directory defaults to the user config dir + /workrun; WORKRUN_DATA_DIR or --data-dir override it.")
	fmt.Fprintln(w, "\nSignals to run and resume: Ctrl-C (SIGINT) is a person's Stop: the run stops and its remote tasks are")
	fmt.Fprintln(w, "cancelled (exit 4). SIGTERM and SIGHUP (logout, shutdown, a supervisor) only exit: the run is interrupted,")
	fmt.Fprintln(w, "nothing is cancelled, and `workrun resume RUN_ID` continues it (exit 3).")
}

// prepareDataDir creates the data directory if needed and checks that it can
// be written, so that a bad directory gives one clear error naming the path
// instead of a failure deep inside SQLite or the window.
func (env *Env) prepareDataDir() error {
	if env.dataDirErr != nil {
		return env.dataDirErr
	}
	if err := os.MkdirAll(env.DataDir, 0o700); err != nil {
		return fmt.Errorf("cannot create the data directory %s: %w", env.DataDir, err)
	}
	f, err := os.CreateTemp(env.DataDir, ".write-check-*")
	if err != nil {
		return fmt.Errorf("cannot write to the data directory %s: %w", env.DataDir, err)
	}
	name := f.Name()
	f.Close()
	if err := os.Remove(name); err != nil {
		return fmt.Errorf("cannot write to the data directory %s: %w", env.DataDir, err)
	}
	return nil
}

// open opens the data directory's services for a command, printing a clear
// error (naming the path) on failure.
func (env *Env) open(ctx context.Context) (*Services, int) {
	if env.Deps.Open == nil {
		fmt.Fprintln(env.Stderr, "workrun: this build cannot open a data directory")
		return nil, ExitFailed
	}
	if err := env.prepareDataDir(); err != nil {
		fmt.Fprintf(env.Stderr, "workrun: %v\n", err)
		return nil, ExitFailed
	}
	svc, err := env.Deps.Open(ctx, env.DataDir)
	if err != nil {
		fmt.Fprintf(env.Stderr, "workrun: open data directory %s: %v\n", env.DataDir, err)
		return nil, ExitFailed
	}
	return svc, ExitOK
}
