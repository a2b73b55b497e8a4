package main

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestImportArrows keeps the one-way imports of docs/ARCHITECTURE.md: the
// engine imports no other package of the project; the window sees only the
// engine and its assets; node kinds reach persistence and secrets only
// through the interfaces in their Deps, and share code only through
// remotecall, which sees only the engine (OAuth sign-in uses remotecall's
// origin, loopback and redaction rule too); the protocol clients import nothing
// of the project but the SSE reader and the JSON-RPC errors they share; the CLI reaches the data
// directory only through cli.Services. It asks `go list -deps`, so indirect imports count too.
func TestImportArrows(t *testing.T) {
	rules := []struct {
		pkgs    string
		allowed []string // project packages the pattern may depend on; nil: any but forbidden
		forbid  []string
	}{
		{pkgs: "./workrun", allowed: []string{"workrun/workrun"}},
		// The window's app layer sees the engine, the assets and its own
		// widget packages (TestWidgetPackages holds those to less).
		{pkgs: "./ui", allowed: []string{"workrun/ui", "workrun/ui/...", "workrun/workrun", "workrun/assets"}},
		{pkgs: "./nodes/...", forbid: []string{"workrun/store", "workrun/credentials", "workrun/artifacts", "workrun/ui", "workrun/cli"}},
		{pkgs: "./remotecall", allowed: []string{"workrun/remotecall", "workrun/workrun"}},
		{pkgs: "./mcptool", allowed: []string{"workrun/mcptool", "workrun/workrun", "workrun/remotecall", "workrun/mcp", "workrun/sse", "workrun/jsonrpc"}},
		{pkgs: "./sse", allowed: []string{"workrun/sse"}},
		{pkgs: "./jsonrpc", allowed: []string{"workrun/jsonrpc"}},
		{pkgs: "./a2a", allowed: []string{"workrun/a2a", "workrun/sse", "workrun/jsonrpc"}},
		{pkgs: "./mcp", allowed: []string{"workrun/mcp", "workrun/sse", "workrun/jsonrpc"}},
		{pkgs: "./store", allowed: []string{"workrun/store", "workrun/workrun"}},
		{pkgs: "./artifacts", allowed: []string{"workrun/artifacts", "workrun/workrun"}},
		{pkgs: "./credentials", allowed: []string{"workrun/credentials", "workrun/workrun", "workrun/remotecall", "workrun/a2a", "workrun/mcp", "workrun/sse", "workrun/jsonrpc", "workrun/oauth"}},
		{pkgs: "./oauth", allowed: []string{"workrun/oauth", "workrun/remotecall", "workrun/workrun"}},
		// serve: the domain core reaches the engine only; its A2A front
		// adds the wire types (a2a, sse, jsonrpc), its MCP front mcp and
		// remotecall (the loopback rule of the Host check), nothing else —
		// never the window, the store or a node kind (docs/serve.md).
		{pkgs: "./serve", allowed: []string{"workrun/serve", "workrun/workrun"}},
		{pkgs: "./serve/...", allowed: []string{"workrun/serve", "workrun/serve/a2aserve", "workrun/workrun", "workrun/a2a", "workrun/sse", "workrun/jsonrpc",
			"workrun/serve/mcpserve", "workrun/serve/trigger", "workrun/serve/push", "workrun/mcp", "workrun/remotecall"}},
		{pkgs: "./cli", forbid: []string{"workrun/store", "workrun/ui", "workrun/desktop"}},
	}
	for _, r := range rules {
		for _, dep := range projectDeps(t, r.pkgs) {
			if slices.Contains(r.forbid, dep) || (r.allowed != nil && !allowedDep(r.allowed, dep)) {
				t.Errorf("%s depends on %s", r.pkgs, dep)
			}
		}
	}
	// A node kind imports no other node kind.
	for _, kind := range projectDeps(t, "./nodes/...") {
		if !strings.HasPrefix(kind, "workrun/nodes/") {
			continue
		}
		for _, dep := range projectDeps(t, "./"+strings.TrimPrefix(kind, "workrun/")) {
			if dep != kind && strings.HasPrefix(dep, "workrun/nodes/") {
				t.Errorf("%s depends on %s", kind, dep)
			}
		}
	}
}

// allowedDep reports whether dep is in allowed, where "p/..." allows every
// package under p.
func allowedDep(allowed []string, dep string) bool {
	return slices.ContainsFunc(allowed, func(a string) bool {
		p, tree := strings.CutSuffix(a, "/...")
		return dep == a || tree && strings.HasPrefix(dep, p+"/")
	})
}

