package corpus

import "testing"

func TestFilesFiltersBySuffix(t *testing.T) {
	po := Files(t, ".po")
	for name := range po {
		if len(name) < 3 || name[len(name)-3:] != ".po" {
			t.Errorf("%s is not a .po file", name)
		}
	}
	all := Files(t, ".po", ".pot")
	if len(all) <= len(po) {
		t.Errorf("the template was not added: %d files with .pot, %d without", len(all), len(po))
	}
}
