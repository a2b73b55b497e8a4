package oauth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"time"

	"golang.org/x/oauth2"
)

const assertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

// clientAssertion is a private_key_jwt client assertion (RFC 7523 §2.2):
// iss and sub the client id, aud the issuer, valid for five minutes. x/oauth2
// has no signer for it; this is ES256 (P-256 key) or RS256 (RSA key) by hand.
func clientAssertion(c Client, audience string) (string, error) {
	key, err := parsePrivateKey(c.PrivateKeyPEM)
	if err != nil {
		return "", err
	}
	alg := "RS256"
	if _, ok := key.(*ecdsa.PrivateKey); ok {
		alg = "ES256"
	}
	now := time.Now()
	header, _ := json.Marshal(map[string]string{"alg": alg, "typ": "JWT"})
	claims, _ := json.Marshal(map[string]any{"iss": c.ID, "sub": c.ID, "aud": audience,
		"iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix(), "jti": randomString()})
	enc := base64.RawURLEncoding
	signing := enc.EncodeToString(header) + "." + enc.EncodeToString(claims)
	sum := sha256.Sum256([]byte(signing))
	var sig []byte
	switch k := key.(type) {
	case *ecdsa.PrivateKey:
		r, s, err := ecdsa.Sign(rand.Reader, k, sum[:])
		if err != nil {
			return "", fmt.Errorf("sign the client assertion: %w", err)
		}
		sig = append(pad32(r), pad32(s)...)
	case *rsa.PrivateKey:
		sig, err = rsa.SignPKCS1v15(rand.Reader, k, crypto.SHA256, sum[:])
		if err != nil {
			return "", fmt.Errorf("sign the client assertion: %w", err)
		}
	}
	return signing + "." + enc.EncodeToString(sig), nil
}

func pad32(n *big.Int) []byte {
	b := make([]byte, 32)
	return n.FillBytes(b)
}

func parsePrivateKey(p string) (any, error) {
	block, _ := pem.Decode([]byte(p))
	if block == nil {
		return nil, errors.New("private key: not PEM")
	}
	if k, err := x509.ParsePKCS8PrivateKey(block.Bytes); err == nil {
		switch k := k.(type) {
		case *ecdsa.PrivateKey:
			if k.Curve.Params().BitSize != 256 {
				return nil, errors.New("private key: only P-256 EC keys are supported (ES256)")
			}
			return k, nil
		case *rsa.PrivateKey:
			return k, nil
		}
		return nil, errors.New("private key: only EC P-256 and RSA keys are supported")
	}
	if k, err := x509.ParseECPrivateKey(block.Bytes); err == nil {
		return k, nil
	}
	if k, err := x509.ParsePKCS1PrivateKey(block.Bytes); err == nil {
		return k, nil
	}
	return nil, errors.New("private key: cannot parse it (PKCS#8, SEC 1 or PKCS#1 PEM expected)")
}

func assertionOptions(c Client, audience string) ([]oauth2.AuthCodeOption, error) {
	a, err := clientAssertion(c, audience)
	if err != nil {
		return nil, err
	}
	return []oauth2.AuthCodeOption{oauth2.SetAuthURLParam("client_assertion_type", assertionType), oauth2.SetAuthURLParam("client_assertion", a)}, nil
}