// projectDeps lists the packages of this module that pattern depends on,
// itself included.
func projectDeps(t *testing.T, pattern string) []string {
	t.Helper()
	out, err := exec.CommandContext(t.Context(), "go", "list", "-deps", pattern).Output()
	if err != nil {
		var stderr string
		if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("go list -deps %s: %v\n%s", pattern, err, stderr)
	}
	var deps []string
	for _, p := range strings.Fields(string(out)) {
		if p == "workrun" || strings.HasPrefix(p, "workrun/") {
			deps = append(deps, p)
		}
	}
	if len(deps) == 0 {
		t.Fatalf("go list -deps %s lists no package of the project", pattern)
	}
	return deps
}

// TestOneRemoteLayer fails when a piece of the origin rule (loopback,
// host:port joining, an origin built by hand), putting a credential on a
// request (setting Authorization, a "Bearer " header) or secret redaction
// (the "[redacted]" marker) is written outside remotecall, the one remote
// layer (docs/ARCHITECTURE.md). There is no exemption: servers of our own
// (serve's fronts, a2a/demoagent, mcp/demoserver, the tests' authorization
// server oauth/oauthtest) read tokens, check loopback hosts and build their
// URLs through remotecall too; only tests and vendored code are not scanned.
func TestOneRemoteLayer(t *testing.T) {
	skipDir := map[string]bool{"remotecall": true, "third_party": true, "testdata": true, "node_modules": true, "bin": true}
	fset := token.NewFileSet()
	scanned := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if skipDir[filepath.ToSlash(path)] || skipDir[d.Name()] || strings.HasPrefix(d.Name(), ".") && path != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		scanned++
		for _, v := range oneLayerViolations(fset, f) {
			t.Error(v)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if scanned < 50 {
		t.Fatalf("scanned only %d files; the walk is broken", scanned)
	}
}

// oneLayerViolations lists where f writes a piece of the one remote layer
// itself instead of calling remotecall.
func oneLayerViolations(fset *token.FileSet, f *ast.File) []string {
	var out []string
	bad := func(n ast.Node, format string, args ...any) {
		out = append(out, fset.Position(n.Pos()).String()+": "+fmt.Sprintf(format, args...))
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			switch n.Sel.Name {
			case "IsLoopback", "JoinHostPort", "SplitHostPort":
				bad(n, "%s is the origin rule; use remotecall (Origin, IsLoopbackHost)", n.Sel.Name)
			}
		case *ast.BinaryExpr:
			if n.Op == token.ADD && (isStringLit(n.X, "://") || isStringLit(n.Y, "://")) {
				bad(n, `an origin built with "://" is the origin rule; use remotecall.ParseOrigin`)
			}
		case *ast.BasicLit:
			if v, err := strconv.Unquote(n.Value); err == nil && n.Kind == token.STRING {
				switch {
				case strings.EqualFold(v, "localhost"), strings.HasSuffix(strings.ToLower(v), ".localhost"):
					bad(n, "%q is the loopback rule; use remotecall.IsLoopbackHost", v)
				case v == "Bearer ":
					bad(n, "a bearer header is put on requests only by remotecall's Authorizer")
				case strings.Contains(strings.ToLower(v), "[redacted]"):
					bad(n, "secret redaction is remotecall's Redactor (remotecall.Redacted)")
				}
			}
		case *ast.CallExpr:
			sel, ok := n.Fun.(*ast.SelectorExpr)
			if !ok || (sel.Sel.Name != "Set" && sel.Sel.Name != "Add") || len(n.Args) == 0 {
				return true
			}
			if lit, ok := n.Args[0].(*ast.BasicLit); ok && strings.EqualFold(strings.Trim(lit.Value, "`\""), "Authorization") {
				bad(n, "the Authorization header is set only by remotecall's Authorizer")
			}
		}
		return true
	})
	return out
}

func isStringLit(e ast.Expr, want string) bool {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return false
	}
	v, err := strconv.Unquote(lit.Value)
	return err == nil && v == want
}

