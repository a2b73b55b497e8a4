package desktop

import (
	"errors"
	"path/filepath"

	"workrun/assets"
	"workrun/credentials"
	"workrun/ui"
)

// aboutInfo is what Help → About shows for the data directory dataDir.
func aboutInfo(dataDir string, shipped Shipped) ui.AboutInfo {
	if abs, err := filepath.Abs(dataDir); err == nil {
		dataDir = abs
	}
	return ui.AboutInfo{
		Version:      shipped.Version,
		DataDir:      dataDir,
		Licenses:     assets.ThirdPartyLicenses(),
		FormatDoc:    shipped.FormatDoc,
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
