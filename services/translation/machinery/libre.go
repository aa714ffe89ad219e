package machinery

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"
)

// libre is LibreTranslate: POST {url}/translate with the strings in "q"
// and the key in the body ("api_key", empty when none).
type libre struct {
	h        *httpClient
	base     string
	key      string
	maxBatch int
}

func newLibre(s Settings, h *httpClient) (Engine, error) {
	base := s.str("url", "")
	if base == "" {
		return nil, errors.New("libretranslate: url is required")
	}
	return &libre{h: h, base: base, key: s.str("key", ""), maxBatch: 50}, nil
}

func (*libre) ID() string    { return "libretranslate" }
func (*libre) Name() string  { return "LibreTranslate" }
func (*libre) MaxScore() int { return 89 }

// libreCode is a language as LibreTranslate names it: "pt-BR", "zh-Hans".
func libreCode(code string) string { return strings.ReplaceAll(code, "_", "-") }

func (e *libre) Translate(ctx context.Context, source, target string, texts []string) ([]string, error) {
	return chunks(texts, e.maxBatch, func(piece []string) ([]string, error) {
		body := map[string]any{"q": piece, "source": libreCode(source), "target": libreCode(target), "api_key": e.key, "format": "text"}
		var out struct {
			TranslatedText []string `json:"translatedText"`
		}
		err := e.h.do(ctx, request{method: http.MethodPost, url: joinURL(e.base, "translate"), body: body, timeout: 20 * time.Second}, &out)
		return out.TranslatedText, err
	})
}
