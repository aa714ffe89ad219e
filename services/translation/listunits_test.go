package translation_test

import (
	"slices"
	"testing"

	"github.com/tmsproject/tms/pkg/errs"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	"github.com/tmsproject/tms/services/translation/internal/fixture"
)

// TestListUnitsByComponentAndLanguage: a translation's units named by
// component and language are those named by the translation's id, with
// the same total and search; a language the component lacks is not found.
func TestListUnitsByComponentAndLanguage(t *testing.T) {
	e := newEnv(t, true)
	e.catalog.Set(greeter(1, fixture.Origin(t, fixture.Files())), project)
	if task := e.importNow(t, 1); task.GetError() != "" {
		t.Fatal(task.GetError())
	}
	de := e.translation(t, 1, "de")
	ids := func(req *translationv1.ListUnitsRequest) ([]int64, int64, error) {
		resp, err := e.client.ListUnits(t.Context(), req)
		var out []int64
		for _, u := range resp.GetUnits() {
			out = append(out, u.GetId())
		}
		return out, resp.GetTotal(), err
	}
	for _, q := range []string{"", "state:<translated"} {
		t.Run("q="+q, func(t *testing.T) {
			byID, totalByID, err := ids(&translationv1.ListUnitsRequest{TranslationId: de.GetId(), Query: q, Limit: 1000})
			if err != nil {
				t.Fatal(err)
			}
			byName, totalByName, err := ids(&translationv1.ListUnitsRequest{ComponentId: 1, LanguageCode: "de", Query: q, Limit: 1000})
			if err != nil {
				t.Fatal(err)
			}
			if len(byID) == 0 || !slices.Equal(byID, byName) || totalByID != totalByName {
				t.Errorf("by component and language %v (total %d), by id %v (total %d)", byName, totalByName, byID, totalByID)
			}
		})
	}
	t.Run("missing language", func(t *testing.T) {
		if _, _, err := ids(&translationv1.ListUnitsRequest{ComponentId: 1, LanguageCode: "fi"}); kind(err) != errs.NotFound {
			t.Errorf("a language the component lacks: %v, want NotFound", err)
		}
	})
}
