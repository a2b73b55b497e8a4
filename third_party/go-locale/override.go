package locale

import "sync"

// Workrun patch (PATCHED.md): an application may choose the locales itself.
// Fyne's lang package picks its translation from GetLocales each time
// translations are added, and has no call that sets its language; with
// SetLocales the application hands it its choice without writing the
// process's environment.

var (
	overrideMu sync.RWMutex
	override   []string
)

// SetLocales makes GetLocales return tags (IETF BCP 47, "zh-Hans", "en")
// instead of the system's; no tags puts the system's back. GetLocale still
// reports the system's locale.
func SetLocales(tags ...string) {
	overrideMu.Lock()
	defer overrideMu.Unlock()
	override = append([]string(nil), tags...)
}

// GetLocales retrieves the IETF BCP 47 language tags set by SetLocales, or
// else set on the system.
func GetLocales() ([]string, error) {
	overrideMu.RLock()
	tags := append([]string(nil), override...)
	overrideMu.RUnlock()
	if len(tags) > 0 {
		return tags, nil
	}
	return systemLocales()
}