// TestOneRemoteLayer_Catches: each way of writing the rule a second time
// is found, and calling remotecall is not.
func TestOneRemoteLayer_Catches(t *testing.T) {
	for _, c := range []struct {
		name, body string
		caught     bool
	}{
		{"net loopback", `func f(h string) bool { ip := net.ParseIP(h); return ip != nil && ip.IsLoopback() }`, true},
		{"localhost literal", `func f(h string) bool { return strings.EqualFold(h, "localhost") }`, true},
		{"dot localhost", `func f(h string) bool { return strings.HasSuffix(h, ".localhost") }`, true},
		{"host port", `func f(h, p string) string { return net.JoinHostPort(h, p) }`, true},
		{"split host port", `func f(a string) string { h, _, _ := net.SplitHostPort(a); return h }`, true},
		{"origin by hand", `func f(u *url.URL) string { return strings.ToLower(u.Scheme) + "://" + u.Host }`, true},
		{"redaction marker", `func f(s, sec string) string { return strings.ReplaceAll(s, sec, "[redacted]") }`, true},
		{"replacer", `var r = strings.NewReplacer("tok", "[REDACTED]")`, true},
		{"bearer", `func f(r *http.Request, tok string) { r.Header.Set("X", "Bearer "+tok) }`, true},
		{"authorization", `func f(r *http.Request, tok string) { r.Header.Add("authorization", tok) }`, true},
		{"remotecall origin", `func f(raw string) (string, error) { o, err := remotecall.ParseOrigin(raw); return o.String(), err }`, false},
		{"remotecall loopback", `func f(h string) bool { return remotecall.IsLoopbackHost(h) }`, false},
		{"remotecall redactor", `func f(s, sec string) string { return remotecall.NewRedactor(sec).String(s) }`, false},
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "snippet.go", "package p\n"+c.body, 0)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := len(oneLayerViolations(fset, f)) > 0; got != c.caught {
			t.Errorf("%s: caught %v, want %v", c.name, got, c.caught)
		}
	}
}

// TestWidgetPackages keeps the window's cut (docs/ARCHITECTURE.md, ui/doc.go):
// every package under ui/ is a widget package, which renders what it is
// given and reports events through callbacks. Only the app layer (package
// ui itself) owns goroutines and marshals onto the UI goroutine, so a
// widget package imports nothing of the project but the engine's types
// (workrun), assets and other widget packages — never the app layer, the
// store, a node kind, the CLI or serve — and in its shipped code starts no
// goroutine, calls no fyne.Do or fyne.DoAndWait and names no engine
// (workrun.Engine, workrun.NewEngine).
func TestWidgetPackages(t *testing.T) {
	out, err := exec.CommandContext(t.Context(), "go", "list", "./ui/...").Output()
	if err != nil {
		t.Fatalf("go list ./ui/...: %v", err)
	}
	widgets := 0
	for _, pkg := range strings.Fields(string(out)) {
		dir, ok := strings.CutPrefix(pkg, "workrun/ui/")
		if !ok {
			continue
		}
		widgets++
		for _, dep := range projectDeps(t, "./ui/"+dir) {
			if !allowedDep([]string{"workrun/ui/...", "workrun/workrun", "workrun/assets"}, dep) {
				t.Errorf("widget package %s depends on %s", pkg, dep)
			}
		}
		fset := token.NewFileSet()
		files, err := filepath.Glob(filepath.Join("ui", filepath.FromSlash(dir), "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range widgetViolations(fset, f) {
				t.Errorf("%s (a widget package; only the app layer in package ui may)", v)
			}
		}
	}
	if widgets < 2 {
		t.Fatalf("found %d widget packages under ui/; the walk is broken", widgets)
	}
}

// widgetViolations lists where f does what only the app layer may.
func widgetViolations(fset *token.FileSet, f *ast.File) []string {
	var out []string
	bad := func(n ast.Node, what string) {
		out = append(out, fset.Position(n.Pos()).String()+": "+what)
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			bad(n, "starts a goroutine")
		case *ast.SelectorExpr:
			x, ok := n.X.(*ast.Ident)
			if !ok {
				return true
			}
			switch {
			case x.Name == "fyne" && (n.Sel.Name == "Do" || n.Sel.Name == "DoAndWait"):
				bad(n, "calls fyne."+n.Sel.Name)
			case x.Name == "workrun" && (n.Sel.Name == "Engine" || n.Sel.Name == "NewEngine"):
				bad(n, "names the engine (workrun."+n.Sel.Name+")")
			}
		}
		return true
	})
	return out
}

// TestWidgetPackages_Catches: each thing a widget may not do is found, and
// what a widget does (a callback, a widget call) is not.
func TestWidgetPackages_Catches(t *testing.T) {
	for _, c := range []struct {
		name, body string
		caught     bool
	}{
		{"goroutine", `func f(g func()) { go g() }`, true},
		{"fyne.Do", `func f(g func()) { fyne.Do(g) }`, true},
		{"fyne.DoAndWait", `func f(g func()) { fyne.DoAndWait(g) }`, true},
		{"engine", `func f(e *workrun.Engine) {}`, true},
		{"new engine", `var e = workrun.NewEngine`, true},
		{"callback", `type V struct{ OnSave func(string) }; func (v *V) f() { if v.OnSave != nil { v.OnSave("x") } }`, false},
		{"engine's types", `func f(r workrun.Run, l *widget.Label) { l.SetText(string(r.Status)) }`, false},
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "snippet.go", "package p\n"+c.body, 0)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := len(widgetViolations(fset, f)) > 0; got != c.caught {
			t.Errorf("%s: caught %v, want %v", c.name, got, c.caught)
		}
	}
}

