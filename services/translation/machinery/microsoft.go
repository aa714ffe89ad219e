package machinery

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// microsoft is Azure AI Translator v3: POST https://{base_url}/translate
// with the texts as [{"Text": …}], authorized by the resource key (and its
// region, for a regional resource) in the Ocp-Apim-Subscription-* headers.
type microsoft struct {
	h           *httpClient
	base        string
	key, region string
}

func newMicrosoft(s Settings, h *httpClient) (Engine, error) {
	base := s.str("base_url", "api.cognitive.microsofttranslator.com")
	if !strings.Contains(base, "://") {
		base = "https://" + base
	}
	return &microsoft{h: h, base: base, key: s.str("key", ""), region: s.str("region", "")}, nil
}

func (*microsoft) ID() string    { return "microsoft-translator" }
func (*microsoft) Name() string  { return "Azure AI Translator" }
func (*microsoft) MaxScore() int { return 90 }

// microsoftCodes are the reference's renames; other codes take "-" and a
// lower-case two-letter region ("fr-ca").
var microsoftCodes = map[string]string{"zh_TW": "zh-Hant", "zh_CN": "zh-Hans", "zh_Hant": "zh-Hant", "zh_Hans": "zh-Hans",
	"pt_BR": "pt", "sr": "sr-Cyrl", "mn": "mn-Cyrl", "tlh": "tlh-Latn"}

func microsoftCode(code string) string {
	if c, ok := microsoftCodes[code]; ok {
		return c
	}
	lang, region, ok := strings.Cut(code, "_")
	if !ok {
		return code
	}
	if len(region) == 2 {
		region = strings.ToLower(region)
	}
	return lang + "-" + region
}

// microsoftBatch is the API's limit of texts per request.
const microsoftBatch = 100

func (e *microsoft) Translate(ctx context.Context, source, target string, texts []string) ([]string, error) {
	q := url.Values{"api-version": {"3.0"}, "from": {microsoftCode(source)}, "to": {microsoftCode(target)}}
	header := http.Header{"Ocp-Apim-Subscription-Key": {e.key}}
	if e.region != "" {
		header.Set("Ocp-Apim-Subscription-Region", e.region)
	}
	return chunks(texts, microsoftBatch, func(piece []string) ([]string, error) {
		body := make([]map[string]string, len(piece))
		for i, t := range piece {
			body[i] = map[string]string{"Text": t}
		}
		var out []struct {
			Translations []struct {
				Text string `json:"text"`
			} `json:"translations"`
		}
		err := e.h.do(ctx, request{method: http.MethodPost, url: joinURL(e.base, "translate") + "?" + q.Encode(), body: body,
			header: header, timeout: 20 * time.Second}, &out)
		res := make([]string, len(out))
		for i, o := range out {
			if len(o.Translations) > 0 {
				res[i] = o.Translations[0].Text
			}
		}
		return res, err
	})
}
