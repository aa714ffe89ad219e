package e2e

import (
	"strings"
	"testing"
)

// arbFixture is a Flutter app's lib/l10n: an English template with the
// @@locale header, descriptions, placeholders, an ICU plural, escapes and
// an integer value; a German translation with another indentation and a
// Russian one with the ICU plural of its four categories.
var arbFixture = map[string][]byte{
	"lib/l10n/app_en.arb": []byte(`{
  "@@locale": "en",
  "appTitle": "Shopping List",
  "@appTitle": {
    "description": "The title of the application"
  },
  "greeting": "Hello, {userName}!",
  "@greeting": {
    "description": "Greets the signed-in user",
    "placeholders": {
      "userName": {"type": "String", "example": "Ann"}
    }
  },
  "itemCount": "{count, plural, one{{count} item} other{{count} items}}",
  "@itemCount": {
    "placeholders": {
      "count": {"type": "int"}
    }
  },
  "quote": "Say \"cheese\"\nand smile",
  "version": 2
}
`),
	"lib/l10n/app_de.arb": []byte(`{
    "@@locale": "de",
    "appTitle": "Einkaufsliste",
    "greeting": "Hallo, {userName}!",
    "itemCount": "{count, plural, one{{count} Artikel} other{{count} Artikel}}",
    "quote": "Sag \"Käse\"\nund lächle"
}
`),
	"lib/l10n/app_ru.arb": []byte(`{
  "@@locale": "ru",
  "appTitle": "Список покупок",
  "itemCount": "{count, plural, one{{count} товар} few{{count} товара} many{{count} товаров} other{{count} товара}}"
}
`),
}

// TestARBComponent imports a Flutter ARB component through the REST API
// and checks statistics, units, a no-op commit, an edit's diff, a new
// language and an upload.
func TestARBComponent(t *testing.T) {
	const dir = "lib/l10n/"
	base, repo := startFormatComponent(t, arbFixture, map[string]any{"filemask": dir + "app_*.arb",
		"template": dir + "app_en.arb", "new_base": dir + "app_en.arb", "file_format": "arb"}, "ru", 5)

	// Statistics: 5 strings of 15 words (the ICU plural is one string of 6 words).
	expectStats(t, base, map[string][3]float64{"en": {5, 15, 5}, "de": {5, 15, 4}, "ru": {5, 15, 2}})
	de := unitsByKey(t, base, "de")
	for key, want := range map[string][4]string{
		"appTitle":  {"Shopping List", "Einkaufsliste", "The title of the application\n", ""},
		"greeting":  {"Hello, {userName}!", "Hallo, {userName}!", "Greets the signed-in user\n", "placeholders:$USERNAME$,case-insensitive"},
		"itemCount": {"{count, plural, one{{count} item} other{{count} items}}", "{count, plural, one{{count} Artikel} other{{count} Artikel}}", "", "placeholders:$COUNT$,case-insensitive"},
		"quote":     {"Say \"cheese\"\nand smile", "Sag \"Käse\"\nund lächle", "", ""},
		"version":   {"2", "", "", ""},
	} {
		u := de[key]
		if u == nil {
			t.Errorf("de %q: no unit", key)
			continue
		}
		got := [4]string{join(u["source"]), join(u["target"]), u["note"].(string), u["flags"].(string)}
		if got != want {
			t.Errorf("de %q: source, target, note, flags = %q, want %q", key, got, want)
		}
	}
	if len(de) != 5 || de["@@locale"] != nil {
		t.Errorf("de: %d units", len(de))
	}

	expectNoChange(t, base, repo, arbFixture)

	// An edit rewrites its value only, escaped as json.dumps does.
	editUnit(t, base, de["quote"], "Sag \"Käse\"\n\tund lächle")
	expectFile(t, base, repo, dir+"app_de.arb", strings.Replace(string(arbFixture[dir+"app_de.arb"]),
		`"Sag \"Käse\"\nund lächle"`, `"Sag \"Käse\"\n\tund lächle"`, 1))

	// A new language is the template rewritten by translate-toolkit:
	// indent 2, the header and the metadata kept, every value empty.
	call(t, "POST", base+"components/demo/app/translations/", map[string]any{"language_code": "fr"}, 201)
	expectFile(t, base, repo, dir+"app_fr.arb", `{
  "@@locale": "en",
  "appTitle": "",
  "@appTitle": {
    "description": "The title of the application"
  },
  "greeting": "",
  "@greeting": {
    "description": "Greets the signed-in user",
    "placeholders": {
      "userName": {
        "type": "String",
        "example": "Ann"
      }
    }
  },
  "itemCount": "",
  "@itemCount": {
    "placeholders": {
      "count": {
        "type": "int"
      }
    }
  },
  "quote": "",
  "version": ""
}
`)
	if tr := call(t, "GET", base+"translations/demo/app/fr/", nil, 200); tr["total"] != float64(5) || tr["translated"] != float64(0) {
		t.Errorf("fr: %v strings, %v translated", tr["total"], tr["translated"])
	}

	// An uploaded .arb is applied by key; a key the file lacks is added.
	if out := uploadFile(t, base+"translations/demo/app/ru/file/", "app_ru.arb",
		`{"@@locale": "ru", "quote": "Скажи «сыр»", "unknown": "x"}`); out["accepted"] != float64(1) || out["not_found"] != float64(1) {
		t.Errorf("upload: %v", out)
	}
	expectFile(t, base, repo, dir+"app_ru.arb", `{
  "@@locale": "ru",
  "appTitle": "Список покупок",
  "itemCount": "{count, plural, one{{count} товар} few{{count} товара} many{{count} товаров} other{{count} товара}}",
  "quote": "Скажи «сыр»"
}
`)
}
