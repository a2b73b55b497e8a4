package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// result is what one invocation of Main produced.
type result struct {
	Code           int
	Stdout, Stderr string
}

// runMain runs Main with args and an environment that holds only env.
func runMain(t *testing.T, args []string, env map[string]string, deps Deps) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	stdio := Stdio{
		Stdin:  strings.NewReader(""),
		Stdout: &stdout,
		Stderr: &stderr,
		Getenv: func(k string) string { return env[k] },
	}
	code := Main(context.Background(), args, stdio, deps)
	return result{Code: code, Stdout: stdout.String(), Stderr: stderr.String()}
}

// registerProbe adds a command for the duration of the test that records the
// data directory it was given and the arguments left after global options.
func registerProbe(t *testing.T, name string, run func(ctx context.Context, env *Env, args []string) int) {
	t.Helper()
	if _, dup := commands[name]; dup {
		t.Fatalf("command %q already registered", name)
	}
	commands[name] = &Command{Name: name, Summary: "test probe", Run: run}
	t.Cleanup(func() { delete(commands, name) })
}

func TestVersionPrintsTheVersion(t *testing.T) {
	got := runMain(t, []string{"version"}, nil, Deps{Version: "1.2.3-test"})
	want := result{Code: ExitOK, Stdout: "workrun 1.2.3-test\n"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("workrun version (-want +got):\n%s", diff)
	}
}

func TestVersionNeedsNoHomeDirectory(t *testing.T) {
	// os.UserConfigDir fails without HOME and XDG_CONFIG_HOME; version must
	// still work because it never touches the data directory.
	t.Setenv("HOME", "")
	t.Setenv("XDG_CONFIG_HOME", "")
	got := runMain(t, []string{"version"}, nil, Deps{Version: "9"})
	if diff := cmp.Diff(result{Code: ExitOK, Stdout: "workrun 9\n"}, got); diff != "" {
		t.Errorf("workrun version without HOME (-want +got):\n%s", diff)
	}
}

func TestUsageErrorsExit2WithUsageOnStderr(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		deps    Deps
		message string
	}{
		{"unknown command", []string{"nosuchcommand"}, Deps{}, `unknown command "nosuchcommand"`},
		{"unknown flag", []string{"--bogus"}, Deps{}, "flag provided but not defined: -bogus"},
		{"unknown flag before command", []string{"--bogus", "version"}, Deps{}, "-bogus"},
		{"version with arguments", []string{"version", "extra"}, Deps{}, "version takes no arguments"},
		{"data-dir without value after command", []string{"version", "--data-dir"}, Deps{}, "--data-dir needs a directory"},
		{"no command and no GUI", nil, Deps{}, "no command given"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := runMain(t, tt.args, nil, tt.deps)
			if got.Code != ExitUsage {
				t.Errorf("exit code = %d, want %d (ExitUsage)", got.Code, ExitUsage)
			}
			if got.Stdout != "" {
				t.Errorf("stdout = %q, want nothing: usage goes to stderr", got.Stdout)
			}
			if !strings.Contains(got.Stderr, tt.message) {
				t.Errorf("stderr does not say %q:\n%s", tt.message, got.Stderr)
			}
			if !strings.Contains(got.Stderr, "Usage: workrun") {
				t.Errorf("stderr has no usage:\n%s", got.Stderr)
			}
		})
	}
}

func TestHelpListsCommandsOnStdout(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"--help"}, {"-h"}} {
		got := runMain(t, args, nil, Deps{})
		if got.Code != ExitOK || got.Stderr != "" {
			t.Errorf("workrun %v: code %d, stderr %q; want 0 and nothing on stderr", args, got.Code, got.Stderr)
		}
		for _, want := range []string{"Usage: workrun [--data-dir DIR] [COMMAND [ARGS]]", "\n  help ", "\n  version ", "\n  stop ", "workrun stop RUN_ID [--json]", "WORKRUN_DATA_DIR"} {
			if !strings.Contains(got.Stdout, want) {
				t.Errorf("workrun %v: stdout lacks %q:\n%s", args, want, got.Stdout)
			}
		}
	}
}

func TestDataDirPrecedence(t *testing.T) {
	config := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", config) // what os.UserConfigDir returns on Linux
	wantDefault, err := os.UserConfigDir()
	if err != nil {
		t.Fatal(err)
	}
	wantDefault = filepath.Join(wantDefault, "workrun")

	fromEnv := map[string]string{"WORKRUN_DATA_DIR": "/from/env"}
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"default is the user config dir", []string{"probe"}, nil, wantDefault},
		{"WORKRUN_DATA_DIR beats the default", []string{"probe"}, fromEnv, "/from/env"},
		{"--data-dir beats WORKRUN_DATA_DIR", []string{"--data-dir", "/from/flag", "probe"}, fromEnv, "/from/flag"},
		{"--data-dir=DIR form", []string{"--data-dir=/from/flag", "probe"}, fromEnv, "/from/flag"},
		{"--data-dir after the command", []string{"probe", "--data-dir", "/after", "x"}, fromEnv, "/after"},
		{"--data-dir=DIR after the command", []string{"probe", "x", "--data-dir=/after"}, nil, "/after"},
		{"after the command beats before it", []string{"--data-dir", "/before", "probe", "--data-dir", "/after"}, fromEnv, "/after"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var gotDir string
			var gotArgs []string
			registerProbe(t, "probe", func(_ context.Context, env *Env, args []string) int {
				gotDir, gotArgs = env.DataDir, args
				return ExitOK
			})
			res := runMain(t, tt.args, tt.env, Deps{})
			if res.Code != ExitOK {
				t.Fatalf("exit code %d, stderr:\n%s", res.Code, res.Stderr)
			}
			if gotDir != tt.want {
				t.Errorf("data dir = %q, want %q", gotDir, tt.want)
			}
			for _, a := range gotArgs {
				if strings.Contains(a, "data-dir") || strings.HasPrefix(a, "/") {
					t.Errorf("command got %q among its arguments %q: --data-dir must be taken out", a, gotArgs)
				}
			}
		})
	}
}

func TestGUIGetsAPreparedDataDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "data")
	var gotDir string
	deps := Deps{GUI: func(_ context.Context, env *Env) error {
		gotDir = env.DataDir
		return nil
	}}
	got := runMain(t, nil, map[string]string{"WORKRUN_DATA_DIR": dir}, deps)
	if got.Code != ExitOK {
		t.Fatalf("exit code %d, stderr:\n%s", got.Code, got.Stderr)
	}
	if gotDir != dir {
		t.Errorf("GUI got data dir %q, want %q", gotDir, dir)
	}
	info, err := os.Stat(dir)
	if err != nil || !info.IsDir() {
		t.Fatalf("first start did not create the data directory %s: %v", dir, err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 0 {
		t.Errorf("data directory holds %v after the write check (err %v), want it empty", entries, err)
	}
}

func TestGUIErrorIsReported(t *testing.T) {
	deps := Deps{GUI: func(context.Context, *Env) error { return errors.New("no display") }}
	got := runMain(t, []string{"--data-dir", t.TempDir()}, nil, deps)
	if got.Code != ExitFailed || !strings.Contains(got.Stderr, "workrun: no display") {
		t.Errorf("got code %d stderr %q, want %d and the GUI's error", got.Code, got.Stderr, ExitFailed)
	}
}

// unusableDataDirs returns data directories that can be neither created nor
// written, even by root (the tests may run as root, which ignores modes).
func unusableDataDirs(t *testing.T) map[string]string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	return map[string]string{
		"parent is a file": filepath.Join(file, "data"),
		"path is a file":   file,
	}
}

func TestUnusableDataDirNamesThePath(t *testing.T) {
	for name, dir := range unusableDataDirs(t) {
		t.Run("GUI/"+name, func(t *testing.T) {
			guiCalled := false
			deps := Deps{GUI: func(context.Context, *Env) error { guiCalled = true; return nil }}
			got := runMain(t, []string{"--data-dir", dir}, nil, deps)
			if got.Code != ExitFailed {
				t.Errorf("exit code = %d, want %d", got.Code, ExitFailed)
			}
			if !strings.Contains(got.Stderr, "data directory "+dir+":") {
				t.Errorf("stderr does not name the data directory %s:\n%s", dir, got.Stderr)
			}
			if guiCalled {
				t.Error("the window was opened on an unusable data directory")
			}
		})
		t.Run("command/"+name, func(t *testing.T) {
			openCalled := false
			deps := Deps{Open: func(context.Context, string) (*Services, error) {
				openCalled = true
				return &Services{}, nil
			}}
			registerProbe(t, "probe", func(ctx context.Context, env *Env, _ []string) int {
				_, code := env.open(ctx)
				return code
			})
			got := runMain(t, []string{"probe", "--data-dir", dir}, nil, deps)
			if got.Code != ExitFailed {
				t.Errorf("exit code = %d, want %d", got.Code, ExitFailed)
			}
			if !strings.Contains(got.Stderr, "data directory "+dir+":") {
				t.Errorf("stderr does not name the data directory %s:\n%s", dir, got.Stderr)
			}
			if openCalled {
				t.Error("the services were opened on an unusable data directory")
			}
		})
	}
}

func TestOpenErrorNamesThePath(t *testing.T) {
	dir := t.TempDir()
	deps := Deps{Open: func(_ context.Context, got string) (*Services, error) {
		if got != dir {
			t.Errorf("Open got %q, want %q", got, dir)
		}
		return nil, errors.New("database is locked")
	}}
	registerProbe(t, "probe", func(ctx context.Context, env *Env, _ []string) int {
		_, code := env.open(ctx)
		return code
	})
	got := runMain(t, []string{"probe"}, map[string]string{"WORKRUN_DATA_DIR": dir}, deps)
	want := result{Code: ExitFailed, Stderr: "workrun: open data directory " + dir + ": database is locked\n"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestNoHomeDirectoryIsAClearErrorForTheGUI(t *testing.T) {
	t.Setenv("HOME", "")
	t.Setenv("XDG_CONFIG_HOME", "")
	got := runMain(t, nil, nil, Deps{GUI: func(context.Context, *Env) error { return nil }})
	if got.Code != ExitFailed || !strings.Contains(got.Stderr, "set --data-dir or WORKRUN_DATA_DIR") {
		t.Errorf("got code %d stderr %q, want %d and advice to set --data-dir", got.Code, got.Stderr, ExitFailed)
	}
}
