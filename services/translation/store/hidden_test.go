package store_test

import (
	"testing"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/outbox"
	"github.com/tmsproject/tms/services/translation/search"
	"github.com/tmsproject/tms/services/translation/store"
)

// TestHiddenProjects puts a unique text into a project the caller may not
// see (or a component deleted meanwhile) and checks that no list, search,
// count or sum of the store shows or counts it.
func TestHiddenProjects(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		ctx := t.Context()
		s := store.New(gdb)
		for i, project := range []string{"open", "secret"} {
			component := int64(10 + i)
			src := importSpec(component, "en", nil, unit("Hello", "Hello", 100, 1), unit(project+" zebra", project+" zebra", 100, 1))
			src.Translation.ProjectSlug = project
			imported, err := s.ImportTranslation(ctx, src)
			if err != nil {
				t.Fatal(err)
			}
			de := importSpec(component, "de", imported.IDs, unit("Hello", "Hallo", 20, 1), unit(project+" zebra", "", 0, 1))
			de.Translation.ProjectSlug = project
			deImported, err := s.ImportTranslation(ctx, de)
			if err != nil {
				t.Fatal(err)
			}
			for hash, id := range deImported.IDs {
				if hash == unit(project+" zebra", "", 0, 1).IDHash {
					if _, err := s.AddSuggestion(ctx, id, project+" zebra suggestion", "u"); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		// A check result on every unit, so that counting them shows what
		// is hidden.
		if err := gdb.Exec("INSERT INTO unit_checks (unit_id, name) SELECT id, 'same' FROM units").Error; err != nil {
			t.Fatal(err)
		}
		var openChecks int64
		if err := gdb.Raw(`SELECT COUNT(*) FROM unit_checks JOIN units ON units.id = unit_checks.unit_id
			JOIN translations ON translations.id = units.translation_id WHERE translations.project_slug = 'open'`).Scan(&openChecks).Error; err != nil || openChecks != 4 {
			t.Fatalf("open checks: %d %v", openChecks, err)
		}
		// Searches go through the trigram index (SQLite), and are also
		// scanned below: the hidden rows go either way.
		for done := false; !done; {
			var err error
			if done, err = s.IndexText(ctx, 3); err != nil {
				t.Fatal(err)
			}
		}
		// The secret project's rows go whether the project is hidden from
		// the caller or its component (11) is deleted in the catalog.
		for name, hidden := range map[string]store.Hidden{
			"project":                {Restricted: true, Seen: []string{"open"}},
			"component":              {Components: []int64{11}},
			"both":                   {Restricted: true, Seen: []string{"open", "other"}, Components: []int64{11, 99}},
			"slug the catalog lacks": {Restricted: true, Seen: []string{"open", "renamed-secret"}},
		} {
			t.Run(name, func(t *testing.T) {
				if ts, n, err := s.ListTranslations(ctx, nil, 0, 0, hidden); err != nil || n != 2 || len(ts) != 2 {
					t.Errorf("translations: %d %d %v", n, len(ts), err)
				}
				if ts, n, err := s.ListTranslations(ctx, []int64{10, 11}, 0, 0, hidden); err != nil || n != 2 || len(ts) != 2 {
					t.Errorf("translations: %d %d %v", n, len(ts), err)
				}
				units, n, err := s.ListUnits(ctx, 0, 0, 0, hidden)
				if err != nil || n != 4 || len(units) != 4 {
					t.Errorf("units: total %d, %d listed, %v", n, len(units), err)
				}
				q, perr := search.Parse("zebra")
				if perr != nil {
					t.Fatal(perr)
				}
				found, n, err := s.SearchUnits(ctx, 0, q, 0, 0, hidden)
				if err != nil || n != 2 || len(found) != 2 {
					t.Errorf("search: total %d, %d found, %v", n, len(found), err)
				}
				var scanned []store.UnitView
				store.Scanned(func() { scanned, n, err = s.SearchUnits(ctx, 0, q, 0, 0, hidden) })
				if err != nil || n != 2 || len(scanned) != 2 {
					t.Errorf("scanned search: total %d, %d found, %v", n, len(scanned), err)
				}
				found = append(found, scanned...)
				for _, u := range append(units, found...) {
					if u.Translation.ProjectSlug == "secret" {
						t.Errorf("hidden unit listed: %+v", u.Unit)
					}
				}
				sum, err := s.Statistics(ctx, store.Scope{LanguageCode: "de", Hidden: hidden})
				if err != nil || sum.Stats.Total != 2 || sum.Stats.Translated != 1 {
					t.Errorf("language statistics: %+v %v", sum.Stats, err)
				}
				langs, err := s.LanguageStatistics(ctx, []int64{10, 11}, hidden)
				if err != nil || len(langs) != 2 || langs[1].Stats.Total != 2 {
					t.Errorf("language rows: %+v %v", langs, err)
				}
				m, err := s.Metrics(ctx, hidden)
				if err != nil || m != (store.Metrics{Translations: 2, Units: 4, UnitsTranslated: 3, Checks: openChecks, Suggestions: 1}) {
					t.Errorf("metrics: %+v %v, want %d checks", m, err, openChecks)
				}
				sugg, n, err := s.ListSuggestions(ctx, 0, 0, 0, hidden)
				if err != nil || n != 1 || len(sugg) != 1 || sugg[0].Target != "open zebra suggestion" {
					t.Errorf("suggestions: %d %+v %v", n, sugg, err)
				}
			})
		}
		if _, n, _ := s.ListUnits(ctx, 0, 0, 0, store.Hidden{}); n != 8 {
			t.Errorf("nothing hidden: %d units, want 8", n)
		}
		if m, err := s.Metrics(ctx, store.Hidden{}); err != nil || m.Translations != 4 || m.Checks != 8 || m.Suggestions != 2 {
			t.Errorf("nothing hidden: metrics %+v %v", m, err)
		}
	}, store.Migrations, outbox.Migrations)
}
