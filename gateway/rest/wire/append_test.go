package wire

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// TestAppendStringAgrees holds AppendString to encoding/json's bytes (no
// HTML escaping) for strings of every kind of character, and random ones.
func TestAppendStringAgrees(t *testing.T) {
	cases := []string{"", "plain", `quote " and \ backslash`, "tab\tnew\nline\rcr\bbs\fff", "\x00\x01\x1f\x7f",
		"<b>&amp;</b>", "Příliš žluťoučký kůň", "日本語", "emoji 🎉", "sep\u2028and\u2029", "bad \xff\xfe utf-8 \xc3",
		"truncated \xe2\x82", "\u00a0nbsp", "\ufffd replacement"}
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("a\"\\\n\x01\x7f\xc3\xa9\xe2\x80\xa8\xff<>&")
	for range 2000 {
		b := make([]byte, rng.IntN(12))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		cases = append(cases, string(b))
	}
	for _, s := range cases {
		want, err := marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendString(nil, s); string(got) != string(want) {
			t.Errorf("AppendString(%q) = %s, encoding/json: %s", s, got, want)
		}
		if !json.Valid(AppendString(nil, s)) {
			t.Errorf("AppendString(%q) is not valid JSON", s)
		}
	}
}
