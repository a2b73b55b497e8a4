package main

import (
	_ "embed"
	"errors"
	"path/filepath"

	"workrun/assets"
	"workrun/credentials"
	"workrun/ui"
)

// workflowFormatDoc is the workflow file format document, shipped inside
// the binary so that Help shows it wherever the binary was installed.
//
//go:embed docs/workflow-format.md
var workflowFormatDoc string

// aboutInfo is what Help → About shows for the data directory dataDir.
func aboutInfo(dataDir string) ui.AboutInfo {
	if abs, err := filepath.Abs(dataDir); err == nil {
		dataDir = abs
	}
	return ui.AboutInfo{
		Version:      version,
		DataDir:      dataDir,
		Licenses:     assets.ThirdPartyLicenses(),
		FormatDoc:    workflowFormatDoc,
		CheckKeyring: checkKeyring,
	}
}

// keyringProbe is a credential name no one sets: reading it tells whether
// the OS keyring answers at all.
const keyringProbe = "workrun-keyring-check"

// checkKeyring reads keyringProbe from the OS keyring; "not found" means
// the keyring works, ErrNoKeyring (its text names the cause) that it does
// not.
func checkKeyring() error {
	_, err := credentials.OSKeyring{}.Get(credentials.Service, keyringProbe)
	if errors.Is(err, credentials.ErrNoKeyring) {
		return err
	}
	return nil
}
