package machinery

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
)

// fake is an engine's server for a test: it checks each request with
// check (failing the test on a wrong one) and answers what answer gives.
type fake struct {
	t      *testing.T
	check  func(r *http.Request, body []byte) string // "" when right, else what is wrong
	answer func(r *http.Request, body []byte) (int, any)
	calls  atomic.Int32
}

func (f *fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.calls.Add(1)
	body, _ := io.ReadAll(r.Body)
	if problem := f.check(r, body); problem != "" {
		f.t.Errorf("%s %s: %s (body %s)", r.Method, r.URL, problem, body)
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	status, out := f.answer(r, body)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(out)
}

// redirect sends every request to the fake server, whatever its host: the
// engines whose hosts are fixed (Google, Microsoft) reach it so.
type redirect struct{ to *url.URL }

func (rt redirect) RoundTrip(r *http.Request) (*http.Response, error) {
	r2 := r.Clone(r.Context())
	r2.URL.Scheme, r2.URL.Host = rt.to.Scheme, rt.to.Host
	r2.Host = rt.to.Host
	return http.DefaultTransport.RoundTrip(r2)
}

func decode(body []byte) map[string]any {
	var v map[string]any
	_ = json.Unmarshal(body, &v)
	return v
}

// TestEngines: each engine sends its real request, with its credential
// where the engine's API wants it, and reads its real answer.
func TestEngines(t *testing.T) {
	const key = "sekrit-key-123"
	cases := []struct {
		id       string
		settings func(base string) Settings
		check    func(r *http.Request, body []byte) string
		answer   func(r *http.Request, body []byte) (int, any)
	}{
		{"libretranslate", func(base string) Settings { return Settings{"url": base + "/", "key": key} },
			func(r *http.Request, body []byte) string {
				b := decode(body)
				if r.URL.Path != "/translate" || b["api_key"] != key || b["source"] != "en" || b["target"] != "pt-BR" || len(b["q"].([]any)) != 2 {
					return "not LibreTranslate's /translate"
				}
				return ""
			},
			func(*http.Request, []byte) (int, any) {
				return 200, map[string]any{"translatedText": []string{"Olá", "Mundo"}}
			}},
		{"deepl", func(base string) Settings { return Settings{"url": base + "/v2/", "key": key, "formality": "less"} },
			func(r *http.Request, body []byte) string {
				b := decode(body)
				if r.URL.Path != "/v2/translate" || r.Header.Get("Authorization") != "DeepL-Auth-Key "+key ||
					b["source_lang"] != "EN" || b["target_lang"] != "PT-BR" || b["formality"] != "less" || len(b["text"].([]any)) != 2 {
					return "not DeepL's /v2/translate"
				}
				return ""
			},
			func(*http.Request, []byte) (int, any) {
				return 200, map[string]any{"translations": []map[string]string{{"detected_source_language": "EN", "text": "Olá"}, {"text": "Mundo"}}}
			}},
		{"microsoft-translator", func(string) Settings { return Settings{"key": key, "region": "westeurope"} },
			func(r *http.Request, body []byte) string {
				var items []map[string]string
				_ = json.Unmarshal(body, &items)
				q := r.URL.Query()
				if r.URL.Path != "/translate" || q.Get("api-version") != "3.0" || q.Get("from") != "en" || q.Get("to") != "pt" ||
					r.Header.Get("Ocp-Apim-Subscription-Key") != key || r.Header.Get("Ocp-Apim-Subscription-Region") != "westeurope" ||
					len(items) != 2 || items[0]["Text"] != "Hello" {
					return "not Azure AI Translator's /translate"
				}
				return ""
			},
			func(*http.Request, []byte) (int, any) {
				return 200, []any{map[string]any{"translations": []map[string]string{{"text": "Olá", "to": "pt"}}},
					map[string]any{"translations": []map[string]string{{"text": "Mundo", "to": "pt"}}}}
			}},
		{"modernmt", func(base string) Settings { return Settings{"url": base, "key": key} },
			func(r *http.Request, _ []byte) string {
				q := r.URL.Query()
				if r.Method != "GET" || r.URL.Path != "/translate" || r.Header.Get("MMT-ApiKey") != key || q.Get("source") != "en" ||
					q.Get("target") != "pt-BR" || q.Get("q") == "" {
					return "not ModernMT's /translate"
				}
				return ""
			},
			func(r *http.Request, _ []byte) (int, any) {
				out := map[string]string{"Hello": "Olá", "World": "Mundo"}[r.URL.Query().Get("q")]
				return 200, map[string]any{"status": 200, "data": map[string]any{"translation": out}}
			}},
		{"openai", func(base string) Settings { return Settings{"base_url": base + "/v1", "key": key, "model": "llama3"} },
			func(r *http.Request, body []byte) string {
				b := decode(body)
				msgs, _ := b["messages"].([]any)
				if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer "+key || b["model"] != "llama3" || len(msgs) != 2 {
					return "not a chat completion"
				}
				var req struct {
					Strings []string `json:"strings"`
				}
				if json.Unmarshal([]byte(msgs[1].(map[string]any)["content"].(string)), &req) != nil || len(req.Strings) != 2 {
					return "the user message is not the JSON request"
				}
				return ""
			},
			func(*http.Request, []byte) (int, any) {
				return 200, map[string]any{"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
					"message": map[string]any{"role": "assistant", "content": "```json\n[\"Olá\", \"Mundo\"]\n```"}}}}
			}},
		googleCase(t),
	}
	for _, c := range cases {
		t.Run(c.id, func(t *testing.T) {
			f := &fake{t: t, check: c.check, answer: c.answer}
			srv := httptest.NewServer(f)
			defer srv.Close()
			to, _ := url.Parse(srv.URL)
			client := &http.Client{Transport: redirect{to: to}}
			e, err := New(c.id, c.settings(srv.URL), Options{Client: client})
			if err != nil {
				t.Fatal(err)
			}
			got, err := e.Translate(t.Context(), "en", "pt_BR", []string{"Hello", "World"})
			if err != nil || len(got) != 2 || got[0] != "Olá" || got[1] != "Mundo" {
				t.Fatalf("Translate = %q, %v", got, err)
			}
		})
	}
}

