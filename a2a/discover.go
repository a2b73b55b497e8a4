package a2a

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// WellKnownCardPath is where an agent publishes its card (A2A 1.0 §5).
const WellKnownCardPath = "/.well-known/agent-card.json"

// Discover fetches the Agent Card at baseOrCardURL (a base URL, resolved
// through /.well-known/agent-card.json, or the card's own URL) and returns a
// client for the card's first JSONRPC 1.0 interface (docs/remote-agent.md R3.1, R4).
// The card is fetched with Options.CardHTTPClient (so a caller can keep the
// credential off it), the rest with Options.HTTPClient.
func Discover(ctx context.Context, baseOrCardURL string, opts Options) (*Client, error) {
	u, err := url.Parse(strings.TrimSpace(baseOrCardURL))
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("agent URL %q is not an http(s) URL", baseOrCardURL)
	}
	opts = opts.withDefaults()
	cardClient := opts.CardHTTPClient
	if cardClient == nil {
		cardClient = opts.HTTPClient
	}
	hc := plainHTTPClient(cardClient)
	for _, cu := range cardURLs(u) {
		card, final, err := fetchCard(ctx, hc, cu, opts.CardMaxBytes)
		if errors.Is(err, errNoCardHere) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return newClient(card, final, opts)
	}
	return nil, fmt.Errorf("%w: no Agent Card at %s", ErrNotA2A, u.Redacted())
}

// cardURLs lists where to look: the URL itself if it names a .json file,
// else the well-known path under the given path, then under the origin root.
func cardURLs(u *url.URL) []*url.URL {
	base := &url.URL{Scheme: u.Scheme, User: u.User, Host: u.Host}
	if strings.HasSuffix(strings.ToLower(u.Path), ".json") {
		c := *base
		c.Path = u.Path
		return []*url.URL{&c}
	}
	var out []*url.URL
	if p := strings.TrimSuffix(u.Path, "/"); p != "" {
		c := *base
		c.Path = p + WellKnownCardPath
		out = append(out, &c)
	}
	c := *base
	c.Path = WellKnownCardPath
	return append(out, &c)
}

func fetchCard(ctx context.Context, hc *http.Client, u *url.URL, max int64) (*AgentCard, *url.URL, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("A2A-Version", ProtocolVersion)
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return nil, nil, fmt.Errorf("fetch agent card %s: %w", u.Redacted(), err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == 401 || resp.StatusCode == 403 || resp.StatusCode >= 500:
		return nil, nil, fmt.Errorf("fetch agent card %s: %w", u.Redacted(), httpErrorFrom(resp, nil))
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return nil, nil, errNoCardHere
	}
	body, err := readCapped(resp.Body, max, fmt.Errorf("%w: the card at %s is over the %d-byte limit", ErrCardTooLarge, u.Redacted(), max))
	if err != nil {
		return nil, nil, err
	}
	card, err := ParseCard(body, resp.Header.Get("Content-Type"))
	if err != nil {
		if errors.Is(err, ErrNotA2A) {
			return nil, nil, errNoCardHere
		}
		return nil, nil, fmt.Errorf("%s: %w", u.Redacted(), err)
	}
	return card, resp.Request.URL, nil
}

// ParseCard decodes an Agent Card. A body that is not JSON (an HTML page) or
// a JSON document that is no card (a chat API's reply) gives ErrNotA2A;
// malformed JSON gives ErrInvalidCard. It does not choose an interface
// (see ChooseInterface).
func ParseCard(body []byte, contentType string) (*AgentCard, error) {
	t := bytes.TrimSpace(body)
	mt := mediaType(contentType)
	looksJSON := len(t) > 0 && (t[0] == '{' || t[0] == '[')
	if !looksJSON && !strings.Contains(mt, "json") {
		return nil, errNotACard
	}
	if len(t) > 0 && t[0] != '{' && !strings.Contains(mt, "json") {
		return nil, errNotACard
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(t, &probe); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidCard, err)
	}
	_, hasIfaces := probe["supportedInterfaces"]
	_, hasURL := probe["url"]
	_, hasName := probe["name"]
	if !hasIfaces && !hasURL && !hasName {
		return nil, errNotACard
	}
	var card AgentCard
	if err := json.Unmarshal(t, &card); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidCard, err)
	}
	return &card, nil
}

