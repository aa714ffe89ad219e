package machinery

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/tmsproject/tms/pkg/netguard"
)

// Engine is one configured machine translation service.
type Engine interface {
	// ID is the reference's service id ("deepl").
	ID() string
	// Name is its display name ("DeepL").
	Name() string
	// MaxScore is the quality the reference gives its every result.
	MaxScore() int
	// Translate translates texts from source to target (language codes as
	// the service writes them, "pt_BR"), one result per text, in order.
	Translate(ctx context.Context, source, target string, texts []string) ([]string, error)
}

// Options are what every engine shares.
type Options struct {
	// Client makes the requests; nil: a client whose dialer refuses
	// loopback, private and link-local addresses unless AllowLocal.
	Client *http.Client
	// AllowLocal lets the default client reach local addresses.
	AllowLocal bool
	// UserAgent names the service in requests.
	UserAgent string
}

// Settings are an engine's configuration, the machinery settings' values.
type Settings map[string]any

func (s Settings) str(key, def string) string {
	if v, ok := s[key].(string); ok && v != "" {
		return v
	}
	return def
}

// ErrUnknown is New's answer for a service this package does not call.
var ErrUnknown = errors.New("machinery: no such engine")

// New builds the engine id from its settings.
func New(id string, s Settings, opts Options) (Engine, error) {
	h := newHTTP(opts, s)
	switch id {
	case "libretranslate":
		return newLibre(s, h)
	case "deepl":
		return newDeepL(s, h)
	case "google-translate-api-v3":
		return newGoogle(s, h)
	case "microsoft-translator":
		return newMicrosoft(s, h)
	case "modernmt":
		return newModernMT(s, h)
	case "openai":
		return newOpenAI(s, h)
	}
	return nil, fmt.Errorf("%w: %s", ErrUnknown, id)
}

// Supported reports whether New builds the engine id.
func Supported(id string) bool {
	switch id {
	case "libretranslate", "deepl", "google-translate-api-v3", "microsoft-translator", "modernmt", "openai":
		return true
	}
	return false
}

// httpClient is the HTTP side every engine shares: retries, timeouts and
// errors scrubbed of the settings' secrets.
type httpClient struct {
	c       *http.Client
	agent   string
	secrets []string
}

func newHTTP(opts Options, s Settings) *httpClient {
	c := opts.Client
	if c == nil {
		d := &net.Dialer{Timeout: 10 * time.Second}
		allow := opts.AllowLocal
		c = &http.Client{Transport: &http.Transport{
			DialContext:         netguard.DialContext(d, func() bool { return allow }),
			TLSHandshakeTimeout: 10 * time.Second, MaxIdleConnsPerHost: 4,
		}}
	}
	h := &httpClient{c: c, agent: opts.UserAgent}
	for _, k := range []string{"key", "secret", "credentials"} {
		if v, ok := s[k].(string); ok && len(v) >= 4 {
			h.secrets = append(h.secrets, v)
		}
	}
	return h
}

// Retry policy on 429 and 503, as the reference's: up to retries more
// attempts, waiting Retry-After (whole seconds) or 2^attempt seconds,
// at most maxDelay, times a jitter of 0.8 to 1.3.
const (
	retries  = 3
	maxDelay = 30 * time.Second
)

// request is one HTTP call of an engine.
type request struct {
	method, url string
	header      http.Header
	body        any // JSON-encoded; url.Values as a form
	timeout     time.Duration
}

// do sends req (again on 429 and 503) and decodes a 2xx JSON answer into
// out; any other status is an error with the engine's own message.
func (h *httpClient) do(ctx context.Context, req request, out any) error {
	raw, err := h.call(ctx, req)
	if err != nil {
		return err
	}
	if out == nil {
		return nil
	}
	if err = json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("unexpected answer: %w", err)
	}
	return nil
}

