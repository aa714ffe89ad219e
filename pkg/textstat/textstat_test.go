package textstat

import (
	"strings"
	"testing"
)

func TestSipHash24ReferenceVectors(t *testing.T) {
	var key [16]byte
	for i := range key {
		key[i] = byte(i)
	}
	msg := make([]byte, 64)
	for i := range msg {
		msg[i] = byte(i)
	}
	for n, want := range sipVectors {
		if got := SipHash24(key, msg[:n]); got != want {
			t.Errorf("length %d: got %#016x, want %#016x", n, got, want)
		}
	}
}

// Expectations from Weblate's weblate/utils/tests/test_hash.py.
func TestHashMatchesWeblate(t *testing.T) {
	tests := []struct {
		name  string
		parts []string
		want  int64
	}{
		{"plain", []string{"Message"}, 8445691827737211251},
		{"context first", []string{"Context", "Message"}, -1602104568316855346},
		{"unicode", []string{"Příšerně žluťoučký kůň úpěl ďábelské ódy"}, -4296353750398394478},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Hash(tt.parts...); got != tt.want {
				t.Errorf("Hash(%q) = %d, want %d", tt.parts, got, tt.want)
			}
		})
	}
}

func TestChecksum(t *testing.T) {
	h := Hash("Message")
	if got := Checksum(h); got != "f5351ff85ab23173" {
		t.Fatalf("Checksum = %s, want f5351ff85ab23173", got)
	}
}

func TestUnitHashes(t *testing.T) {
	// Bilingual: source then context, plural forms joined with "\x1e\x1e".
	if got, want := IDHash([]string{"Message"}, "Context"), Hash("MessageContext"); got != want {
		t.Errorf("IDHash = %d, want %d", got, want)
	}
	plural := []string{"%d file", "%d files"}
	if got, want := IDHash(plural, ""), Hash("%d file\x1e\x1e%d files"); got != want {
		t.Errorf("plural IDHash = %d, want %d", got, want)
	}
	if IDHash(plural, "") == IDHash([]string{"%d file%d files"}, "") {
		t.Error("plural separator did not enter the hash")
	}
	if got, want := ContentHash(plural, "ctx"), IDHash(plural, "ctx"); got != want {
		t.Errorf("bilingual ContentHash %d != IDHash %d", got, want)
	}
	if got := IDHash([]string{"Message"}, ""); got != 8445691827737211251 {
		t.Errorf("IDHash without context = %d", got)
	}
}

func TestWords(t *testing.T) {
	tests := []struct {
		name  string
		parts []string
		cjk   bool
		want  int
	}{
		{"empty", nil, false, 0},
		{"empty form", []string{""}, false, 0},
		{"simple", []string{"Hello world"}, false, 2},
		{"blanks around", []string{"  Hello \t world\n"}, false, 2},
		{"plural forms add up", []string{"%d file", "%d files were deleted"}, false, 6},
		{"no-break space separates", []string{"a\u00a0b"}, false, 2},
		{"ideographic space separates", []string{"a\u3000b"}, false, 2},
		{"file separator separates", []string{"a\u001cb\u001dc\u001ee\u001ff"}, false, 5},
		{"next line separates", []string{"a\u0085b"}, false, 2},
		{"en quad to hair space", []string{"a\u2000b\u200ac"}, false, 3},
		{"line and paragraph separator", []string{"a\u2028b\u2029c"}, false, 3},
		{"narrow nbsp and math space", []string{"a\u202fb\u205fc\u1680d"}, false, 4},
		{"zero width space does not", []string{"a\u200bb"}, false, 1},
		{"punctuation is part of words", []string{"Hello, world!"}, false, 2},
		{"CJK without flag is one word", []string{"你好世界"}, false, 1},
		{"CJK characters", []string{"你好世界"}, true, 4},
		{"mixed CJK and latin", []string{"使用Weblate翻译 the app"}, true, 7},
		{"kana and hangul", []string{"ひらがな 한국어"}, true, 7},
		{"ideographic space is a CJK char", []string{"a\u3000b"}, true, 3},
		{"fullwidth forms", []string{"ＡＢ"}, true, 2},
		{"CJK punctuation", []string{"你好。"}, true, 3},
		{"plane 2 ideograph", []string{"𠀀x"}, true, 2},
		{"unused singular skipped", []string{"<unused singular (hash=abc)>", "%d files"}, false, 2},
		{"latin with cjk flag", []string{"Hello world"}, true, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Words(tt.parts, tt.cjk); got != tt.want {
				t.Errorf("Words(%q, %v) = %d, want %d", tt.parts, tt.cjk, got, tt.want)
			}
		})
	}
}

func TestIsCJK(t *testing.T) {
	tests := map[string]bool{
		"ja": true, "zh_Hans": true, "zh-Hant": true, "ko": true, "zh_CN": true, "ja@x": true,
		"en": false, "jam": false, "kok": false, "": false, "vi": false,
	}
	for code, want := range tests {
		if got := IsCJK(code); got != want {
			t.Errorf("IsCJK(%q) = %v, want %v", code, got, want)
		}
	}
}

func TestChars(t *testing.T) {
	tests := []struct {
		parts []string
		want  int
	}{
		{nil, 0},
		{[]string{""}, 0},
		{[]string{"abc"}, 3},
		{[]string{"žluť"}, 4},
		{[]string{"你好"}, 2},
		{[]string{"a", "bc"}, 5},
		{[]string{"", "", ""}, 4},
	}
	for _, tt := range tests {
		if got := Chars(tt.parts); got != tt.want {
			t.Errorf("Chars(%q) = %d, want %d", tt.parts, got, tt.want)
		}
		if got := len([]rune(strings.Join(tt.parts, PluralSeparator))); got != tt.want {
			t.Errorf("test table wrong for %q", tt.parts)
		}
	}
}

func TestPercent(t *testing.T) {
	tests := []struct {
		n, total int64
		want     float64
	}{
		{0, 0, 0},
		{5, 0, 0},
		{0, 10, 0},
		{1, 10000, 0.1},
		{1, 3, 33.3},
		{2, 3, 66.6},
		{1, 2, 50},
		{3, 3, 100},
		{999, 1000, 99.9},
		{9999, 10000, 99.9},
		{1, 1000, 0.1},
		{7, 1000, 0.7},
	}
	for _, tt := range tests {
		if got := Percent(tt.n, tt.total); got != tt.want {
			t.Errorf("Percent(%d, %d) = %v, want %v", tt.n, tt.total, got, tt.want)
		}
	}
}