var errNotACard = fmt.Errorf("%w: the document is not an Agent Card", ErrNotA2A)

// ChooseInterface picks the first JSONRPC interface of a 1.x protocol version,
// preferring "1.0" (A2A 1.0 §5 "Choosing the JSON-RPC endpoint").
func ChooseInterface(card *AgentCard) (AgentInterface, error) {
	major := func(v string) string { return strings.SplitN(strings.TrimSpace(v), ".", 2)[0] }
	passes := []func(AgentInterface) bool{
		func(i AgentInterface) bool {
			return i.ProtocolVersion == "1.0" || strings.HasPrefix(i.ProtocolVersion, "1.0.")
		},
		func(i AgentInterface) bool { return major(i.ProtocolVersion) == "1" },
		func(i AgentInterface) bool { return strings.TrimSpace(i.ProtocolVersion) == "" },
	}
	for _, ok := range passes {
		for _, i := range card.SupportedInterfaces {
			if strings.EqualFold(strings.TrimSpace(i.ProtocolBinding), "JSONRPC") && ok(i) {
				return i, nil
			}
		}
	}
	if len(card.SupportedInterfaces) == 0 {
		if card.LegacyURL != "" || card.LegacyProtocolVersion != "" {
			return AgentInterface{}, ErrLegacyA2A03
		}
		return AgentInterface{}, fmt.Errorf("%w (the card lists no interfaces)", ErrNoJSONRPCInterface)
	}
	legacy := true
	offered := make([]string, 0, len(card.SupportedInterfaces))
	for _, i := range card.SupportedInterfaces {
		if major(i.ProtocolVersion) != "0" {
			legacy = false
		}
		offered = append(offered, strings.TrimSpace(i.ProtocolBinding+" "+i.ProtocolVersion))
	}
	if legacy {
		return AgentInterface{}, ErrLegacyA2A03
	}
	return AgentInterface{}, fmt.Errorf("%w (it offers: %s)", ErrNoJSONRPCInterface, strings.Join(offered, ", "))
}

func newClient(card *AgentCard, cardURL *url.URL, opts Options) (*Client, error) {
	iface, err := ChooseInterface(card)
	if err != nil {
		return nil, fmt.Errorf("agent at %s %w", cardURL.Redacted(), err)
	}
	ep, err := cardURL.Parse(strings.TrimSpace(iface.URL))
	if err != nil || ep.Host == "" || (ep.Scheme != "http" && ep.Scheme != "https") {
		return nil, fmt.Errorf("agent at %s: %w: interface URL %q is not an http(s) URL", cardURL.Redacted(), ErrInvalidCard, iface.URL)
	}
	c := &Client{card: card, cardURL: cardURL.String(), endpoint: ep.String(), tenant: iface.Tenant, opts: opts}
	c.hc = plainHTTPClient(opts.HTTPClient)
	return c, nil
}

// plainHTTPClient copies the caller's client without its Timeout, which
// would cut streams; deadlines come from contexts.
func plainHTTPClient(base *http.Client) *http.Client {
	hc := &http.Client{}
	if base != nil {
		*hc = *base
	}
	hc.Timeout = 0
	return hc
}

func (o Options) withDefaults() Options {
	if o.MaxReplyBytes <= 0 {
		o.MaxReplyBytes = DefaultMaxReplyBytes
	}
	if o.MaxEventBytes <= 0 {
		o.MaxEventBytes = DefaultMaxEventBytes
	}
	if o.MaxRequestBytes <= 0 {
		o.MaxRequestBytes = DefaultMaxRequestBytes
	}
	if o.CardMaxBytes <= 0 {
		o.CardMaxBytes = DefaultCardMaxBytes
	}
	return o
}
