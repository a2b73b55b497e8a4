// Command licenses writes the licence texts of everything linked into the
// workrun binary: the Go standard library and every module in the build
// graph of the main package, for each target OS (linux and windows by
// default, since their dependency sets differ). The texts are read from
// the module cache (the licence files each module ships), so the list
// follows go.mod by itself. The build embeds the result, and the About
// dialog shows it.
//
//	go run ./scripts/licenses [-goos linux,windows] [-o FILE]
//
// A module without a licence file is an error: shipping it would be
// shipping code whose terms are unknown.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
)

// Header starts the generated file; tests and the dist check look for it.
const Header = "Workrun includes the following third-party software."

// module is one dependency as go list reports it.
type module struct {
	Path, Version, Dir string
}

// licenceName matches the usual names of licence and notice files.
var licenceName = regexp.MustCompile(`(?i)^(licen[cs]e|copying|notice|unlicense)([-._].*)?$`)

func main() {
	goos := flag.String("goos", "linux,windows", "comma-separated target systems whose dependencies are included")
	out := flag.String("o", "", "write to this file instead of standard output")
	dir := flag.String("C", ".", "the directory of the main package")
	flag.Parse()
	if err := run(*dir, strings.Split(*goos, ","), *out); err != nil {
		fmt.Fprintln(os.Stderr, "licenses:", err)
		os.Exit(1)
	}
}

func run(dir string, systems []string, out string) error {
	mods := map[string]module{}
	for _, goos := range systems {
		ms, err := listModules(dir, goos)
		if err != nil {
			return err
		}
		for _, m := range ms {
			mods[m.Path] = m
		}
	}
	paths := make([]string, 0, len(mods))
	for p := range mods {
		paths = append(paths, p)
	}
	slices.Sort(paths)

	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\nGenerated from the Go module graph by scripts/licenses; do not edit.\n\n", Header)
	rootOut, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("go env GOROOT: %w", err)
	}
	goroot := strings.TrimSpace(string(rootOut))
	if err := writeModule(&b, module{Path: "Go standard library", Version: runtime.Version(), Dir: goroot}); err != nil {
		return err
	}
	var missing []string
	for _, p := range paths {
		if err := writeModule(&b, mods[p]); errors.Is(err, errNoLicence) {
			missing = append(missing, p)
		} else if err != nil {
			return err
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%w: %s", errNoLicence, strings.Join(missing, ", "))
	}
	if out == "" {
		_, err := os.Stdout.Write(b.Bytes())
		return err
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", out, err)
	}
	return os.WriteFile(out, b.Bytes(), 0o644)
}

var errNoLicence = errors.New("no licence file in the module")

// listModules returns the modules that provide packages of the main package
// when built for goos (the main module itself left out).
func listModules(dir, goos string) ([]module, error) {
	cmd := exec.Command("go", "list", "-deps", "-f",
		`{{with .Module}}{{if not .Main}}{{.Path}}	{{.Version}}	{{with .Replace}}{{.Dir}}{{else}}{{.Dir}}{{end}}{{end}}{{end}}`, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH=amd64", "CGO_ENABLED=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	raw, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list for %s: %w: %s", goos, err, strings.TrimSpace(stderr.String()))
	}
	seen := map[string]bool{}
	var mods []module
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 3 || seen[f[0]] {
			continue
		}
		seen[f[0]] = true
		if f[2] == "" {
			return nil, fmt.Errorf("go list for %s: module %s is not downloaded (run go mod download)", goos, f[0])
		}
		mods = append(mods, module{Path: f[0], Version: f[1], Dir: f[2]})
	}
	return mods, sc.Err()
}

// writeModule appends the module's heading and its licence files.
func writeModule(w io.Writer, m module) error {
	entries, err := os.ReadDir(m.Dir)
	if err != nil {
		return fmt.Errorf("read %s: %w", m.Path, err)
	}
	var files []string
	for _, e := range entries {
		if !e.IsDir() && licenceName.MatchString(e.Name()) {
			files = append(files, e.Name())
		}
	}
	if len(files) == 0 {
		return errNoLicence
	}
	title := m.Path
	if m.Version != "" {
		title += " " + m.Version
	}
	fmt.Fprintf(w, "%s\n%s\n", strings.Repeat("=", 72), title)
	for _, name := range files {
		text, err := os.ReadFile(filepath.Join(m.Dir, name))
		if err != nil {
			return fmt.Errorf("read %s licence: %w", m.Path, err)
		}
		fmt.Fprintf(w, "%s\n%s\n\n%s\n\n", strings.Repeat("-", 72), name, bytes.TrimSpace(text))
	}
	return nil
}
