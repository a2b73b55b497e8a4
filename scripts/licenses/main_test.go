package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// generate runs the tool on the workrun main package for systems.
func generate(t *testing.T, systems ...string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "licenses.txt")
	if err := run("../..", systems, out); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// heading is how a module's section starts.
func heading(path string) string { return "\n" + path + " " }

func TestLicensesFollowTheModuleGraphPerSystem(t *testing.T) {
	linux := generate(t, "linux")
	windows := generate(t, "windows")
	both := generate(t, "linux", "windows")

	for name, text := range map[string]string{"linux": linux, "windows": windows, "both": both} {
		if !strings.HasPrefix(text, Header) {
			t.Errorf("%s: does not start with %q", name, Header)
		}
		for _, want := range []string{"Go standard library", "fyne.io/fyne/v2", "modernc.org/sqlite", "github.com/zalando/go-keyring"} {
			if !strings.Contains(text, heading(want)) {
				t.Errorf("%s: no section for %s", name, want)
			}
		}
		// Fyne is BSD-3-Clause: its text must be there, not only its name.
		if !strings.Contains(text, "Redistribution and use in source and binary forms") {
			t.Errorf("%s: no licence text", name)
		}
		if strings.Contains(text, heading("workrun")) {
			t.Errorf("%s: lists the main module itself", name)
		}
		if strings.Contains(text, heading("github.com/google/go-cmp")) {
			t.Errorf("%s: lists go-cmp, which only tests use", name)
		}
	}
	// The Windows keyring back end is linked only into the Windows build,
	// the desktop portal client only into the Linux one.
	if !strings.Contains(windows, heading("github.com/danieljoos/wincred")) || strings.Contains(linux, heading("github.com/danieljoos/wincred")) {
		t.Error("wincred should be listed for windows only")
	}
	if !strings.Contains(linux, heading("github.com/rymdport/portal")) || strings.Contains(windows, heading("github.com/rymdport/portal")) {
		t.Error("rymdport/portal (the XDG desktop portal client) should be listed for linux only")
	}
	for _, m := range []string{"github.com/danieljoos/wincred", "github.com/rymdport/portal"} {
		if !strings.Contains(both, heading(m)) {
			t.Errorf("linux+windows: no section for %s", m)
		}
	}
}

func TestModuleWithoutLicenceIsAnError(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := writeModule(&b, module{Path: "example.com/x", Dir: dir}); err != errNoLicence {
		t.Fatalf("writeModule without a licence file = %v, want errNoLicence", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "LICENSE.md"), []byte("MIT terms"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeModule(&b, module{Path: "example.com/x", Version: "v1.0.0", Dir: dir}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "example.com/x v1.0.0") || !strings.Contains(b.String(), "MIT terms") {
		t.Errorf("section = %q", b.String())
	}
}
