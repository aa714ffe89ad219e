package translation_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tmsproject/tms/pkg/corpus"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	"github.com/tmsproject/tms/services/translation/internal/fixture"
)

// TestImportCorpus imports the 61 real translations of the corpus twice
// (import, then re-import in place). Its speed is measured by the
// benchmarks in gateway/bench, not here.
func TestImportCorpus(t *testing.T) {
	dir := corpus.Dir(t)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, e := range entries {
		data, dataErr := os.ReadFile(filepath.Join(dir, e.Name()))
		if dataErr != nil {
			t.Fatal(dataErr)
		}
		files["po/"+e.Name()] = string(data)
	}
	e := newEnv(t, true)
	c := greeter(5, fixture.Origin(t, files))
	c.NewBase = "po/bleachbit.pot"
	e.catalog.Set(c, project)
	start := time.Now()
	task := e.importNow(t, 5)
	elapsed := time.Since(start)
	if task.GetError() != "" {
		t.Fatal(task.GetError())
	}
	t.Logf("imported %d files in %v\n%s", len(files), elapsed, task.GetLog())
	list, err := e.client.ListTranslations(t.Context(), &translationv1.ListTranslationsRequest{ComponentId: 5})
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for name := range files {
		if strings.HasSuffix(name, ".po") {
			want++
		}
	}
	if int(list.GetTotal()) != want+1 {
		t.Errorf("%d translations, want %d", list.GetTotal(), want+1)
	}
	units, _ := e.client.ListUnits(t.Context(), &translationv1.ListUnitsRequest{Limit: 1})
	t.Logf("%d units", units.GetTotal())
	again := time.Now()
	if task := e.importNow(t, 5); task.GetError() != "" {
		t.Fatal(task.GetError())
	}
	t.Logf("re-import in %v", time.Since(again))
}
