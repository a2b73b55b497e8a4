package workrun

// RegisteredTexts returns a copy of every catalogue entry registered so far.
func RegisteredTexts() map[string][2]string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	out := make(map[string][2]string, len(registry))
	for k, v := range registry {
		out[k] = v
	}
	return out
}
