package machinery

import (
	"context"
	"crypto"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// google is Cloud Translation Advanced (v3) over REST: POST
// …/v3/projects/{project}/locations/{location}:translateText, with an
// OAuth access token the service account's key obtains (the JWT bearer
// grant of RFC 7523 at the credentials' token_uri).
type google struct {
	h        *httpClient
	endpoint string
	parent   string
	account  serviceAccount
	key      *rsa.PrivateKey

	mu      sync.Mutex
	token   string
	expires time.Time
}

// serviceAccount is the part of a service account key file used here.
type serviceAccount struct {
	ClientEmail  string `json:"client_email"`
	PrivateKey   string `json:"private_key"`
	PrivateKeyID string `json:"private_key_id"`
	TokenURI     string `json:"token_uri"`
}

func newGoogle(s Settings, h *httpClient) (Engine, error) {
	var sa serviceAccount
	if err := json.Unmarshal([]byte(s.str("credentials", "")), &sa); err != nil {
		return nil, errors.New("google-translate-api-v3: credentials are not a service account key (JSON)")
	}
	if sa.TokenURI == "" {
		sa.TokenURI = "https://oauth2.googleapis.com/token"
	}
	key, err := parseRSAKey(sa.PrivateKey)
	if err != nil {
		return nil, fmt.Errorf("google-translate-api-v3: %w", err)
	}
	location := s.str("location", "global")
	endpoint := "https://translate.googleapis.com"
	switch {
	case strings.HasPrefix(location, "europe-"):
		endpoint = "https://translate-eu.googleapis.com"
	case strings.HasPrefix(location, "us-"):
		endpoint = "https://translate-us.googleapis.com"
	}
	return &google{h: h, endpoint: endpoint, parent: "projects/" + s.str("project", "") + "/locations/" + location,
		account: sa, key: key}, nil
}

func parseRSAKey(pemText string) (*rsa.PrivateKey, error) {
	block, _ := pem.Decode([]byte(pemText))
	if block == nil {
		return nil, errors.New("the private key is not PEM")
	}
	if k, err := x509.ParsePKCS8PrivateKey(block.Bytes); err == nil {
		if rk, ok := k.(*rsa.PrivateKey); ok {
			return rk, nil
		}
		return nil, errors.New("the private key is not RSA")
	}
	return x509.ParsePKCS1PrivateKey(block.Bytes)
}

func (*google) ID() string    { return "google-translate-api-v3" }
func (*google) Name() string  { return "Google Cloud Translation Advanced" }
func (*google) MaxScore() int { return 90 }

// googleCodes are the reference's renames; other codes take "-" and lose
// a variant.
var googleCodes = map[string]string{"nb": "no", "nb_NO": "no", "fil": "tl", "zh_Hant": "zh-TW", "zh_Hans": "zh-CN", "ber_Latn": "kab"}

func googleCode(code string) string {
	if c, ok := googleCodes[code]; ok {
		return c
	}
	code, _, _ = strings.Cut(code, "@")
	return strings.ReplaceAll(code, "_", "-")
}

// googleBatch is how many texts one request carries (the API takes up
// to 1024, and 30k code points).
const googleBatch = 100

func (e *google) Translate(ctx context.Context, source, target string, texts []string) ([]string, error) {
	token, err := e.accessToken(ctx)
	if err != nil {
		return nil, err
	}
	header := http.Header{"Authorization": {"Bearer " + token}}
	return chunks(texts, googleBatch, func(piece []string) ([]string, error) {
		body := map[string]any{"contents": piece, "sourceLanguageCode": googleCode(source),
			"targetLanguageCode": googleCode(target), "mimeType": "text/plain"}
		var out struct {
			Translations []struct {
				TranslatedText string `json:"translatedText"`
			} `json:"translations"`
		}
		err := e.h.do(ctx, request{method: http.MethodPost, url: e.endpoint + "/v3/" + e.parent + ":translateText",
			body: body, header: header, timeout: 20 * time.Second}, &out)
		res := make([]string, len(out.Translations))
		for i, t := range out.Translations {
			res[i] = t.TranslatedText
		}
		return res, err
	})
}

// accessToken is a cached token, fetched again a minute before it ends.
func (e *google) accessToken(ctx context.Context) (string, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.token != "" && time.Now().Before(e.expires) {
		return e.token, nil
	}
	assertion, err := e.assertion(time.Now())
	if err != nil {
		return "", err
	}
	var out struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int    `json:"expires_in"`
	}
	form := url.Values{"grant_type": {"urn:ietf:params:oauth:grant-type:jwt-bearer"}, "assertion": {assertion}}
	if err = e.h.do(ctx, request{method: http.MethodPost, url: e.account.TokenURI, body: form, timeout: 20 * time.Second}, &out); err != nil {
		return "", fmt.Errorf("access token: %w", err)
	}
	if out.AccessToken == "" {
		return "", errors.New("access token: none in the answer")
	}
	e.token, e.expires = out.AccessToken, time.Now().Add(time.Duration(max(out.ExpiresIn-60, 0))*time.Second)
	return e.token, nil
}

// assertion is the signed JWT the token endpoint exchanges (RS256).
func (e *google) assertion(now time.Time) (string, error) {
	header, _ := json.Marshal(map[string]string{"alg": "RS256", "typ": "JWT", "kid": e.account.PrivateKeyID})
	claims, _ := json.Marshal(map[string]any{"iss": e.account.ClientEmail, "scope": "https://www.googleapis.com/auth/cloud-translation",
		"aud": e.account.TokenURI, "iat": now.Unix(), "exp": now.Add(time.Hour).Unix()})
	enc := base64.RawURLEncoding
	signing := enc.EncodeToString(header) + "." + enc.EncodeToString(claims)
	sum := sha256.Sum256([]byte(signing))
	sig, err := rsa.SignPKCS1v15(nil, e.key, crypto.SHA256, sum[:])
	if err != nil {
		return "", err
	}
	return signing + "." + enc.EncodeToString(sig), nil
}
