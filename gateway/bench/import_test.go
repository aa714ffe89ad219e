package bench

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tmsproject/tms/gateway/bench/origin"
)

// BenchmarkImportBleachbit imports the 62 files of the bleachbit corpus
// from a local git repository: component creation through REST until the
// import task completes. Target: under 3 s.
func BenchmarkImportBleachbit(b *testing.B) {
	files := corpusFiles(b)
	benchImport(b, files, "po/bleachbit.pot", 60*time.Second)
}

// genStrings is the size of the generated component: 42k strings in five
// translations and the source, about 250k units.
const genStrings = 42_000

// BenchmarkImportGenerated250k imports a generated component of 42k
// strings in 5 languages plus the source (252k units). Target: under 30 s.
func BenchmarkImportGenerated250k(b *testing.B) {
	g := Generate(genStrings, 42)
	benchImport(b, g.Files("app", GenLanguages, 85), "po/app.pot", 5*time.Minute)
}

// jsonKeys is the size of the generated JSON component.
const jsonKeys = 40_000

// BenchmarkImportJSON40k imports a nested JSON component (file_format
// json, a template) of 40k keys in 5 languages plus the source (240k
// units), parsed by the format registry's json package. Measured: the
// import of the monolingual formats beside PO's.
func BenchmarkImportJSON40k(b *testing.B) {
	g := Generate(jsonKeys, 7)
	files := g.JSONFiles(GenLanguages, 85)
	benchImportWith(b, files, 5*time.Minute, len(files), map[string]any{"filemask": "locales/*.json",
		"template": "locales/en.json", "file_format": "json", "new_base": "locales/en.json"})
}

// benchImport times, per iteration, the import into a fresh stack and
// checks the unit count the REST API reports afterwards.
func benchImport(b *testing.B, files map[string][]byte, newBase string, limit time.Duration) {
	benchImportWith(b, files, limit, countTranslations(files), map[string]any{"new_base": newBase})
}

// benchImportWith is benchImport of a component created with extra
// fields, making translations translations.
func benchImportWith(b *testing.B, files map[string][]byte, limit time.Duration, translations int, extra map[string]any) {
	repo, err := origin.Create(b.TempDir(), files)
	if err != nil {
		b.Fatal(err)
	}
	var units int
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		e := newEnv(b)
		e.project()
		slug := fmt.Sprintf("c%d", i)
		b.StartTimer()
		e.importComponent("bench", slug, repo, "", limit, extra)
		b.StopTimer()
		units = e.count("/api/units/")
		if got := e.count("/api/components/bench/" + slug + "/translations/"); got != translations {
			b.Fatalf("%d translations, want %d", got, translations)
		}
		e.close()
		b.StartTimer()
	}
	b.StopTimer()
	b.ReportMetric(float64(units), "units")
	b.ReportMetric(float64(units)/(b.Elapsed().Seconds()/float64(b.N)), "units/s")
	reportMemory(b)
}

// countTranslations is the number of translations an import makes: every
// PO file and the source.
func countTranslations(files map[string][]byte) int {
	n := 1
	for name := range files {
		if strings.HasSuffix(name, ".po") {
			n++
		}
	}
	return n
}
