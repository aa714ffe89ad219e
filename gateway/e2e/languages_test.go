package e2e

import (
	"testing"
	"time"

	"github.com/tmsproject/tms/gateway/bench/origin"
	"github.com/tmsproject/tms/gateway/stack"
	"github.com/tmsproject/tms/gateway/stacktest"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

// TestLanguagesFromFiles imports files naming a language the catalog does
// not know (zz) and a plural rule it does not know for one it does (de,
// three forms). The translation service resolves them against its copy of
// the language table, without calling the catalog; the catalog stores
// them from the import's outcome and sends its table back, and the
// translations get the plural ids the catalog gave.
func TestLanguagesFromFiles(t *testing.T) {
	st := stacktest.Start(t, stacktest.Options{})
	three := "Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n==2 ? 1 : 2);\\n"
	file := "msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\"" + three + "\"\n\n" +
		"msgid \"%d file\"\nmsgid_plural \"%d files\"\nmsgstr[0] \"a\"\nmsgstr[1] \"b\"\nmsgstr[2] \"c\"\n"
	repo, err := origin.Create(t.TempDir(), map[string][]byte{"po/de.po": []byte(file), "po/zz.po": []byte(file)})
	if err != nil {
		t.Fatal(err)
	}
	base := st.API
	call(t, "POST", base+"projects/", map[string]any{"name": "Demo", "slug": "demo", "web": "https://demo.example/"}, 201)
	call(t, "POST", base+"projects/demo/components/", map[string]any{"name": "App", "slug": "app",
		"repo": "file://" + repo, "filemask": "po/*.po", "file_format": "po"}, 201)
	stacktest.Eventually(t, 60*time.Second, func() bool {
		_, status := fetch(t, "GET", base+"translations/demo/app/zz/", nil)
		return status == 200
	})
	var zz map[string]any
	stacktest.Eventually(t, 10*time.Second, func() bool {
		var status int
		zz, status = fetch(t, "GET", base+"languages/zz/", nil)
		return status == 200
	})
	if plural, _ := zz["plural"].(map[string]any); plural["number"] != 3.0 {
		t.Errorf("the catalog's zz: %v", zz)
	}
	translations := translationv1.NewTranslationServiceClient(st.Conn(stack.Translation))
	for code, wantID := range map[string]int64{"zz": int64(zz["id"].(float64)), "de": -1} {
		var tr *translationv1.Translation
		stacktest.Eventually(t, 10*time.Second, func() bool {
			resp, err := translations.GetTranslation(t.Context(), &translationv1.GetTranslationRequest{
				Name: "projects/demo/components/app/translations/" + code})
			tr = resp.GetTranslation()
			return err == nil && tr.GetPlural().GetId() != 0
		})
		p := tr.GetPlural()
		if p.GetNumber() != 3 || (wantID > 0 && p.GetId() != wantID) || (code == "de" && p.GetSource() != 1) {
			t.Errorf("%s's plural: %v, want three forms with id %d", code, p, wantID)
		}
	}
}
