package push

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// tokenHash is the hex SHA-256 of a token, as the node saves it
// (nodes/remoteagent.PushTokenHash).
func tokenHash(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// savedHash reads the token hash from a push side record.
func savedHash(result []byte) (string, bool) {
	var w struct {
		TokenSHA256 string `json:"token_sha256"`
	}
	if err := json.Unmarshal(result, &w); err != nil || len(w.TokenSHA256) != sha256.Size*2 {
		return "", false
	}
	return w.TokenSHA256, true
}
