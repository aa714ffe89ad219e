package machinery

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"
)

// deepl is DeepL's API v2: POST {base}/v2/translate with the texts in
// "text", authorized by "DeepL-Auth-Key <key>"; a free key (":fx") uses
// api-free.deepl.com.
type deepl struct {
	h                  *httpClient
	base, key          string
	formality, context string
}

func newDeepL(s Settings, h *httpClient) (Engine, error) {
	key := s.str("key", "")
	base := s.str("url", "https://api.deepl.com/")
	if u, err := url.Parse(base); err == nil {
		if strings.HasSuffix(key, ":fx") && u.Host == "api.deepl.com" {
			u.Host = "api-free.deepl.com"
		}
		u.Path = versionSuffix.ReplaceAllString(strings.TrimRight(u.Path, "/"), "")
		base = u.String()
	}
	return &deepl{h: h, base: base, key: key, formality: s.str("formality", "default"), context: s.str("context", "")}, nil
}

// versionSuffix is an API version ending a configured URL ("…/v2").
var versionSuffix = regexp.MustCompile(`/v\d+$`)

func (*deepl) ID() string    { return "deepl" }
func (*deepl) Name() string  { return "DeepL" }
func (*deepl) MaxScore() int { return 91 }

// deeplCode is a language as DeepL names it: upper-case, "PT-BR"; a
// source has no region ("EN").
func deeplCode(code string, source bool) string {
	c := strings.ToUpper(strings.ReplaceAll(code, "_", "-"))
	if source {
		c, _, _ = strings.Cut(c, "-")
	}
	return c
}

// deeplBatch is DeepL's limit of texts per request.
const deeplBatch = 50

func (e *deepl) Translate(ctx context.Context, source, target string, texts []string) ([]string, error) {
	return chunks(texts, deeplBatch, func(piece []string) ([]string, error) {
		body := map[string]any{"text": piece, "source_lang": deeplCode(source, true), "target_lang": deeplCode(target, false)}
		if e.formality != "" && e.formality != "default" {
			body["formality"] = e.formality
		}
		if e.context != "" {
			body["context"] = e.context
		}
		var out struct {
			Translations []struct {
				Text string `json:"text"`
			} `json:"translations"`
		}
		err := e.h.do(ctx, request{method: http.MethodPost, url: joinURL(e.base, "v2/translate"), body: body, timeout: 20 * time.Second,
			header: http.Header{"Authorization": {"DeepL-Auth-Key " + e.key}}}, &out)
		texts := make([]string, len(out.Translations))
		for i, t := range out.Translations {
			texts[i] = t.Text
		}
		return texts, err
	})
}
