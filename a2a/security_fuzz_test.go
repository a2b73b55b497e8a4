package a2a

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// cardSecuritySeeds are security parts of real cards, in the three shapes
// servers send (SecurityRequirement): ProtoJSON (a2a-js), a2a-go's and the
// 0.3 / v1.0.0 sample card's.
var cardSecuritySeeds = []string{
	`{"name":"js","supportedInterfaces":[{"url":"http://127.0.0.1:9/rpc","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],
	 "securitySchemes":{"bearer":{"httpAuthSecurityScheme":{"scheme":"Bearer","bearerFormat":"JWT"}},
	   "key":{"apiKeySecurityScheme":{"location":"header","name":"X-API-Key"}}},
	 "securityRequirements":[{"schemes":{"bearer":{"list":[]}}},{"schemes":{"key":{"list":["read"]}}}]}`,
	`{"name":"go","securitySchemes":{"oauth":{"oauth2SecurityScheme":{"flows":{"authorizationCode":{"authorizationUrl":"https://as.example/authorize","tokenUrl":"https://as.example/token","refreshUrl":"https://as.example/token","scopes":{"agent:read":"read","agent:write":"write"}},"clientCredentials":{"tokenUrl":"https://as.example/token","scopes":{}}},"oauth2MetadataUrl":"https://as.example/.well-known/oauth-authorization-server"}}},
	 "securityRequirements":[{"schemes":{"oauth":["agent:read"]}}]}`,
	`{"name":"oidc","url":"https://agent.example/a2a","protocolVersion":"0.3.0",
	 "securitySchemes":{"oidc":{"openIdConnectSecurityScheme":{"openIdConnectUrl":"https://id.example/.well-known/openid-configuration"}},"mtls":{"mtlsSecurityScheme":{"description":"client cert"}}},
	 "security":[{"oidc":["openid","profile"]},{"mtls":[]}]}`,
	`{"name":"device","securitySchemes":{"dev":{"oauth2SecurityScheme":{"flows":{"deviceCode":{"deviceAuthorizationUrl":"https://as.example/device","tokenUrl":"https://as.example/token","scopes":{"a":"b"}}}}}},
	 "skills":[{"id":"s","name":"s","securityRequirements":[{"schemes":{"dev":{"list":["a"]}}}]}]}`,
	`{"name":"odd","securitySchemes":{"two":{"apiKeySecurityScheme":{"location":"query","name":"k"},"httpAuthSecurityScheme":{"scheme":"Basic"}},"none":{}},
	 "securityRequirements":[{"schemes":null},{"schemes":["x"]},{"a":null,"schemes":{}},{}]}`,
	`{"name":"bad","securityRequirements":[{"schemes":{"x":{"list":"read"}}}]}`,
	`{"name":"bad","securitySchemes":{"o":{"oauth2SecurityScheme":{"flows":[1,2]}}},"securityRequirements":[7]}`,
}

// FuzzCardSecurity: the card's securitySchemes and security requirements
// (card, 0.3 security, skills). A card that parses writes its security
// parts back in one form (ProtoJSON requirements) that reads back the same.
func FuzzCardSecurity(f *testing.F) {
	for _, s := range cardSecuritySeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		card, err := ParseCard(body, "application/json")
		if err != nil {
			return // FuzzCardDecode checks the errors
		}
		b, err := json.Marshal(card)
		if err != nil {
			t.Fatalf("a parsed card does not encode: %v", err)
		}
		again, err := ParseCard(b, "application/json")
		if err != nil {
			t.Fatalf("the card written back does not parse: %v\n%s", err, b)
		}
		if got, want := securityOf(again), securityOf(card); !reflect.DeepEqual(got, want) {
			t.Fatalf("security changed in a round trip:\n got %#v\nwant %#v\n%s", got, want, b)
		}
		for _, r := range allRequirements(card) {
			for name, scopes := range r.Schemes {
				if scopes == nil {
					t.Fatalf("scheme %q: nil scopes (callers range over them; want empty)", name)
				}
			}
		}
	})
}

// FuzzSecurityRequirement: one requirement in any shape. Decoded, it
// encodes to ProtoJSON and decodes back to the same schemes and scopes.
func FuzzSecurityRequirement(f *testing.F) {
	for _, s := range []string{`{"schemes":{"bearer":{"list":[]}}}`, `{"schemes":{"o":["a","b"]}}`, `{"o":["a"]}`, `{"o":null}`,
		`{"schemes":{}}`, `{"schemes":["a"]}`, `{"schemes":null}`, `{"schemes":{"x":{"list":null}},"y":[]}`, `{"x":{"list":[1]}}`, `[]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var r SecurityRequirement
		if err := json.Unmarshal(b, &r); err != nil {
			return
		}
		out, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(out, []byte(`{"schemes":{`)) {
			t.Fatalf("not ProtoJSON: %s", out)
		}
		var again SecurityRequirement
		if err := json.Unmarshal(out, &again); err != nil {
			t.Fatalf("%s: %v", out, err)
		}
		if !reflect.DeepEqual(again.Schemes, r.Schemes) {
			t.Fatalf("round trip %q → %s → %#v, want %#v", b, out, again.Schemes, r.Schemes)
		}
	})
}

type cardSecurity struct {
	Schemes map[string]SecurityScheme
	Reqs    [][]SecurityRequirement
}

func allRequirements(c *AgentCard) []SecurityRequirement {
	out := append(append([]SecurityRequirement{}, c.SecurityRequirements...), c.Security...)
	for _, s := range c.Skills {
		out = append(out, s.SecurityRequirements...)
	}
	return out
}

// securityOf is the card's security parts, with raw flows compacted (the
// encoder compacts json.RawMessage) and empty lists as nil (omitempty).
func securityOf(c *AgentCard) cardSecurity {
	s := cardSecurity{Schemes: map[string]SecurityScheme{}}
	for name, sc := range c.SecuritySchemes {
		if sc.OAuth2 != nil {
			o := *sc.OAuth2
			var buf bytes.Buffer
			if json.Compact(&buf, o.Flows) == nil {
				o.Flows = buf.Bytes()
			}
			if len(o.Flows) == 0 {
				o.Flows = nil
			}
			sc.OAuth2 = &o
		}
		s.Schemes[name] = sc
	}
	norm := func(rs []SecurityRequirement) []SecurityRequirement {
		if len(rs) == 0 {
			return nil
		}
		return rs
	}
	s.Reqs = append(s.Reqs, norm(c.SecurityRequirements), norm(c.Security))
	for _, sk := range c.Skills {
		s.Reqs = append(s.Reqs, norm(sk.SecurityRequirements))
	}
	return s
}
