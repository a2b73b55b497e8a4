package main

import (
	"errors"
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
// remotecall, which sees only the engine; the protocol clients import nothing
// of the project but the SSE reader and the JSON-RPC errors they share; the CLI reaches the data
// directory only through cli.Services. It asks `go list -deps`, so indirect imports count too.
func TestImportArrows(t *testing.T) {
	rules := []struct {
		pkgs    string
		allowed []string // project packages the pattern may depend on; nil: any but forbidden
		forbid  []string
	}{
		{pkgs: "./workrun", allowed: []string{"workrun/workrun"}},
		{pkgs: "./ui", allowed: []string{"workrun/ui", "workrun/workrun", "workrun/assets"}},
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
		{pkgs: "./oauth", allowed: []string{"workrun/oauth"}},
		// serve: the domain core reaches the engine only; its A2A front
		// adds the wire types (a2a, sse, jsonrpc) and nothing else —
		// never the window, the store or a node kind (docs/serve.md).
		{pkgs: "./serve", allowed: []string{"workrun/serve", "workrun/workrun"}},
		{pkgs: "./serve/...", allowed: []string{"workrun/serve", "workrun/serve/a2aserve", "workrun/workrun", "workrun/a2a", "workrun/sse", "workrun/jsonrpc"}},
		{pkgs: "./cli", forbid: []string{"workrun/store", "workrun/ui"}},
	}
	for _, r := range rules {
		for _, dep := range projectDeps(t, r.pkgs) {
			if slices.Contains(r.forbid, dep) || (r.allowed != nil && !slices.Contains(r.allowed, dep)) {
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

// oneLayerExceptions are files allowed, for now, to hold a piece of the
// origin rule or of putting a credential on a request outside remotecall,
// each with its reason. Empty it, never grow it.
var oneLayerExceptions = map[string]string{
	// The OAuth token transport sits under remotecall.Transport
	// (Binding.Wrap) and sets the token it renews; its origin parsing moves
	// to remotecall.ParseOrigin (oauth owner, issue 21).
	"oauth/transport.go": "sets the OAuth token under remotecall.Transport (Binding.Wrap)",
	"oauth/discovery.go": "origin parsing moves to remotecall.ParseOrigin (oauth owner, issue 21)",
}

// TestOneRemoteLayer fails when the origin rule (loopback, host:port
// joining) or a credential check (setting Authorization, a "Bearer "
// header) is written outside remotecall, the one remote layer
// (docs/ARCHITECTURE.md). Servers of our own that read a credential
// (a2a/demoagent, mcp/demoserver, the tests' authorization server
// oauth/oauthtest) and tests are not clients and are not scanned.
func TestOneRemoteLayer(t *testing.T) {
	skipDir := map[string]bool{"remotecall": true, "third_party": true, "testdata": true, "a2a/demoagent": true, "mcp/demoserver": true, "oauth/oauthtest": true, "node_modules": true, "bin": true}
	fset := token.NewFileSet()
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
		if _, ok := oneLayerExceptions[filepath.ToSlash(path)]; ok {
			return nil
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if n.Sel.Name == "IsLoopback" || n.Sel.Name == "JoinHostPort" {
					t.Errorf("%s: %s is the origin rule; use remotecall (Origin, IsLoopbackHost)", fset.Position(n.Pos()), n.Sel.Name)
				}
			case *ast.BasicLit:
				if v, err := strconv.Unquote(n.Value); err == nil && n.Kind == token.STRING {
					switch {
					case strings.EqualFold(v, "localhost"), strings.HasSuffix(strings.ToLower(v), ".localhost"):
						t.Errorf("%s: %q is the loopback rule; use remotecall.IsLoopbackHost", fset.Position(n.Pos()), v)
					case v == "Bearer ":
						t.Errorf("%s: a bearer header is put on requests only by remotecall's Authorizer", fset.Position(n.Pos()))
					}
				}
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok || (sel.Sel.Name != "Set" && sel.Sel.Name != "Add") || len(n.Args) == 0 {
					return true
				}
				if lit, ok := n.Args[0].(*ast.BasicLit); ok && strings.EqualFold(strings.Trim(lit.Value, "`\""), "Authorization") {
					t.Errorf("%s: the Authorization header is set only by remotecall's Authorizer", fset.Position(n.Pos()))
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