// call answers the body of a 2xx answer.
func (h *httpClient) call(ctx context.Context, req request) ([]byte, error) {
	for attempt := 0; ; attempt++ {
		raw, status, wait, err := h.once(ctx, req)
		if err != nil {
			return nil, h.scrub(err)
		}
		if status/100 == 2 {
			return raw, nil
		}
		if (status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable) && attempt < retries {
			if wait == 0 {
				wait = time.Duration(1<<attempt) * time.Second
			}
			wait = time.Duration(float64(min(wait, maxDelay)) * (0.8 + 0.5*rand.Float64())) //nolint:gosec // G404: jitter
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(wait):
				continue
			}
		}
		return nil, h.scrub(&StatusError{Status: status, Detail: detail(raw)})
	}
}

// once sends req once: the body and status of the answer, and how long
// its Retry-After asks to wait.
func (h *httpClient) once(ctx context.Context, req request) ([]byte, int, time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, req.timeout)
	defer cancel()
	var body io.Reader
	contentType := ""
	switch b := req.body.(type) {
	case nil:
	case url.Values:
		body, contentType = strings.NewReader(b.Encode()), "application/x-www-form-urlencoded"
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			return nil, 0, 0, err
		}
		body, contentType = bytes.NewReader(raw), "application/json"
	}
	hr, err := http.NewRequestWithContext(ctx, req.method, req.url, body)
	if err != nil {
		return nil, 0, 0, err
	}
	for k, vs := range req.header {
		hr.Header[k] = vs
	}
	if contentType != "" {
		hr.Header.Set("Content-Type", contentType)
	}
	hr.Header.Set("Accept", "application/json")
	if h.agent != "" {
		hr.Header.Set("User-Agent", h.agent)
	}
	resp, err := h.c.Do(hr)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) { // its text names the URL
			err = ue.Err
		}
		return nil, 0, 0, err
	}
	defer func() { _ = resp.Body.Close() }()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return nil, 0, 0, err
	}
	var wait time.Duration
	if s, perr := strconv.Atoi(resp.Header.Get("Retry-After")); perr == nil && s > 0 {
		wait = time.Duration(s) * time.Second
	}
	return raw, resp.StatusCode, wait, nil
}

// StatusError is an engine's refusal: its HTTP status and message.
type StatusError struct {
	Status int
	Detail string
}

func (e *StatusError) Error() string {
	if e.Detail == "" {
		return fmt.Sprintf("HTTP %d", e.Status)
	}
	return fmt.Sprintf("HTTP %d: %s", e.Status, e.Detail)
}

// RateLimited tells whether err is the engine refusing more requests
// for now (429, or DeepL's 456 quota).
func RateLimited(err error) bool {
	var se *StatusError
	return errors.As(err, &se) && (se.Status == http.StatusTooManyRequests || se.Status == 456)
}

// detail is the engine's message in an error answer: the first string of
// message, detail, error or error.message, as the reference reads them.
func detail(raw []byte) string {
	var v map[string]any
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	for _, k := range []string{"message", "detail", "error"} {
		switch x := v[k].(type) {
		case string:
			return truncate(x)
		case map[string]any:
			if m, ok := x["message"].(string); ok {
				return truncate(m)
			}
		}
	}
	return ""
}

func truncate(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

// scrub replaces the settings' secrets in err's text.
func (h *httpClient) scrub(err error) error {
	msg := err.Error()
	clean := msg
	for _, s := range h.secrets {
		clean = strings.ReplaceAll(clean, s, "***")
	}
	if clean == msg {
		return err
	}
	return errors.New(clean)
}

// chunks calls fn on successive pieces of texts of at most n, gathering
// the results in order.
func chunks(texts []string, n int, fn func([]string) ([]string, error)) ([]string, error) {
	out := make([]string, 0, len(texts))
	for start := 0; start < len(texts); start += n {
		piece := texts[start:min(start+n, len(texts))]
		got, err := fn(piece)
		if err != nil {
			return nil, err
		}
		if len(got) != len(piece) {
			return nil, fmt.Errorf("unexpected number of translations: %d for %d strings", len(got), len(piece))
		}
		out = append(out, got...)
	}
	return out, nil
}

// joinURL appends path to base, one slash between.
func joinURL(base, path string) string {
	return strings.TrimRight(base, "/") + "/" + strings.TrimLeft(path, "/")
}
