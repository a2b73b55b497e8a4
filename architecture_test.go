package main

import (
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestImportArrows keeps the one-way imports of docs/ARCHITECTURE.md: the
// engine imports no other package of the project; the window sees only the
// engine and its assets; node kinds reach persistence and secrets only
// through the interfaces in their Deps, and share code only through
// remotecall, which sees only the engine; the protocol clients import nothing
// of the project but the SSE reader they share; the CLI reaches the data
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
		{pkgs: "./mcptool", allowed: []string{"workrun/mcptool", "workrun/workrun", "workrun/remotecall", "workrun/mcp", "workrun/sse"}},
		{pkgs: "./sse", allowed: []string{"workrun/sse"}},
		{pkgs: "./a2a", allowed: []string{"workrun/a2a", "workrun/sse"}},
		{pkgs: "./mcp", allowed: []string{"workrun/mcp", "workrun/sse"}},
		{pkgs: "./store", allowed: []string{"workrun/store", "workrun/workrun"}},
		{pkgs: "./artifacts", allowed: []string{"workrun/artifacts", "workrun/workrun"}},
		{pkgs: "./credentials", allowed: []string{"workrun/credentials", "workrun/workrun", "workrun/a2a", "workrun/mcp", "workrun/sse", "workrun/oauth"}},
		{pkgs: "./oauth", allowed: []string{"workrun/oauth"}},
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
