package po_test

import (
	"strings"
	"testing"

	"github.com/tmsproject/tms/services/translation/formats"
	"github.com/tmsproject/tms/services/translation/formats/po"
)

func TestUpdateBilingual(t *testing.T) {
	var f formats.Format = po.Format{}
	up, ok := f.(formats.BilingualUpdater)
	if !ok {
		t.Fatal("PO does not update bilingual files")
	}
	const head = "msgid \"\"\nmsgstr \"\"\n\"Language: de\\n\"\n\"Plural-Forms: nplurals=2; plural=(n != 1);\\n\"\n\n"
	tests := []struct {
		name, translation, template, want string
		wantErr                           string
	}{
		{"merged", head + "msgid \"Open file\"\nmsgstr \"Datei öffnen\"\n\nmsgid \"Old\"\nmsgstr \"Alt\"\n",
			"msgid \"Open files\"\nmsgstr \"\"\n\nmsgid \"New\"\nmsgstr \"\"\n",
			head + "#, fuzzy\n#| msgid \"Open file\"\nmsgid \"Open files\"\nmsgstr \"Datei öffnen\"\n\nmsgid \"New\"\nmsgstr \"\"\n\n#~ msgid \"Old\"\n#~ msgstr \"Alt\"\n", ""},
		{"bad translation", "msgid \"a\"\nbogus\n", "msgid \"a\"\nmsgstr \"\"\n", "", "line 2"},
		{"bad template", head, "msgid \"a\"\nbogus\n", "", "template: po: line 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := up.UpdateBilingual([]byte(tt.translation), []byte(tt.template))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Errorf("merged (%v):\n%s\nwant:\n%s", err, got, tt.want)
			}
		})
	}
}
