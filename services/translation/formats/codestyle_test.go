package formats_test

import (
	"testing"

	"github.com/tmsproject/tms/services/translation/formats"
)

// TestFileLanguageCode: each language code style writes codes as
// Weblate's get_language_code does, and an empty style is the format's.
func TestFileLanguageCode(t *testing.T) {
	tests := []struct{ format, style, code, want string }{
		{"po", "", "pt_BR", "pt_BR"},
		{"po", "posix", "pt-BR", "pt_BR"},
		{"po", "posix_lowercase", "pt_BR", "pt_br"},
		{"po", "bcp", "pt_BR", "pt-BR"},
		{"po", "bcp_lower", "zh_Hans", "zh-hans"},
		{"po", "posix_long", "de", "de_DE"},
		{"po", "posix_long", "pt_BR", "pt_BR"},
		{"po", "posix_long_lowercase", "cs", "cs_cz"},
		{"po", "bcp_long", "sv", "sv-SE"},
		{"po", "bcp_long_lower", "sv", "sv-se"},
		{"po", "linux", "sr_Latn", "sr"},
		{"po", "linux", "zh_Hant", "zh_TW"},
		{"po", "linux_lowercase", "zh_Hans", "zh_cn"},
		{"po", "android", "pt_BR", "pt-rBR"},
		{"po", "android", "sr_Latn", "b+sr+Latn"},
		{"po", "android", "he", "iw"},
		{"po", "android", "zh_Hans", "zh-rCN"},
		{"po", "bcp_legacy", "zh_Hant", "zh-TW"},
		{"po", "appstore", "de", "de-DE"},
		{"po", "appstore", "pt_BR", "pt-BR"},
		{"po", "googleplay", "nb_NO", "no-NO"},
		{"po", "googleplay", "zh_Hans", "zh-CN"},
		{"aresource", "", "pt_BR", "pt-rBR"},
		{"xliff", "", "pt_BR", "pt-BR"},
		{"strings", "", "zh_Hans", "zh-Hans"},
		{"properties", "", "sr_Cyrl", "sr@cyrillic"},
		{"properties", "posix", "sr_Cyrl", "sr_Cyrl"},
		{"json", "", "de@formal", "de@formal"},
		{"json", "no-such-style", "pt_BR", "pt_BR"},
	}
	for _, tc := range tests {
		if got := formats.FileLanguageCode(tc.format, tc.style, tc.code); got != tc.want {
			t.Errorf("%s %q %s: %q, want %q", tc.format, tc.style, tc.code, got, tc.want)
		}
	}
}
