package workrun

// EnvName reports whether s is a portable environment variable name: an
// ASCII letter or _, then letters, digits or _. Anything else ('=', spaces,
// control characters) would change another variable or be dropped by the
// system. The kinds that start programs (process, tool_app) check names
// with it.
func EnvName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		switch {
		case c == '_', c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}
