package e2e

import (
	"strings"
	"testing"
)

const sdHead = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
`

// sdPlural is a variable dictionary of pairs (category, string).
func sdPlural(name string, forms ...string) string {
	out := "\t\t<key>" + name + "</key>\n\t\t<dict>\n\t\t\t<key>NSStringFormatSpecTypeKey</key>\n\t\t\t<string>NSStringPluralRuleType</string>\n" +
		"\t\t\t<key>NSStringFormatValueTypeKey</key>\n\t\t\t<string>d</string>\n"
	for i := 0; i+1 < len(forms); i += 2 {
		out += "\t\t\t<key>" + forms[i] + "</key>\n\t\t\t<string>" + forms[i+1] + "</string>\n"
	}
	return out + "\t\t</dict>\n"
}

// sdFile is a stringsdict of the key "files" (format and two variables)
// and the key "selected" (one variable).
func sdFile(format string, files, folders []string, selFormat string, items []string) string {
	return sdHead + "\t<key>files</key>\n\t<dict>\n\t\t<key>NSStringLocalizedFormatKey</key>\n\t\t<string>" + format + "</string>\n" +
		sdPlural("files", files...) + sdPlural("folders", folders...) + "\t</dict>\n" +
		"\t<key>selected</key>\n\t<dict>\n\t\t<key>NSStringLocalizedFormatKey</key>\n\t\t<string>" + selFormat + "</string>\n" +
		sdPlural("items", items...) + "\t</dict>\n</dict>\n</plist>\n"
}

var (
	sdEN = sdFile("%1$#@files@ in %2$#@folders@", []string{"one", "%d file", "other", "%d files"},
		[]string{"zero", "no folder", "one", "%d folder", "other", "%d folders"}, "%#@items@ &amp; more", []string{"one", "One item", "other", "%d items"})
	sdDE = sdFile("%1$#@files@ in %2$#@folders@", []string{"one", "%d Datei", "other", "%d Dateien"},
		[]string{"one", "%d Ordner", "other", "%d Ordnern"}, "", []string{})
	// Czech: the forms are CLDR's one, few and other (what 5 selects); the
	// file's "many" (for fractions) is no form and stays as written.
	sdCS = sdFile("%1$#@files@ ve %2$#@folders@", []string{"one", "%d soubor", "few", "%d soubory", "many", "%d souboru", "other", "%d souborů"},
		[]string{"zero", "žádné složce", "one", "%d složce", "few", "%d složkách", "other", "%d složkách"}, "%#@items@", []string{"one", "%d položka"})
	stringsdictFixture = map[string][]byte{
		"App/en.lproj/Localizable.stringsdict": []byte(sdEN),
		"App/de.lproj/Localizable.stringsdict": []byte(sdDE),
		"App/cs.lproj/Localizable.stringsdict": []byte(sdCS),
	}
)

// TestStringsdictComponent imports a stringsdict component through the
// REST API and checks the plural with zero, statistics, units, a no-op
// commit, an edit's diff, a new language and an upload.
func TestStringsdictComponent(t *testing.T) {
	const dir = "App/"
	base, repo := startFormatComponent(t, stringsdictFixture, map[string]any{"filemask": dir + "*.lproj/Localizable.stringsdict",
		"template": dir + "en.lproj/Localizable.stringsdict", "new_base": dir + "en.lproj/Localizable.stringsdict", "file_format": "stringsdict"}, "cs", 5)

	// The translations' plural is the language's with a form for zero.
	for code, want := range map[string][2]any{"en": {3.0, "n==0 ? 0 : n==1 ? 1 : 2"}, "de": {3.0, "n==0 ? 0 : n==1 ? 1 : 2"},
		"cs": {4.0, "n==0 ? 0 : (n==1) ? 1 : (n>=2 && n<=4) ? 2 : 3"}} {
		p := call(t, "GET", base+"translations/demo/app/"+code+"/", nil, 200)["language"].(map[string]any)["plural"].(map[string]any)
		if p["number"] != want[0] || p["formula"] != want[1] || p["source"] != 3.0 {
			t.Errorf("%s plural = %v, want %v (source 3)", code, p, want)
		}
	}
	// A plural with an empty form is not translated (the template's
	// variables without a zero form included).
	expectStats(t, base, map[string][3]float64{"en": {5, 20, 3}, "de": {5, 20, 1}, "cs": {5, 20, 3}})
	units := map[string]map[string]map[string]any{"en": unitsByKey(t, base, "en"), "de": unitsByKey(t, base, "de"), "cs": unitsByKey(t, base, "cs")}
	for _, c := range []struct{ code, key, source, target string }{
		{"de", "files", "%1$#@files@ in %2$#@folders@", "%1$#@files@ in %2$#@folders@"},
		{"de", "files:files", "|%d file|%d files", "|%d Datei|%d Dateien"},
		{"de", "files:folders", "no folder|%d folder|%d folders", "|%d Ordner|%d Ordnern"},
		{"de", "selected", "%#@items@ & more", ""},
		{"de", "selected:items", "|One item|%d items", "||"},
		{"cs", "files:files", "|%d file|%d files", "|%d soubor|%d soubory|%d souborů"},
		{"cs", "files:folders", "no folder|%d folder|%d folders", "žádné složce|%d složce|%d složkách|%d složkách"},
		{"cs", "selected:items", "|One item|%d items", "|%d položka||"},
	} {
		u := units[c.code][c.key]
		if u == nil {
			t.Errorf("%s %q: no unit", c.code, c.key)
			continue
		}
		if got := [2]string{join(u["source"]), join(u["target"])}; got != [2]string{c.source, c.target} || u["note"] != "" || u["flags"] != "" {
			t.Errorf("%s %q: source, target = %q, note %q, flags %q; want %q %q", c.code, c.key, got, u["note"], u["flags"], c.source, c.target)
		}
	}

	expectNoChange(t, base, repo, stringsdictFixture)

	// An edit changes only its strings: an emptied form goes, a new one is
	// inserted in category order, & < > are entities.
	editUnit(t, base, units["de"]["files:folders"], "in keinem Ordner", "%d Ordner", "")
	editUnit(t, base, units["de"]["selected"], "%#@items@ & mehr")
	want := strings.Replace(sdDE, "\t\t\t<string>d</string>\n\t\t\t<key>one</key>\n\t\t\t<string>%d Ordner</string>\n\t\t\t<key>other</key>\n\t\t\t<string>%d Ordnern</string>\n",
		"\t\t\t<string>d</string>\n\t\t\t<key>zero</key>\n\t\t\t<string>in keinem Ordner</string>\n\t\t\t<key>one</key>\n\t\t\t<string>%d Ordner</string>\n", 1)
	want = strings.Replace(want, "<string></string>", "<string>%#@items@ &amp; mehr</string>", 1)
	expectFile(t, base, repo, dir+"de.lproj/Localizable.stringsdict", want)

	// A new language is the template with every string empty.
	call(t, "POST", base+"components/demo/app/translations/", map[string]any{"language_code": "fr"}, 201)
	expectFile(t, base, repo, dir+"fr.lproj/Localizable.stringsdict", sdFile("", nil, nil, "", nil))
	fr := call(t, "GET", base+"translations/demo/app/fr/", nil, 200)
	if p := fr["language"].(map[string]any)["plural"].(map[string]any); fr["total"] != 5.0 || fr["translated"] != 0.0 || p["number"] != 3.0 {
		t.Errorf("fr: %v strings, %v translated, plural %v", fr["total"], fr["translated"], p)
	}

	// An uploaded file is applied by key: the untranslated variable takes
	// the file's forms (the translated format keys stay).
	items := []string{"zero", "žádná položka", "one", "%d položka", "few", "%d položky", "other", "%d položek"}
	up := sdFile("%1$#@files@ ve %2$#@folders@", nil, nil, "%#@items@ a další", items)
	if out := uploadFile(t, base+"translations/demo/app/cs/file/", "Localizable.stringsdict", up); out["accepted"] != float64(1) {
		t.Errorf("upload: %v", out)
	}
	if got := join(unitsByKey(t, base, "cs")["selected:items"]["target"]); got != "žádná položka|%d položka|%d položky|%d položek" {
		t.Errorf("uploaded target = %q", got)
	}
	expectFile(t, base, repo, dir+"cs.lproj/Localizable.stringsdict", strings.Replace(sdCS, sdPlural("items", "one", "%d položka"), sdPlural("items", items...), 1))
}
