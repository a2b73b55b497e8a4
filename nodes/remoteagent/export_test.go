package remoteagent

// CanceledText exposes the R11 "canceled" line for a language tag to the
// external tests.
func CanceledText(tag string) string { return langOf(tag).text(msgCanceled) }
