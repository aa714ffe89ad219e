package server

import (
	"errors"
	"testing"

	"github.com/tmsproject/tms/pkg/errs"
)

func TestValidateMachinery(t *testing.T) {
	cases := []struct {
		name    string
		service string
		cfg     map[string]any
		field   string // "" = valid
	}{
		{"deepl with key", "deepl", map[string]any{"key": "k", "url": "https://api.deepl.com/v2/"}, ""},
		{"deepl without key", "deepl", map[string]any{"url": "https://api.deepl.com/v2/"}, "configuration.key"},
		{"blank key", "deepl", map[string]any{"key": ""}, "configuration.key"},
		{"key not a string", "deepl", map[string]any{"key": 42.0}, "configuration.key"},
		{"bad formality", "deepl", map[string]any{"key": "k", "formality": "rude"}, "configuration.formality"},
		{"unknown setting", "google-translate", map[string]any{"key": "k", "proxy": "x"}, "configuration.proxy"},
		{"url scheme", "libretranslate", map[string]any{"url": "file:///etc/passwd"}, "configuration.url"},
		{"url without host", "libretranslate", map[string]any{"url": "https://"}, "configuration.url"},
		{"libretranslate keyless", "libretranslate", map[string]any{"url": "https://lt.example/"}, ""},
		{"nothing to configure", "weblate", map[string]any{}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := validateMachinery(machineryServices[c.service], c.cfg)
			if c.field == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var e *errs.Error
			if !errors.As(err, &e) || len(e.Fields) == 0 || e.Fields[0].Field != c.field {
				t.Fatalf("got %v, want a violation of %s", err, c.field)
			}
		})
	}
}