// TestDesktopComposition keeps the top of the arrows (docs/ARCHITECTURE.md
// "The command and the desktop composition"): the command (package main)
// reaches the window only through package desktop, which nothing else
// imports; desktop imports the window's app layer but none of its widget
// packages (the app layer builds those), and otherwise only what it adapts
// to the window. Direct imports: desktop sits above everything, so its
// indirect ones are everyone's.
func TestDesktopComposition(t *testing.T) {
	adapts := []string{"workrun/desktop", "workrun/ui", "workrun/workrun", "workrun/assets", "workrun/cli",
		"workrun/store", "workrun/artifacts", "workrun/credentials", "workrun/oauth", "workrun/remotecall",
		"workrun/serve", "workrun/serve/...", "workrun/mcp", "workrun/mcp/demoserver", "workrun/a2a/demoagent",
		// the node kinds whose connection tests the inspector runs
		"workrun/nodes/remoteagent", "workrun/nodes/remotemcp", "workrun/nodes/toolapp"}
	imports := directImports(t, "./...")
	if len(imports["workrun/desktop"]) == 0 {
		t.Fatal("go list found no imports of workrun/desktop; the walk is broken")
	}
	for pkg, deps := range imports {
		for _, dep := range deps {
			switch {
			case dep == "workrun/desktop" && pkg != "workrun":
				t.Errorf("%s imports workrun/desktop (only the command may)", pkg)
			case pkg == "workrun" && (dep == "workrun/ui" || strings.HasPrefix(dep, "workrun/ui/")):
				t.Errorf("the command imports %s (it reaches the window through desktop)", dep)
			case pkg == "workrun/desktop" && !allowedDep(adapts, dep):
				t.Errorf("desktop imports %s", dep)
			}
		}
	}
}

// directImports maps each package of pattern to the project packages its
// shipped (non-test) files import.
func directImports(t *testing.T, pattern string) map[string][]string {
	t.Helper()
	out, err := exec.CommandContext(t.Context(), "go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, pattern).Output()
	if err != nil {
		t.Fatalf("go list %s: %v", pattern, err)
	}
	m := map[string][]string{}
	for line := range strings.Lines(string(out)) {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		for _, dep := range f[1:] {
			if dep == "workrun" || strings.HasPrefix(dep, "workrun/") {
				m[f[0]] = append(m[f[0]], dep)
			}
		}
	}
	return m
}

// TestRootIsWiring keeps the command package wiring only (docs/ARCHITECTURE.md):
// its shipped files are main.go (open the data directory, register the node
// kinds, hand over to the CLI or desktop.Run), shipped.go (what Go can embed
// only from the module's root) and platform files (console_GOOS.go); and
// none declares a type or a method: an adapter belongs in desktop.
func TestRootIsWiring(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	shipped := 0
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		shipped++
		if path != "main.go" && path != "shipped.go" && !strings.HasPrefix(path, "console_") {
			t.Errorf("%s: the command's files are main.go, shipped.go and console_GOOS.go; put what it holds in desktop", path)
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range wiringViolations(fset, f) {
			t.Errorf("%s (the command only wires; adapters live in desktop)", v)
		}
	}
	if shipped < 2 {
		t.Fatalf("found %d shipped files in the root package; the walk is broken", shipped)
	}
}

// wiringViolations lists the types and methods f declares.
func wiringViolations(fset *token.FileSet, f *ast.File) []string {
	var out []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			for _, s := range d.Specs {
				if ts, ok := s.(*ast.TypeSpec); ok {
					out = append(out, fmt.Sprintf("%s: declares type %s", fset.Position(ts.Pos()), ts.Name.Name))
				}
			}
		case *ast.FuncDecl:
			if d.Recv != nil {
				out = append(out, fmt.Sprintf("%s: declares method %s", fset.Position(d.Pos()), d.Name.Name))
			}
		}
	}
	return out
}

// TestRootIsWiring_Catches: a type or a method is found, wiring is not.
func TestRootIsWiring_Catches(t *testing.T) {
	for _, c := range []struct {
		name, body string
		caught     bool
	}{
		{"adapter type", `type credAdapter struct{ m int }`, true},
		{"type in a group", `type ( a int; b string )`, true},
		{"method", `func (p *P) Services() {}`, true},
		{"wiring", `var version = "x"; func main() { run(func() error { type local int; return nil }) }`, false},
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "snippet.go", "package p\n"+c.body, 0)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := len(wiringViolations(fset, f)) > 0; got != c.caught {
			t.Errorf("%s: caught %v, want %v", c.name, got, c.caught)
		}
	}
}
