package e2e

import (
	"strings"
	"testing"
)

// rubyYAMLFixture is a Rails application's config/locales: an English
// template with comments, nested keys, a plural, quoted strings with
// escapes and a literal block; a German translation with its own
// comments; a partial Czech one whose plural has one/few/many/other.
var rubyYAMLFixture = map[string][]byte{
	"config/locales/en.yml": []byte(`# Shop strings
en:
  # Title of the shop
  title: My Shop
  greeting: "Hello, %{name}!\nWelcome back."
  quote: 'It''s "here"'
  cart:
    items:
      one: "%{count} item"
      other: "%{count} items"
    empty: Your cart is empty
  footer: |
    Thanks for shopping.
    See you soon!
`),
	"config/locales/de.yml": []byte(`de:
  # Titel des Ladens
  title: Mein Laden
  greeting: "Hallo, %{name}!\nWillkommen zurück."
  quote: 'Es ist „hier“'
  cart:
    items:
      one: "%{count} Artikel"
      other: "%{count} Artikel"
    empty: Dein Warenkorb ist leer
  footer: |
    Danke für deinen Einkauf.
    Bis bald!
`),
	"config/locales/cs.yml": []byte(`cs:
  title: Můj obchod
  cart:
    items:
      one: "%{count} položka"
      few: "%{count} položky"
      many: "%{count} položky"
      other: "%{count} položek"
`),
}

// TestRubyYAMLComponent imports a Rails locale component through the
// REST API and checks statistics, units, a no-op commit, edits of a
// string and of a plural, a new language and an upload.
func TestRubyYAMLComponent(t *testing.T) {
	const dir = "config/locales/"
	base, repo := startFormatComponent(t, rubyYAMLFixture, map[string]any{"filemask": dir + "*.yml",
		"template": dir + "en.yml", "new_base": dir + "en.yml", "file_format": "ruby-yaml"}, "cs", 6)

	// Statistics: 6 strings (the plural once) of 22 words (both of its
	// forms count).
	expectStats(t, base, map[string][3]float64{"en": {6, 22, 6}, "de": {6, 22, 6}, "cs": {6, 22, 2}})
	de := unitsByKey(t, base, "de")
	expectUnitTexts(t, de, map[string][3]string{
		"title":       {"My Shop", "Mein Laden", "Title of the shop\nTitel des Ladens"},
		"greeting":    {"Hello, %{name}!\nWelcome back.", "Hallo, %{name}!\nWillkommen zurück.", ""},
		"quote":       {`It's "here"`, "Es ist „hier“", ""},
		"cart->items": {"%{count} item|%{count} items", "%{count} Artikel|%{count} Artikel", ""},
		"cart->empty": {"Your cart is empty", "Dein Warenkorb ist leer", ""},
		"footer":      {"Thanks for shopping.\nSee you soon!\n", "Danke für deinen Einkauf.\nBis bald!\n", ""},
	})
	cs := unitsByKey(t, base, "cs")
	if got := join(cs["cart->items"]["target"]); got != "%{count} položka|%{count} položky|%{count} položek" {
		t.Errorf("cs plural = %q", got)
	}

	expectNoChange(t, base, repo, rubyYAMLFixture)

	// An edit rewrites its value only, quoted as ruamel.yaml writes it.
	editUnit(t, base, de["cart->empty"], "Warenkorb: leer")
	expectFile(t, base, repo, dir+"de.yml", strings.Replace(string(rubyYAMLFixture[dir+"de.yml"]),
		"empty: Dein Warenkorb ist leer\n", "empty: 'Warenkorb: leer'\n", 1))
	// A plural is written anew with the language's categories, as
	// translate-toolkit writes it.
	editUnit(t, base, cs["cart->items"], "%{count} položka", "%{count} položky", "%{count} položek!")
	csWant := `cs:
  title: Můj obchod
  cart:
    items:
      one: '%{count} položka'
      few: '%{count} položky'
      other: '%{count} položek!'
`
	expectFile(t, base, repo, dir+"cs.yml", csWant)

	// A new language starts from the template: its code as the root key,
	// every value empty.
	call(t, "POST", base+"components/demo/app/translations/", map[string]any{"language_code": "pl"}, 201)
	expectFile(t, base, repo, dir+"pl.yml", `# Shop strings
pl:
  # Title of the shop
  title: ''
  greeting: ""
  quote: ''
  cart:
    items:
      one: ''
      few: ''
      many: ''
    empty: ''
  footer: |
`)
	if tr := call(t, "GET", base+"translations/demo/app/pl/", nil, 200); tr["total"] != float64(6) || tr["translated"] != float64(0) {
		t.Errorf("pl: %v strings, %v translated", tr["total"], tr["translated"])
	}

	// An uploaded file is applied by key; the key the file lacked is
	// added to its mapping.
	if out := uploadFile(t, base+"translations/demo/app/cs/file/", "cs.yml",
		"cs:\n  cart:\n    empty: Košík je prázdný\n  unknown: x\n"); out["accepted"] != float64(1) || out["not_found"] != float64(1) {
		t.Errorf("upload: %v", out)
	}
	if got := join(unitsByKey(t, base, "cs")["cart->empty"]["target"]); got != "Košík je prázdný" {
		t.Errorf("uploaded target = %q", got)
	}
	expectFile(t, base, repo, dir+"cs.yml", csWant+"    empty: Košík je prázdný\n")
}

// yamlFixture is a plain YAML component: nested keys, a list, an
// integer key, a flow sequence and a folded block.
var yamlFixture = map[string][]byte{
	"i18n/en.yaml": []byte(`site:
  name: Example
  # Under the name
  tagline: >
    Everything you need.
errors:
  404: Not found
menu: [Home, About us]
`),
	"i18n/de.yaml": []byte(`site:
  name: Beispiel
  tagline: >
    Alles, was du brauchst.
errors:
  404: Nicht gefunden
menu: [Start, Über uns]
`),
}

// TestYAMLComponent imports a plain YAML component and checks its keys,
// an edit inside a flow sequence, a no-op commit and a new language.
func TestYAMLComponent(t *testing.T) {
	base, repo := startFormatComponent(t, yamlFixture, map[string]any{"filemask": "i18n/*.yaml",
		"template": "i18n/en.yaml", "new_base": "i18n/en.yaml", "file_format": "yaml"}, "de", 5)

	expectStats(t, base, map[string][3]float64{"en": {5, 9, 5}, "de": {5, 9, 5}})
	de := unitsByKey(t, base, "de")
	expectUnitTexts(t, de, map[string][3]string{
		"site->name":    {"Example", "Beispiel", ""},
		"site->tagline": {"Everything you need.\n", "Alles, was du brauchst.\n", "Under the name\n"},
		"errors->404":   {"Not found", "Nicht gefunden", ""},
		"menu->[0]":     {"Home", "Start", ""},
		"menu->[1]":     {"About us", "Über uns", ""},
	})

	expectNoChange(t, base, repo, yamlFixture)

	editUnit(t, base, de["menu->[1]"], "Über, uns")
	expectFile(t, base, repo, "i18n/de.yaml", strings.Replace(string(yamlFixture["i18n/de.yaml"]),
		"menu: [Start, Über uns]", "menu: [Start, 'Über, uns']", 1))

	call(t, "POST", base+"components/demo/app/translations/", map[string]any{"language_code": "fr"}, 201)
	expectFile(t, base, repo, "i18n/fr.yaml", `site:
  name: ''
  # Under the name
  tagline: >
errors:
  404: ''
menu: ['', '']
`)
}
