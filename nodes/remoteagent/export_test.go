package remoteagent

// CanceledText exposes the R11 "canceled" line in lang to the external tests.
func CanceledText(lang string) string { return texts.In(lang, msgCanceled) }
