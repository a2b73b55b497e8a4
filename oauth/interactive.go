package oauth

import (
	"context"
	"net/http"
)

// Ways to sign in.
const (
	ModeBrowser           = "browser"
	ModeDevice            = "device"
	ModeClientCredentials = "client_credentials"
	// ModeJWTBearer: a workload's identity token is the grant (JWTBearer).
	ModeJWTBearer = "jwt_bearer"
	// ModeEnterprise: enterprise-managed authorization (Enterprise).
	ModeEnterprise = "enterprise"
)

// Interactive is a sign-in the person started (connection test, `workrun
// credential login`): it discovers the servers from the challenge, signs
// in the chosen way and saves the grant.
type Interactive struct {
	HTTP        *http.Client
	ResourceURL string
	Mode        string // ModeBrowser (default), ModeDevice, ModeClientCredentials, ModeJWTBearer, ModeEnterprise
	SignIn      SignIn
	// Assertion is what ModeJWTBearer and ModeEnterprise read.
	Assertion AssertionConfig
	// ShowDevice shows the device code flow's URL and code.
	ShowDevice func(verificationURL, userCode string)
	// Save keeps a new or refreshed grant (the keyring); may be nil.
	Save func(context.Context, Grant) error
	// Discover, when set, finds the servers instead of Discover from the
	// challenge (an A2A card's scheme: SchemeDiscovery).
	Discover func(ctx context.Context, ch Challenge) (*Discovery, error)
}

// Func is the SignInFunc of a Transport.
func (in *Interactive) Func() SignInFunc {
	return func(ctx context.Context, ch Challenge, prev *Grant, extra []string) (*Session, error) {
		var d *Discovery
		var err error
		if in.Discover != nil {
			d, err = in.Discover(ctx, ch)
		} else {
			d, err = Discover(ctx, in.HTTP, in.ResourceURL, ch)
		}
		if err != nil {
			return nil, err
		}
		si := in.SignIn
		si.HTTP = in.HTTP
		if prev != nil {
			si.Prev = prev
		}
		var g Grant
		switch in.Mode {
		case ModeClientCredentials:
			g, err = ClientCredentials(ctx, in.HTTP, d, si.Client, ch)
		case ModeJWTBearer:
			g, err = JWTBearer(ctx, in.HTTP, d, si.Client, in.Assertion, ch)
		case ModeEnterprise:
			g, err = Enterprise(ctx, in.HTTP, d, si.Client, in.Assertion, ch)
		case ModeDevice:
			g, err = si.Device(ctx, d, ch, in.ShowDevice)
		default:
			g, err = si.AuthorizationCode(ctx, d, ch, extra)
		}
		if err != nil {
			return nil, err
		}
		if in.Save != nil {
			if err := in.Save(ctx, g); err != nil {
				return nil, err
			}
		}
		return NewSession(g, in.HTTP, in.Save), nil
	}
}
