//go:build darwin && !ios && !cgo

package locale

// GetLocale retrieves the IETF BCP 47 language tag set on the system.
func GetLocale() (string, error) {
	return getLocaleCli()
}

// systemLocales retrieves the IETF BCP 47 language tags set on the system
// (GetLocales, override.go, returns them unless an application chose its own).
func systemLocales() ([]string, error) {
	return getLocalesCli()
}
