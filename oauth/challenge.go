package oauth

import (
	"strings"
)

// Challenge is what a resource server's WWW-Authenticate: Bearer or DPoP
// header says (RFC 6750 §3, RFC 9728 §5.1, RFC 9449 §7.1).
type Challenge struct {
	// DPoP: the server offers (or asks for) the DPoP scheme.
	DPoP bool
	// DPoPAlgs and DPoPError are the DPoP challenge's algs and error
	// ("use_dpop_nonce": send the DPoP-Nonce in the proof, RFC 9449 §9).
	DPoPAlgs  []string
	DPoPError string
	// ResourceMetadata is the resource_metadata URL, if given.
	ResourceMetadata string
	// Scope lists the scopes the server asks for, if given.
	Scope []string
	// Error is the error code: "invalid_token", "insufficient_scope", ….
	Error string
}

// InsufficientScope reports whether the challenge asks for more scopes.
func (c Challenge) InsufficientScope() bool { return c.Error == "insufficient_scope" }

// maxChallengeBytes bounds the header a parser looks at.
const maxChallengeBytes = 8 << 10

// ParseChallenge reads the Bearer or DPoP challenge among the values of
// WWW-Authenticate headers; ok is false when there is none. The Bearer
// challenge gives resource_metadata, error and scope, else the DPoP one; a
// DPoP challenge sets DPoP, DPoPAlgs and DPoPError. Other schemes (Basic,
// …) are skipped. Parameter values may be tokens or quoted
// strings; unknown parameters are ignored.
func ParseChallenge(headers []string) (c Challenge, ok bool) {
	bearer := false // the fields are the Bearer challenge's
	for _, h := range headers {
		if len(h) > maxChallengeBytes {
			h = h[:maxChallengeBytes]
		}
		p := challengeParser{s: h}
		for !p.done() {
			scheme := p.token()
			if scheme == "" {
				p.skipOne()
				continue
			}
			params := p.params()
			isDPoP := strings.EqualFold(scheme, "DPoP")
			if isDPoP && !c.DPoP {
				c.DPoP = true
				c.DPoPAlgs = strings.Fields(params["algs"])
				c.DPoPError = params["error"]
			}
			isBearer := strings.EqualFold(scheme, "Bearer")
			if !(isDPoP && !ok || isBearer && !bearer) {
				continue
			}
			ok, bearer = true, bearer || isBearer
			c.ResourceMetadata = params["resource_metadata"]
			c.Error = params["error"]
			c.Scope = nil
			if s := params["scope"]; s != "" {
				c.Scope = strings.Fields(s)
			}
		}
	}
	return c, ok
}

// challengeParser walks `scheme k=v, k="v", scheme2 …` (RFC 9110 §11.6.1).
type challengeParser struct {
	s string
	i int
}

func (p *challengeParser) done() bool { p.space(); return p.i >= len(p.s) }

func (p *challengeParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == ',') {
		p.i++
	}
}

func (p *challengeParser) skipOne() {
	if p.i < len(p.s) {
		p.i++
	}
}

func isTokenChar(c byte) bool {
	return c > ' ' && c < 0x7f && !strings.ContainsRune(`"(),;<=>?@[\]{}`, rune(c))
}

func (p *challengeParser) token() string {
	p.space()
	start := p.i
	for p.i < len(p.s) && isTokenChar(p.s[p.i]) && p.s[p.i] != '=' {
		p.i++
	}
	return p.s[start:p.i]
}

// params reads k=v pairs until the next scheme (a token not followed by '=').
func (p *challengeParser) params() map[string]string {
	out := map[string]string{}
	for {
		p.space()
		save := p.i
		k := p.token()
		p.wsOnly()
		if k == "" || p.i >= len(p.s) || p.s[p.i] != '=' {
			p.i = save
			if k == "" && !p.done() {
				// Not a parameter and not a scheme: a token68 or junk; skip it.
				for p.i < len(p.s) && p.s[p.i] != ',' {
					p.i++
				}
				if p.i < len(p.s) {
					continue
				}
			}
			return out
		}
		p.i++                                   // '='
		for p.i < len(p.s) && p.s[p.i] == '=' { // token68 padding
			p.i++
		}
		p.wsOnly()
		var v string
		if p.i < len(p.s) && p.s[p.i] == '"' {
			v = p.quoted()
		} else {
			start := p.i
			for p.i < len(p.s) && p.s[p.i] != ',' && p.s[p.i] != ' ' && p.s[p.i] != '\t' {
				p.i++
			}
			v = p.s[start:p.i]
		}
		k = strings.ToLower(k)
		if _, seen := out[k]; !seen {
			out[k] = v
		}
	}
}

func (p *challengeParser) wsOnly() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *challengeParser) quoted() string {
	p.i++ // opening quote
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		p.i++
		switch c {
		case '\\':
			if p.i < len(p.s) {
				b.WriteByte(p.s[p.i])
				p.i++
			}
		case '"':
			return b.String()
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
