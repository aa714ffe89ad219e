package machinery

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// modernmt is ModernMT: GET {url}/translate?q=…&source=…&target=… with
// the key in MMT-ApiKey, one text per request, as the reference calls it.
type modernmt struct {
	h         *httpClient
	base, key string
}

func newModernMT(s Settings, h *httpClient) (Engine, error) {
	return &modernmt{h: h, base: s.str("url", "https://api.modernmt.com/"), key: s.str("key", "")}, nil
}

func (*modernmt) ID() string    { return "modernmt" }
func (*modernmt) Name() string  { return "ModernMT" }
func (*modernmt) MaxScore() int { return 90 }

// modernmtCodes are the reference's renames; other codes take "-" and
// lose a variant.
var modernmtCodes = map[string]string{"fa": "pes", "pt": "pt-PT", "sr": "sr-Cyrl", "zh_Hant": "zh-TW", "zh_Hans": "zh-CN"}

func modernmtCode(code string) string {
	if c, ok := modernmtCodes[code]; ok {
		return c
	}
	code, _, _ = strings.Cut(code, "@")
	return strings.ReplaceAll(code, "_", "-")
}

func (e *modernmt) Translate(ctx context.Context, source, target string, texts []string) ([]string, error) {
	header := http.Header{"MMT-ApiKey": {e.key}, "MMT-Platform": {"tms"}, "MMT-PlatformVersion": {"1"}}
	return chunks(texts, 1, func(piece []string) ([]string, error) {
		q := url.Values{"q": {piece[0]}, "source": {modernmtCode(source)}, "target": {modernmtCode(target)}}
		var out struct {
			Data struct {
				Translation string `json:"translation"`
			} `json:"data"`
		}
		err := e.h.do(ctx, request{method: http.MethodGet, url: joinURL(e.base, "translate") + "?" + q.Encode(),
			header: header, timeout: 20 * time.Second}, &out)
		return []string{out.Data.Translation}, err
	})
}
