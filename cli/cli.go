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

// Exit codes shared by every command (issue 5 §5).
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
}

// Env is what a command works with.
type Env struct {
	Stdio
	DataDir string
	Deps    Deps
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
	env := &Env{Stdio: stdio, Deps: deps}

	// Global options come before the command; --data-dir may also follow it.
	fs := flag.NewFlagSet("workrun", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dataDir := fs.String("data-dir", "", "")
	if err := fs.Parse(args); err != nil {
		return usageError(env, err.Error())
	}
	rest := fs.Args()
	dir, err := resolveDataDir(*dataDir, stdio.Getenv)
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "workrun: %v\n", err)
		return ExitFailed
	}
	env.DataDir = dir

	if len(rest) == 0 {
		if deps.GUI == nil {
			return usageError(env, "no command given")
		}
		if err := deps.GUI(ctx, env); err != nil {
			fmt.Fprintf(stdio.Stderr, "workrun: %v\n", err)
			return ExitFailed
		}
		return ExitOK
	}
	cmd, ok := commands[rest[0]]
	if !ok {
		return usageError(env, fmt.Sprintf("unknown command %q", rest[0]))
	}
	cmdArgs, err := extractDataDir(rest[1:], env)
	if err != nil {
		return usageError(env, err.Error())
	}
	return cmd.Run(ctx, env, cmdArgs)
}

// extractDataDir takes a --data-dir DIR given after the command name.
func extractDataDir(args []string, env *Env) ([]string, error) {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--data-dir" || a == "-data-dir":
			if i+1 >= len(args) {
				return nil, errors.New("--data-dir needs a directory")
			}
			env.DataDir = args[i+1]
			i++
		case strings.HasPrefix(a, "--data-dir="):
			env.DataDir = strings.TrimPrefix(a, "--data-dir=")
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
	for n := range commands {
		names = append(names, n)
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
}

// open opens the data directory's services for a command, printing a clear
// error (naming the path) on failure.
func (env *Env) open(ctx context.Context) (*Services, int) {
	if env.Deps.Open == nil {
		fmt.Fprintln(env.Stderr, "workrun: this build cannot open a data directory")
		return nil, ExitFailed
	}
	svc, err := env.Deps.Open(ctx, env.DataDir)
	if err != nil {
		fmt.Fprintf(env.Stderr, "workrun: open data directory %s: %v\n", env.DataDir, err)
		return nil, ExitFailed
	}
	return svc, ExitOK
}
