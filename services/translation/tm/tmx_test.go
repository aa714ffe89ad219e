package tm

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestTMXRoundTrip: what the writer writes the reader reads back, text
// needing escapes and line breaks included.
func TestTMXRoundTrip(t *testing.T) {
	pairs := []Pair{
		{SourceLanguage: "en", TargetLanguage: "pt_BR", Source: "Save <b>&</b> quit", Target: "Salvar <b>&</b> sair", Context: "menu.save"},
		{SourceLanguage: "en", TargetLanguage: "cs", Source: "Two\nlines", Target: "Dva\nřádky"},
	}
	var buf bytes.Buffer
	w := NewWriter(&buf, "en", "tms")
	for _, p := range pairs {
		if err := w.Write(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `xml:lang="pt-BR"`) {
		t.Errorf("languages are not BCP 47:\n%s", buf.String())
	}
	got := readAll(t, buf.String())
	if len(got) != 2 || got[0] != pairs[0] || got[1] != pairs[1] {
		t.Errorf("read back %+v", got)
	}
}

// TestTMXReader: the files users bring, and the broken ones.
func TestTMXReader(t *testing.T) {
	const multi = `<tmx version="1.4"><header srclang="en-US" datatype="plaintext"/><body>
<tu><tuv xml:lang="EN-us"><seg>Hello <ph>%s</ph></seg></tuv><tuv xml:lang="de-DE"><seg>Hallo <ph>%s</ph></seg></tuv><tuv xml:lang="fr"><seg></seg></tuv></tu>
<tu><tuv xml:lang="de"><seg>ohne Quelle</seg></tuv></tu>
</body></tmx>`
	got := readAll(t, multi)
	want := Pair{SourceLanguage: "en_US", TargetLanguage: "de_DE", Source: "Hello %s", Target: "Hallo %s"}
	if len(got) != 1 || got[0] != want {
		t.Errorf("read %+v, want only %+v", got, want)
	}
	bad := []struct {
		name, file string
		want       error
	}{
		{"no header", `<tmx><body><tu/></body></tmx>`, ErrNoHeader},
		{"no source language", `<tmx><header/><body/></tmx>`, ErrNoSourceLang},
		{"truncated", `<tmx><header srclang="en"/><body><tu><tuv xml:lang="en"><seg>x`, nil},
	}
	for _, b := range bad {
		_, err := NewReader(strings.NewReader(b.file)).Next()
		if err == nil || errors.Is(err, io.EOF) || b.want != nil && !errors.Is(err, b.want) {
			t.Errorf("%s: %v, want %v", b.name, err, b.want)
		}
	}
}

func readAll(t *testing.T, file string) []Pair {
	t.Helper()
	r := NewReader(strings.NewReader(file))
	var out []Pair
	for {
		p, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
}

func TestNormalizeLanguage(t *testing.T) {
	for in, want := range map[string]string{"pt-BR": "pt_BR", "EN": "en", "zh-hans": "zh_Hans", "es-419": "es_419", "sr_Latn_RS": "sr_Latn_RS"} {
		if got := NormalizeLanguage(in); got != want {
			t.Errorf("NormalizeLanguage(%q) = %q, want %q", in, got, want)
		}
	}
}
