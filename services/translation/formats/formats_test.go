package formats

import "testing"

func TestLookup(t *testing.T) {
	for _, id := range IDs() {
		f, err := Lookup(id)
		if err != nil || f.ID() != id {
			t.Errorf("Lookup(%q) = %v, %v", id, f, err)
		}
	}
	if f, err := Lookup(""); err != nil || f.ID() != "po" {
		t.Errorf(`Lookup("") = %v, %v; want po`, f, err)
	}
	if _, err := Lookup("xliff21"); err == nil {
		t.Error("an unregistered format was found")
	}
}

// TestPORoundTrip: the PO entry parses and renders byte-identical, and an
// edit through the registry interface changes only its entry.
func TestPORoundTrip(t *testing.T) {
	const in = "msgid \"\"\nmsgstr \"\"\n\"Plural-Forms: nplurals=2; plural=(n != 1);\\n\"\n\n" +
		"#: a.c:1\nmsgid \"One\"\nmsgstr \"Eins\"\n\nmsgid  \"Two\"\nmsgstr \"\"\n"
	f, _ := Lookup("po")
	file, err := f.Parse([]byte(in), Language{Code: "de"})
	if err != nil {
		t.Fatal(err)
	}
	if string(file.Bytes()) != in {
		t.Fatalf("round trip changed the file:\n%s", file.Bytes())
	}
	units := file.Units()
	if len(units) != 2 || units[0].Location != "a.c:1" || units[0].Target[0] != "Eins" {
		t.Fatalf("units = %+v", units)
	}
	if err := file.SetTarget(units[0], []string{"Ein"}, false); err != nil {
		t.Fatal(err)
	}
	want := "msgid \"\"\nmsgstr \"\"\n\"Plural-Forms: nplurals=2; plural=(n != 1);\\n\"\n\n" +
		"#: a.c:1\nmsgid \"One\"\nmsgstr \"Ein\"\n\nmsgid  \"Two\"\nmsgstr \"\"\n"
	if got := string(file.Bytes()); got != want {
		t.Errorf("edited:\n%s\nwant\n%s", got, want)
	}
}
