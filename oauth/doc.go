// Package oauth signs Workrun in to protected MCP servers and A2A agents
// with OAuth 2.1 (docs/oauth.md) and keeps the tokens usable during runs.
// Of the project it imports only remotecall, whose origin, loopback and
// redaction rule it uses (ParseOrigin, IsLoopbackHost through Origin, the
// Redactor, the bearer header of StaticAuth), so sign-in and a run agree on
// what an origin is: package credentials keeps what it produces (a Grant)
// in the OS keyring, and the protocol clients take its Transport as their
// HTTP transport.
//
// What comes from golang.org/x/oauth2: the authorization URL, the PKCE
// verifier and S256 challenge (GenerateVerifier, S256ChallengeOption), the
// code exchange, refresh, the device authorization grant and the client
// credentials grant (clientcredentials, also carrying the JWT bearer and
// token exchange grants), with client_secret_basic /
// client_secret_post / none as the token endpoint auth style.
//
// What is written here because no library does it for us:
//   - Discovery: Protected Resource Metadata (RFC 9728) from the
//     challenge's resource_metadata, else the path-based then the root
//     well-known URL; the metadata's resource must cover the URL signed in
//     to. Authorization server metadata (RFC 8414 with the well-known
//     segment inserted before the issuer's path, then OpenID Connect
//     Discovery's two forms); its issuer must equal the identifier exactly,
//     no normalisation. Every document is size- and time-capped
//     (MaxMetadataBytes, MaxReplyTime), and a server on plain http is
//     refused unless it is loopback (CheckServerURL, remotecall's rule:
//     127.0.0.0/8, ::1, localhost and *.localhost).
//   - The WWW-Authenticate Bearer challenge parser (ParseChallenge).
//   - Client choice in the specification's order (ChooseClient): a
//     pre-registered client id, a Client ID Metadata Document where the
//     server supports it, an earlier dynamic registration at the same
//     issuer, dynamic client registration (RFC 7591) as a native
//     application. A client is bound to its issuer; when the resource names
//     another authorization server, the person signs in again and the new
//     server gets a new registration.
//   - Scope choice (SelectScopes): the challenge's scope, else
//     scopes_supported, else none (the parameter is omitted); step-up adds
//     the scopes a 403 insufficient_scope asks for to those already held;
//     offline_access only when the server lists it.
//   - The loopback redirect listener (RFC 8252): 127.0.0.1, a free port,
//     the first request with the right state only, closed at once, a time
//     limit and cancel through the context. The redirect's iss (RFC 9207)
//     must equal the issuer exactly when present, and must be present when
//     the server says it sends it.
//   - DPoP (RFC 9449, dpop.go): a P-256 key per grant when the server
//     offers it, a proof on every token and resource request, the
//     authorization server's and the resource's nonce challenge answered
//     once, `Authorization: DPoP` through remotecall's CredentialDPoP; the
//     DPoP-Nonce parser (ParseDPoPNonce). The WWW-Authenticate parser
//     reads DPoP challenges too.
//   - The JWT bearer grants without a person (assertiongrant.go): a
//     workload identity token as the grant (RFC 7523 §2.1, JWTBearer) and
//     enterprise-managed authorization (Enterprise: the ID token exchanged
//     at the identity provider for an ID-JAG by RFC 8693, then the JWT
//     bearer grant), sent as x/oauth2 client credentials requests with
//     grant_type replaced; the token file is read again at each request.
//   - private_key_jwt client assertions (RFC 7523), token revocation
//     (RFC 7009), the system browser opener (BROWSER honoured).
//   - Session and Transport: the token goes only to the resource's origin;
//     it is refreshed RefreshSkew before expiry and once after a 401. In a
//     run nothing opens a browser: when no valid token can be had the error
//     matches ErrSignInRequired and reads "sign in to ORIGIN again: …". An
//     interactive Transport (SignIn set) signs in on a 401 and steps up on a
//     403 insufficient_scope, at most DefaultMaxSignIns times.
//
// Error texts never carry a token or secret: OAuth error replies are
// reduced to their error code and description, and a secret the server
// echoes there is replaced by remotecall's Redactor.
package oauth