// googleCase is Cloud Translation v3: a token from the credentials'
// token_uri (an RS256 JWT bearer grant), then translateText with it.
func googleCase(t *testing.T) struct {
	id       string
	settings func(base string) Settings
	check    func(r *http.Request, body []byte) string
	answer   func(r *http.Request, body []byte) (int, any)
} {
	pk, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalPKCS8PrivateKey(pk)
	pemKey := string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
	return struct {
		id       string
		settings func(base string) Settings
		check    func(r *http.Request, body []byte) string
		answer   func(r *http.Request, body []byte) (int, any)
	}{"google-translate-api-v3",
		func(base string) Settings {
			creds, _ := json.Marshal(map[string]string{"type": "service_account", "client_email": "tms@p.iam.gserviceaccount.com",
				"private_key": pemKey, "private_key_id": "k1", "token_uri": base + "/token"})
			return Settings{"credentials": string(creds), "project": "p1", "location": "global"}
		},
		func(r *http.Request, body []byte) string {
			if r.URL.Path == "/token" {
				form, _ := url.ParseQuery(string(body))
				parts := strings.Split(form.Get("assertion"), ".")
				if form.Get("grant_type") != "urn:ietf:params:oauth:grant-type:jwt-bearer" || len(parts) != 3 {
					return "not a JWT bearer grant"
				}
				return ""
			}
			b := decode(body)
			if r.URL.Path != "/v3/projects/p1/locations/global:translateText" || r.Header.Get("Authorization") != "Bearer tok-1" ||
				b["sourceLanguageCode"] != "en" || b["targetLanguageCode"] != "pt-BR" || len(b["contents"].([]any)) != 2 {
				return "not translateText with the token"
			}
			return ""
		},
		func(r *http.Request, _ []byte) (int, any) {
			if r.URL.Path == "/token" {
				return 200, map[string]any{"access_token": "tok-1", "expires_in": 3599, "token_type": "Bearer"}
			}
			return 200, map[string]any{"translations": []map[string]string{{"translatedText": "Olá"}, {"translatedText": "Mundo"}}}
		}}
}

// TestEngineFailures: a refusal carries the engine's message and never
// the key; 429 is retried, honouring Retry-After, before giving up.
func TestEngineFailures(t *testing.T) {
	const key = "sekrit-key-456"
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if strings.Contains(r.URL.Path, "forbidden") {
			w.WriteHeader(http.StatusForbidden)
			_, _ = io.WriteString(w, `{"error": "Invalid API key: `+key+`"}`)
			return
		}
		switch calls.Add(1) {
		case 1:
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = io.WriteString(w, `{"error": "Slowdown"}`)
		default:
			_, _ = io.WriteString(w, `{"translatedText": ["Hallo"]}`)
		}
	}))
	defer srv.Close()
	e, _ := New("libretranslate", Settings{"url": srv.URL + "/forbidden", "key": key}, Options{Client: srv.Client()})
	_, err := e.Translate(t.Context(), "en", "de", []string{"Hello"})
	if err == nil || strings.Contains(err.Error(), key) || !strings.Contains(err.Error(), "Invalid API key") {
		t.Errorf("refusal: %v", err)
	}
	e, _ = New("libretranslate", Settings{"url": srv.URL, "key": key}, Options{Client: srv.Client()})
	got, err := e.Translate(t.Context(), "en", "de", []string{"Hello"})
	if err != nil || got[0] != "Hallo" || calls.Load() != 2 {
		t.Errorf("after a 429: %q %v (%d calls)", got, err, calls.Load())
	}
}

// TestLocalAddressRefused: without AllowLocal, the default client does
// not reach a loopback server.
func TestLocalAddressRefused(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, `{"translatedText": ["x"]}`)
	}))
	defer srv.Close()
	e, _ := New("libretranslate", Settings{"url": srv.URL}, Options{})
	if _, err := e.Translate(t.Context(), "en", "de", []string{"Hello"}); err == nil {
		t.Error("a loopback engine was reached")
	}
	e, _ = New("libretranslate", Settings{"url": srv.URL}, Options{AllowLocal: true})
	if _, err := e.Translate(t.Context(), "en", "de", []string{"Hello"}); err != nil {
		t.Errorf("allowed: %v", err)
	}
}

func TestParseTranslations(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{`["a","b"]`, 2, "[a b]"},
		{"```json\n[\"a\"]\n```", 1, "[a]"},
		{`[{"text":"a"},{"translation":"b"}]`, 2, "[a b]"},
		{`plain`, 1, "[plain]"},
	} {
		got, err := parseTranslations(c.in, c.n)
		if err != nil || strings.Join(got, " ") != strings.Trim(c.want, "[]") {
			t.Errorf("parseTranslations(%q) = %q, %v", c.in, got, err)
		}
	}
	if _, err := parseTranslations(`["a"]`, 2); err == nil {
		t.Error("a short answer was taken")
	}
}
