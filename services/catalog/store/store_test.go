package store_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/changefeed/changefeedtest"
	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/pgtest"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/catalog/store"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// TestConformance runs every storage case on both engines.
func TestConformance(t *testing.T) {
	cases := []struct {
		name string
		run  func(t *testing.T, s *store.Store, gdb *gorm.DB)
	}{
		{"Languages", testLanguages},
		{"Plurals", testPlurals},
		{"Categories", testCategories},
		{"ComponentLinks", testComponentLinks},
		{"Announcements", testAnnouncements},
		{"Search", testSearch},
		{"MachinerySettings", testMachinerySettings},
		{"Projects", testProjects},
		{"ProjectDuplicates", testProjectDuplicates},
		{"Components", testComponents},
		{"ComponentDuplicates", testComponentDuplicates},
		{"Lock", testLock},
		{"DeleteCascade", testDeleteCascade},
		{"Visibility", testVisibility},
		{"Lifecycle", testLifecycle},
		{"Inheritance", testInheritance},
		{"Backfill", testBackfill},
		{"ComponentLists", testComponentLists},
		{"Projection", testProjection},
	}
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				// Each case works on its own rows: clear the tables first.
				for _, table := range []string{"announcements", "component_list_members", "component_list_rules", "component_lists", "component_links", "components", "categories", "projects", "plurals", "languages", "outbox_events", "access_events", "projection_events", "projection_revisions"} {
					if err := gdb.Exec("DELETE FROM " + table).Error; err != nil {
						t.Fatal(err)
					}
				}
				c.run(t, store.New(gdb), gdb)
			})
		}
	}, store.Sources()...)
}

func seed(t *testing.T, s *store.Store) {
	t.Helper()
	n, err := s.SeedLanguages(t.Context(), []store.Language{
		{Code: "en", Name: "English", PluralNumber: 2, PluralFormula: "n != 1"},
		{Code: "cs", Name: "Czech", PluralNumber: 3, PluralFormula: "(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2", PluralType: 3},
		{Code: "ar", Name: "Arabic", Direction: "rtl", PluralNumber: 6, PluralFormula: "n==0 ? 0 : 5", Aliases: []string{"ara"}, Population: 5},
	})
	if err != nil || n != 3 {
		t.Fatalf("seed: %d, %v", n, err)
	}
}

func testLanguages(t *testing.T, s *store.Store, _ *gorm.DB) {
	ctx := t.Context()
	seed(t, s)
	// Seeding again inserts only what is missing.
	n, err := s.SeedLanguages(ctx, []store.Language{{Code: "en", Name: "English"}, {Code: "de", Name: "German", PluralNumber: 2, PluralFormula: "n != 1"}})
	if err != nil || n != 1 {
		t.Fatalf("reseed: %d, %v", n, err)
	}
	ar, err := s.GetLanguage(ctx, "ar")
	if err != nil {
		t.Fatal(err)
	}
	if ar.Direction != "rtl" || ar.PluralNumber != 6 || len(ar.Aliases) != 1 || ar.Aliases[0] != "ara" || ar.Population != 5 {
		t.Errorf("ar = %+v", ar)
	}
	if en, enErr := s.GetLanguage(ctx, "EN"); enErr != nil || en.Code != "en" || en.Direction != "ltr" || en.Aliases == nil {
		t.Errorf("case-insensitive get: %+v, %v", en, enErr)
	}
	if _, err = s.GetLanguage(ctx, "xx"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("missing language: %v", err)
	}
	list, total, err := s.ListLanguages(ctx, store.Page{Offset: 1, Limit: 2}, store.LanguageFilter{})
	if err != nil || total != 4 || len(list) != 2 || list[0].Code != "cs" || list[1].Code != "ar" {
		t.Errorf("list: %v %d %v", list, total, err)
	}
	for _, tc := range []struct {
		f    store.LanguageFilter
		want []string
	}{
		{store.LanguageFilter{Only: true, Codes: []string{"ar", "cs", "zz"}}, []string{"cs", "ar"}},
		{store.LanguageFilter{Only: true}, nil},
		{store.LanguageFilter{Codes: []string{"ar"}}, []string{"en", "cs", "ar", "de"}},
	} {
		got, n, lerr := s.ListLanguages(ctx, store.Page{}, tc.f)
		var codes []string
		for _, l := range got {
			codes = append(codes, l.Code)
		}
		if lerr != nil || int(n) != len(tc.want) || strings.Join(codes, ",") != strings.Join(tc.want, ",") {
			t.Errorf("filter %+v: %v (%d) %v, want %v", tc.f, codes, n, lerr, tc.want)
		}
	}
	// An administrator's language: a code taken in any case is refused;
	// changes and deletion reach the stored row and its plurals.
	xq := &store.Language{Code: "xq", Name: "Xq", PluralNumber: 1, PluralFormula: "0"}
	if err = s.AddLanguage(ctx, xq); err != nil || xq.ID == 0 {
		t.Fatalf("add: %+v %v", xq, err)
	}
	var dup *store.DuplicateError
	if err = s.AddLanguage(ctx, &store.Language{Code: "XQ", Name: "Again"}); !errors.As(err, &dup) || dup.Field != "code" {
		t.Errorf("a taken code: %v", err)
	}
	xq.Name, xq.PluralNumber, xq.PluralFormula = "Xq revised", 2, "n != 1"
	if err = s.SaveLanguage(ctx, xq); err != nil {
		t.Fatal(err)
	}
	if _, err = s.CreatePlural(ctx, store.Plural{LanguageID: xq.ID, Number: 3, Formula: "n%3"}); err != nil {
		t.Fatal(err)
	}
	if got, gerr := s.GetLanguage(ctx, "xq"); gerr != nil || got.Name != "Xq revised" || got.PluralNumber != 2 {
		t.Errorf("saved: %+v %v", got, gerr)
	}
	if err = s.DeleteLanguage(ctx, xq.ID); err != nil {
		t.Fatal(err)
	}
	if _, err = s.GetLanguage(ctx, "xq"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("deleted language: %v", err)
	}
	if ps, _ := s.ListPlurals(ctx, xq.ID); len(ps) != 0 {
		t.Errorf("deleted language's plurals: %v", ps)
	}
	if err = s.DeleteLanguage(ctx, xq.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("deleting twice: %v", err)
	}
	// Creating is idempotent per code.
	x1, err := s.CreateLanguage(ctx, store.Language{Code: "x_Test", Name: "x_Test", PluralSource: store.PluralSourceGettext, PluralNumber: 3, PluralFormula: "n%3"})
	if err != nil {
		t.Fatal(err)
	}
	x2, err := s.CreateLanguage(ctx, store.Language{Code: "x_Test", Name: "other", PluralNumber: 1, PluralFormula: "0"})
	if err != nil || x2.ID != x1.ID || x2.Name != "x_Test" || x2.PluralNumber != 3 || x2.PluralSource != 1 {
		t.Errorf("create twice: %+v %+v %v", x1, x2, err)
	}
}

func testPlurals(t *testing.T, s *store.Store, _ *gorm.DB) {
	ctx := t.Context()
	seed(t, s)
	cs, err := s.GetLanguage(ctx, "cs")
	if err != nil {
		t.Fatal(err)
	}
	ar, _ := s.GetLanguage(ctx, "ar")
	p1, err := s.CreatePlural(ctx, store.Plural{LanguageID: cs.ID, Source: store.PluralSourceGettext, Number: 2, Formula: "n != 1", Type: 1})
	if err != nil {
		t.Fatal(err)
	}
	// Ids never meet a language's; the same rule again is the same row.
	p2, err := s.CreatePlural(ctx, store.Plural{LanguageID: cs.ID, Number: 2, Formula: "n != 1"})
	if err != nil || p1.ID < 1e9 || p2.ID != p1.ID || p2.Type != 1 || p2.Source != 1 {
		t.Errorf("create twice: %+v %+v %v", p1, p2, err)
	}
	if _, err = s.CreatePlural(ctx, store.Plural{LanguageID: cs.ID, Number: 1, Formula: "0"}); err != nil {
		t.Fatal(err)
	}
	if _, err = s.CreatePlural(ctx, store.Plural{LanguageID: ar.ID, Number: 2, Formula: "n != 1"}); err != nil {
		t.Fatal(err)
	}
	list, err := s.ListPlurals(ctx, cs.ID)
	if err != nil || len(list) != 2 || list[0].ID != p1.ID || list[1].Formula != "0" {
		t.Errorf("list: %+v %v", list, err)
	}
}

func testCategories(t *testing.T, s *store.Store, gdb *gorm.DB) {
	ctx := t.Context()
	seed(t, s)
	p := newProject("hello")
	if err := s.CreateProject(ctx, p, "", nil); err != nil {
		t.Fatal(err)
	}
	docs := &store.Category{ProjectID: p.ID, Name: "Docs", Slug: "docs"}
	if err := s.SaveCategory(ctx, docs); err != nil {
		t.Fatal(err)
	}
	api := &store.Category{ProjectID: p.ID, ParentID: docs.ID, Name: "API", Slug: "api"}
	if err := s.SaveCategory(ctx, api); err != nil {
		t.Fatal(err)
	}
	v1 := &store.Category{ProjectID: p.ID, ParentID: api.ID, Name: "v1", Slug: "v1"}
	if err := s.SaveCategory(ctx, v1); err != nil {
		t.Fatal(err)
	}
	if v1.Path() != "docs/api/v1" || v1.Depth() != 3 || v1.ProjectSlug != "hello" {
		t.Errorf("v1: %+v path %q", v1, v1.Path())
	}
	// Siblings have distinct slugs and names; another level may repeat them.
	var dup *store.DuplicateError
	if err := s.SaveCategory(ctx, &store.Category{ProjectID: p.ID, Name: "Other", Slug: "docs"}); !errors.As(err, &dup) || dup.Field != "slug" {
		t.Errorf("duplicate slug: %v", err)
	}
	if err := s.SaveCategory(ctx, &store.Category{ProjectID: p.ID, ParentID: docs.ID, Name: "Docs", Slug: "docs"}); err != nil {
		t.Errorf("same slug one level down: %v", err)
	}
	in := newComponent(p.ID, "guide")
	in.CategoryID = v1.ID
	if err := s.CreateComponent(ctx, in, nil); err != nil {
		t.Fatal(err)
	}
	if in.CategoryPath() != "docs/api/v1" {
		t.Errorf("component path %q", in.CategoryPath())
	}
	out := newComponent(p.ID, "app")
	if err := s.CreateComponent(ctx, out, nil); err != nil {
		t.Fatal(err)
	}
	ids, err := s.CategoryComponents(ctx, docs.ID)
	if err != nil || len(ids) != 1 || ids[0] != in.ID {
		t.Errorf("components under docs: %v %v", ids, err)
	}
	list, total, err := s.ListCategories(ctx, p.ID, store.Page{Limit: 2}, store.Viewer{All: true})
	if err != nil || total != 4 || len(list) != 2 || list[1].Path() != "docs/api" {
		t.Errorf("list: %+v %d %v", list, total, err)
	}
	removed, err := s.DeleteCategory(ctx, api.ID, func(c store.Component) *changelogv1.Change {
		return &changelogv1.Change{Action: typev1.ChangeAction_CHANGE_ACTION_NEW_SOURCE, ProjectSlug: "hello", ComponentSlug: c.Slug}
	})
	if err != nil || len(removed) != 1 || removed[0].Slug != "guide" {
		t.Fatalf("delete: %v %v", removed, err)
	}
	if _, err := s.GetCategory(ctx, v1.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("subcategory survived: %v", err)
	}
	if _, err := s.GetComponent(ctx, "hello", "app"); err != nil {
		t.Errorf("component outside the category removed: %v", err)
	}
	if got := changefeedtest.All(t, gdb); len(got) != 1 || got[0].GetComponentSlug() != "guide" {
		t.Errorf("changes: %v", got)
	}
}

func testComponentLinks(t *testing.T, s *store.Store, _ *gorm.DB) {
	ctx := t.Context()
	seed(t, s)
	open, other, secret := newProject("open"), newProject("other"), newProject("secret")
	secret.AccessControl = 100
	for _, p := range []*store.Project{open, other, secret} {
		if err := s.CreateProject(ctx, p, "", nil); err != nil {
			t.Fatal(err)
		}
	}
	shared, hidden := newComponent(other.ID, "shared"), newComponent(secret.ID, "hidden")
	for _, c := range []*store.Component{newComponent(open.ID, "own"), shared, hidden} {
		if err := s.CreateComponent(ctx, c, nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []*store.Component{shared, shared, hidden} {
		if err := s.LinkComponent(ctx, c.ID, open.ID); err != nil {
			t.Fatal(err)
		}
	}
	public := store.Viewer{Levels: []int32{0}}
	for _, tc := range []struct {
		name string
		v    store.Viewer
		want []string
	}{{"everything", store.Viewer{All: true}, []string{"own", "shared", "hidden"}}, {"public", public, []string{"own", "shared"}}} {
		list, total, err := s.ListComponents(ctx, "open", store.Page{}, tc.v)
		var got []string
		for _, c := range list {
			got = append(got, c.Slug)
		}
		if err != nil || total != int64(len(tc.want)) || fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: %v %d %v, want %v", tc.name, got, total, err, tc.want)
		}
	}
	if ps, n, err := s.ComponentLinks(ctx, shared.ID, store.Page{}, public); err != nil || n != 1 || ps[0].Slug != "open" {
		t.Errorf("links: %v %d %v", ps, n, err)
	}
	if err := s.UnlinkComponent(ctx, shared.ID, open.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.UnlinkComponent(ctx, shared.ID, open.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unlink twice: %v", err)
	}
	if _, n, _ := s.ListComponents(ctx, "open", store.Page{}, public); n != 1 {
		t.Errorf("after unlink the public sees %d components", n)
	}
}

func testAnnouncements(t *testing.T, s *store.Store, gdb *gorm.DB) {
	ctx := t.Context()
	seed(t, s)
	p := newProject("hello")
	if err := s.CreateProject(ctx, p, "", nil); err != nil {
		t.Fatal(err)
	}
	c := newComponent(p.ID, "app")
	if err := s.CreateComponent(ctx, c, nil); err != nil {
		t.Fatal(err)
	}
	project := store.AnnouncementContext{ProjectID: p.ID}
	translation := store.AnnouncementContext{ProjectID: p.ID, ComponentID: c.ID, LanguageCode: "de"}
	posted := &changelogv1.Change{Action: typev1.ChangeAction_CHANGE_ACTION_ANNOUNCEMENT, ProjectSlug: "hello", Target: "Deadline Friday"}
	for _, a := range []*store.Announcement{
		{ProjectID: p.ID, Message: "Deadline Friday", Category: "warning", Notify: true},
		{ProjectID: p.ID, ComponentID: c.ID, LanguageCode: "de", Message: "Du, not Sie", Category: "info", Expiry: "2030-01-31"},
	} {
		ch := posted
		if !a.Notify {
			ch = nil
		}
		if err := s.CreateAnnouncement(ctx, a, ch); err != nil {
			t.Fatal(err)
		}
	}
	if got, n, err := s.ListAnnouncements(ctx, project, store.Page{}); err != nil || n != 1 || got[0].Category != "warning" {
		t.Errorf("project announcements: %+v %d %v", got, n, err)
	}
	got, n, err := s.ListAnnouncements(ctx, translation, store.Page{})
	if err != nil || n != 1 || got[0].Expiry != "2030-01-31" || got[0].Created.IsZero() {
		t.Fatalf("translation announcements: %+v %d %v", got, n, err)
	}
	if err := s.DeleteAnnouncement(ctx, project, got[0].ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("delete through another context: %v", err)
	}
	if err := s.DeleteAnnouncement(ctx, translation, got[0].ID); err != nil {
		t.Errorf("delete: %v", err)
	}
	if chs := changefeedtest.All(t, gdb); len(chs) != 1 || chs[0].GetAction() != typev1.ChangeAction_CHANGE_ACTION_ANNOUNCEMENT {
		t.Errorf("change records: %v", chs)
	}
	testPlacedAnnouncements(t, s, p.ID)
}

// testPlacedAnnouncements: a category's and a project language's
// announcements are their own contexts, and a removed category takes its
// announcements with it.
func testPlacedAnnouncements(t *testing.T, s *store.Store, projectID int64) {
	ctx := t.Context()
	cat := &store.Category{ProjectID: projectID, Name: "Docs", Slug: "docs"}
	if err := s.SaveCategory(ctx, cat); err != nil {
		t.Fatal(err)
	}
	category := store.AnnouncementContext{ProjectID: projectID, CategoryID: cat.ID}
	language := store.AnnouncementContext{ProjectID: projectID, LanguageCode: "cs"}
	for _, a := range []*store.Announcement{
		{ProjectID: projectID, CategoryID: cat.ID, Message: "Docs freeze", Category: "info"},
		{ProjectID: projectID, LanguageCode: "cs", Message: "Czech glossary", Category: "info"},
	} {
		if err := s.CreateAnnouncement(ctx, a, nil); err != nil {
			t.Fatal(err)
		}
	}
	for name, at := range map[string]store.AnnouncementContext{"category": category, "language": language} {
		if got, n, err := s.ListAnnouncements(ctx, at, store.Page{}); err != nil || n != 1 {
			t.Errorf("%s announcements: %+v %d %v", name, got, n, err)
		}
	}
	if got, n, _ := s.ListAnnouncements(ctx, store.AnnouncementContext{ProjectID: projectID}, store.Page{}); n != 1 || got[0].Message != "Deadline Friday" {
		t.Errorf("the project's own announcements: %+v", got)
	}
	if _, err := s.DeleteCategory(ctx, cat.ID, func(store.Component) *changelogv1.Change { return nil }); err != nil {
		t.Fatal(err)
	}
	if _, n, _ := s.ListAnnouncements(ctx, category, store.Page{}); n != 0 {
		t.Errorf("a removed category left %d announcements", n)
	}
}

func testMachinerySettings(t *testing.T, s *store.Store, _ *gorm.DB) {
	ctx := t.Context()
	p := newProject("hello")
	if err := s.CreateProject(ctx, p, "", nil); err != nil {
		t.Fatal(err)
	}
	if got, err := s.GetMachinerySettings(ctx, p.ID); err != nil || len(got) != 0 {
		t.Fatalf("fresh: %v %v", got, err)
	}
	for _, cfg := range []map[string]any{{"key": "a"}, {"key": "b", "url": "https://x.example/"}} {
		if err := s.SetMachinerySetting(ctx, p.ID, "deepl", cfg); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SetMachinerySetting(ctx, p.ID, "weblate", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetMachinerySettings(ctx, p.ID)
	if err != nil || len(got) != 2 || got["deepl"]["key"] != "b" || got["deepl"]["url"] != "https://x.example/" {
		t.Errorf("settings: %v %v", got, err)
	}
	// Saving the project keeps them.
	p.Instructions = "Be kind"
	if err := s.SaveProject(ctx, p, nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetMachinerySettings(ctx, p.ID); len(got) != 2 {
		t.Errorf("after saving the project: %v", got)
	}
	if _, err := s.GetMachinerySettings(ctx, p.ID+100); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("missing project: %v", err)
	}
}

func newProject(slug string) *store.Project {
	return &store.Project{Name: "Project " + slug, Slug: slug, Web: "https://example.com/", SetLanguageTeam: true, EnableHooks: true}
}

func testProjects(t *testing.T, s *store.Store, gdb *gorm.DB) {
	ctx := t.Context()
	before := time.Now().UTC().Add(-time.Second)
	p := newProject("alpha")
	p.Instructions = "Be nice"
	if err := s.CreateProject(ctx, p, "", &changelogv1.Change{Action: typev1.ChangeAction_CHANGE_ACTION_CREATE_PROJECT, ProjectSlug: "alpha", User: "admin"}); err != nil {
		t.Fatal(err)
	}
	if p.ID == 0 || p.Created.Before(before) || p.Created.Location() != time.UTC {
		t.Errorf("created project %+v", p)
	}
	got, err := s.GetProject(ctx, "alpha")
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != p.Name || got.Instructions != "Be nice" || !got.SetLanguageTeam || got.Locked || !got.Created.Equal(p.Created) {
		t.Errorf("got %+v, want %+v", got, p)
	}
	if _, err = s.GetProject(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("missing project: %v", err)
	}
	for _, slug := range []string{"beta", "gamma"} {
		if err = s.CreateProject(ctx, newProject(slug), "", nil); err != nil {
			t.Fatal(err)
		}
	}
	list, total, err := s.ListProjects(ctx, store.Page{Offset: 1, Limit: 5}, store.Viewer{All: true})
	if err != nil || total != 3 || len(list) != 2 || list[0].Slug != "beta" || list[1].Slug != "gamma" {
		t.Errorf("list: %v %d %v", list, total, err)
	}
	got.Web = "https://example.org/"
	got.Slug = "alpha2"
	got.Enforced2FA = true
	if err = s.SaveProject(ctx, got, nil); err != nil {
		t.Fatal(err)
	}
	again, err := s.GetProject(ctx, "alpha2")
	if err != nil || again.Web != "https://example.org/" || !again.Enforced2FA || again.ID != p.ID {
		t.Errorf("after save: %+v %v", again, err)
	}
	if err := s.DeleteProject(ctx, "alpha2", &changelogv1.Change{Action: typev1.ChangeAction_CHANGE_ACTION_REMOVE_PROJECT, ProjectSlug: "alpha2"}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetProject(ctx, "alpha2"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("deleted project: %v", err)
	}
	if err := s.DeleteProject(ctx, "alpha2", nil, nil); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("delete twice: %v", err)
	}
	cs := changefeedtest.All(t, gdb)
	if len(cs) != 2 || cs[0].GetAction() != typev1.ChangeAction_CHANGE_ACTION_CREATE_PROJECT || cs[0].GetUser() != "admin" || cs[1].GetAction() != typev1.ChangeAction_CHANGE_ACTION_REMOVE_PROJECT || cs[0].GetTimestamp() == nil {
		t.Errorf("changes: %v", cs)
	}
}

func testProjectDuplicates(t *testing.T, s *store.Store, gdb *gorm.DB) {
	ctx := t.Context()
	if err := s.CreateProject(ctx, newProject("one"), "", nil); err != nil {
		t.Fatal(err)
	}
	two := newProject("two")
	if err := s.CreateProject(ctx, two, "", nil); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, slug, field string
	}{
		{"Project x", "one", "slug"},
		{"Project one", "x", "name"},
	}
	for _, c := range cases {
		p := &store.Project{Name: c.name, Slug: c.slug}
		var dup *store.DuplicateError
		if err := s.CreateProject(ctx, p, "", &changelogv1.Change{Action: typev1.ChangeAction_CHANGE_ACTION_CREATE_PROJECT}); !errors.As(err, &dup) || dup.Field != c.field {
			t.Errorf("create %s/%s: %v", c.name, c.slug, err)
		}
		two.Name, two.Slug = c.name, c.slug
		if err := s.SaveProject(ctx, two, nil); !errors.As(err, &dup) || dup.Field != c.field {
			t.Errorf("save %s/%s: %v", c.name, c.slug, err)
		}
	}
	if cs := changefeedtest.All(t, gdb); len(cs) != 0 {
		t.Errorf("failed creates recorded %v", cs)
	}
}

func newComponent(projectID int64, slug string) *store.Component {
	return &store.Component{ProjectID: projectID, Name: "Component " + slug, Slug: slug, SourceLanguageCode: "en",
		VCS: "git", Repo: "https://example.com/repo.git", Filemask: "po/*.po", FileFormat: "po",
		Settings: store.Settings{NewLang: "add"}, MergeStyle: "rebase", Priority: 100, EnableSuggestions: true, LanguageRegex: "^[^.]+$"}
}

func testComponents(t *testing.T, s *store.Store, gdb *gorm.DB) {
	ctx := t.Context()
	p := newProject("proj")
	if err := s.CreateProject(ctx, p, "", nil); err != nil {
		t.Fatal(err)
	}
	c := newComponent(p.ID, "main")
	c.EnforcedChecks = []string{"same", "end_stop"}
	if err := s.CreateComponent(ctx, c, &changelogv1.Change{Action: typev1.ChangeAction_CHANGE_ACTION_CREATE_COMPONENT, ProjectSlug: "proj", ComponentSlug: "main"}); err != nil {
		t.Fatal(err)
	}
	if c.ID == 0 || c.ProjectSlug != "proj" || c.LinkedComponent != "" || c.Created.IsZero() {
		t.Errorf("created %+v", c)
	}
	got, err := s.GetComponent(ctx, "proj", "main")
	if err != nil {
		t.Fatal(err)
	}
	if got.Filemask != "po/*.po" || len(got.EnforcedChecks) != 2 || got.EnforcedChecks[1] != "end_stop" || got.Priority != 100 || !got.EnableSuggestions {
		t.Errorf("got %+v", got)
	}
	byID, err := s.GetComponentByID(ctx, c.ID)
	if err != nil || byID.Slug != "main" || byID.ProjectSlug != "proj" {
		t.Errorf("by id: %+v %v", byID, err)
	}
	for _, get := range []func() error{
		func() error { _, gerr := s.GetComponent(ctx, "proj", "nope"); return gerr },
		func() error { _, gerr := s.GetComponent(ctx, "nope", "main"); return gerr },
		func() error { _, gerr := s.GetComponentByID(ctx, c.ID+100); return gerr },
		func() error {
			_, _, gerr := s.ListComponents(ctx, "nope", store.Page{}, store.Viewer{All: true})
			return gerr
		},
	} {
		if err = get(); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("missing: %v", err)
		}
	}
	// A second component sharing the first one's repository.
	linked := newComponent(p.ID, "linked")
	linked.Repo = "weblate://proj/main"
	linked.LinkedComponentID = &c.ID
	if err = s.CreateComponent(ctx, linked, nil); err != nil {
		t.Fatal(err)
	}
	if linked.LinkedComponent != "proj/main" {
		t.Errorf("linked path %q", linked.LinkedComponent)
	}
	other := newProject("other")
	if err = s.CreateProject(ctx, other, "", nil); err != nil {
		t.Fatal(err)
	}
	if err = s.CreateComponent(ctx, newComponent(other.ID, "main"), nil); err != nil {
		t.Fatal(err)
	}
	list, total, err := s.ListComponents(ctx, "proj", store.Page{}, store.Viewer{All: true})
	if err != nil || total != 2 || len(list) != 2 || list[0].Slug != "main" || list[1].LinkedComponent != "proj/main" {
		t.Errorf("list proj: %v %d %v", list, total, err)
	}
	list, total, err = s.ListComponents(ctx, "", store.Page{Offset: 2, Limit: 10}, store.Viewer{All: true})
	if err != nil || total != 3 || len(list) != 1 || list[0].ProjectSlug != "other" {
		t.Errorf("list all: %v %d %v", list, total, err)
	}
	got.Branch = "devel"
	got.Locked = true // not written by SaveComponent
	got.EnforcedChecks = nil
	if err = s.SaveComponent(ctx, got, nil); err != nil {
		t.Fatal(err)
	}
	if got.Branch != "devel" || got.Locked || got.ProjectSlug != "proj" || got.EnforcedChecks == nil || len(got.EnforcedChecks) != 0 {
		t.Errorf("after save %+v", got)
	}
	if cs := changefeedtest.All(t, gdb); len(cs) != 1 || cs[0].GetAction() != typev1.ChangeAction_CHANGE_ACTION_CREATE_COMPONENT || cs[0].GetComponentSlug() != "main" {
		t.Errorf("changes %v", cs)
	}
	// Renames of the linked component or its project follow into the link.
	got.Slug = "core"
	if err = s.SaveComponent(ctx, got, nil); err != nil {
		t.Fatal(err)
	}
	p.Slug = "proj2"
	if err = s.SaveProject(ctx, p, nil); err != nil {
		t.Fatal(err)
	}
	l, err := s.GetComponent(ctx, "proj2", "linked")
	if err != nil || l.Repo != "weblate://proj2/core" || l.LinkedComponent != "proj2/core" {
		t.Errorf("link after renames: %+v %v", l, err)
	}
}

func testComponentDuplicates(t *testing.T, s *store.Store, _ *gorm.DB) {
	ctx := t.Context()
	p := newProject("proj")
	if err := s.CreateProject(ctx, p, "", nil); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateComponent(ctx, newComponent(p.ID, "one"), nil); err != nil {
		t.Fatal(err)
	}
	two := newComponent(p.ID, "two")
	if err := s.CreateComponent(ctx, two, nil); err != nil {
		t.Fatal(err)
	}
	var dup *store.DuplicateError
	c := newComponent(p.ID, "one")
	c.Name = "fresh"
	if err := s.CreateComponent(ctx, c, nil); !errors.As(err, &dup) || dup.Field != "slug" {
		t.Errorf("dup slug: %v", err)
	}
	c = newComponent(p.ID, "fresh")
	c.Name = "Component one"
	if err := s.CreateComponent(ctx, c, nil); !errors.As(err, &dup) || dup.Field != "name" {
		t.Errorf("dup name: %v", err)
	}
	two.Slug = "one"
	if err := s.SaveComponent(ctx, two, nil); !errors.As(err, &dup) || dup.Field != "slug" {
		t.Errorf("save dup slug: %v", err)
	}
}

func testLock(t *testing.T, s *store.Store, gdb *gorm.DB) {
	ctx := t.Context()
	p := newProject("proj")
	if err := s.CreateProject(ctx, p, "", nil); err != nil {
		t.Fatal(err)
	}
	for _, slug := range []string{"a", "b"} {
		if err := s.CreateComponent(ctx, newComponent(p.ID, slug), nil); err != nil {
			t.Fatal(err)
		}
	}
	rec := func(action typev1.ChangeAction) func(store.Component) *changelogv1.Change {
		return func(c store.Component) *changelogv1.Change {
			return &changelogv1.Change{Action: action, ProjectSlug: c.ProjectSlug, ComponentSlug: c.Slug}
		}
	}
	steps := []struct {
		slug          string
		lock, changed bool
		projectLocked bool
	}{
		{"a", true, true, false},
		{"a", true, false, false},
		{"b", true, true, true},
		{"b", false, true, false},
		{"b", false, false, false},
	}
	want := 0
	for i, st := range steps {
		action := typev1.ChangeAction_CHANGE_ACTION_UNLOCK
		if st.lock {
			action = typev1.ChangeAction_CHANGE_ACTION_LOCK
		}
		c, changed, err := s.SetComponentLock(ctx, "proj", st.slug, st.lock, rec(action))
		if err != nil || changed != st.changed || c.Locked != st.lock {
			t.Fatalf("step %d: %+v %v %v", i, c, changed, err)
		}
		got, _ := s.GetComponent(ctx, "proj", st.slug)
		pr, _ := s.GetProject(ctx, "proj")
		if got.Locked != st.lock || pr.Locked != st.projectLocked {
			t.Errorf("step %d: component locked %v, project locked %v", i, got.Locked, pr.Locked)
		}
		if st.changed {
			want++
		}
		if cs := changefeedtest.All(t, gdb); len(cs) != want || (st.changed && cs[want-1].GetAction() != action) {
			t.Errorf("step %d: changes %v", i, cs)
		}
	}
	if _, _, err := s.SetComponentLock(ctx, "proj", "zzz", true, rec(typev1.ChangeAction_CHANGE_ACTION_LOCK)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("missing: %v", err)
	}
}

func testDeleteCascade(t *testing.T, s *store.Store, gdb *gorm.DB) {
	ctx := t.Context()
	p, q := newProject("p"), newProject("q")
	for _, pr := range []*store.Project{p, q} {
		if err := s.CreateProject(ctx, pr, "", nil); err != nil {
			t.Fatal(err)
		}
	}
	base := newComponent(p.ID, "base")
	if err := s.CreateComponent(ctx, base, nil); err != nil {
		t.Fatal(err)
	}
	child := newComponent(q.ID, "child")
	child.LinkedComponentID = &base.ID
	if err := s.CreateComponent(ctx, child, nil); err != nil {
		t.Fatal(err)
	}
	grandchild := newComponent(q.ID, "grandchild")
	grandchild.LinkedComponentID = &child.ID
	if err := s.CreateComponent(ctx, grandchild, nil); err != nil {
		t.Fatal(err)
	}
	keep := newComponent(q.ID, "keep")
	if err := s.CreateComponent(ctx, keep, nil); err != nil {
		t.Fatal(err)
	}
	removed := func(c store.Component) *changelogv1.Change {
		return &changelogv1.Change{Action: typev1.ChangeAction_CHANGE_ACTION_REMOVE_COMPONENT, ProjectSlug: c.ProjectSlug, Target: c.Slug}
	}
	if err := s.DeleteProject(ctx, "p", &changelogv1.Change{Action: typev1.ChangeAction_CHANGE_ACTION_REMOVE_PROJECT, ProjectSlug: "p"}, removed); err != nil {
		t.Fatal(err)
	}
	list, total, err := s.ListComponents(ctx, "", store.Page{}, store.Viewer{All: true})
	if err != nil || total != 1 || list[0].Slug != "keep" {
		t.Errorf("left: %v %d %v", list, total, err)
	}
	cs := changefeedtest.All(t, gdb)
	if len(cs) != 3 || cs[0].GetTarget() != "child" || cs[1].GetTarget() != "grandchild" || cs[2].GetAction() != typev1.ChangeAction_CHANGE_ACTION_REMOVE_PROJECT {
		t.Errorf("changes %v", cs)
	}
	if err := s.DeleteComponent(ctx, "q", "keep", removed); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteComponent(ctx, "q", "keep", removed); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("delete twice: %v", err)
	}
	if cs := changefeedtest.All(t, gdb); len(cs) != 4 || cs[3].GetAction() != typev1.ChangeAction_CHANGE_ACTION_REMOVE_COMPONENT || cs[3].GetProjectSlug() != "q" {
		t.Errorf("changes %v", cs)
	}
}

// testVisibility checks that a viewer who may not see private projects
// finds them in no list and no count.
func testVisibility(t *testing.T, s *store.Store, _ *gorm.DB) {
	ctx := t.Context()
	for _, x := range []struct {
		slug   string
		access int32
	}{{"open", 0}, {"guarded", 1}, {"secret", 100}, {"custom", 200}} {
		p := newProject(x.slug)
		p.AccessControl = x.access
		if err := s.CreateProject(ctx, p, "", nil); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateComponent(ctx, newComponent(p.ID, "c"), nil); err != nil {
			t.Fatal(err)
		}
	}
	outsider, all := store.Viewer{Levels: []int32{0, 1}}, store.Viewer{All: true}
	ps, total, err := s.ListProjects(ctx, store.Page{}, outsider)
	if err != nil || total != 2 || len(ps) != 2 || ps[0].Slug != "open" || ps[1].Slug != "guarded" {
		t.Errorf("outsider's projects: %d %v %v", total, ps, err)
	}
	if _, total, _ = s.ListProjects(ctx, store.Page{}, all); total != 4 {
		t.Errorf("all projects: %d", total)
	}
	cs, total, err := s.ListComponents(ctx, "", store.Page{}, outsider)
	if err != nil || total != 2 || len(cs) != 2 {
		t.Errorf("outsider's components: %d %v %v", total, cs, err)
	}
	for _, c := range cs {
		if c.ProjectSlug == "secret" || c.ProjectSlug == "custom" || c.ProjectAccess >= 100 {
			t.Errorf("outsider lists %s/%s", c.ProjectSlug, c.Slug)
		}
	}
	if _, _, err := s.ListComponents(ctx, "secret", store.Page{}, outsider); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("outsider lists a private project's components: %v", err)
	}
	if c, err := s.GetComponent(ctx, "secret", "c"); err != nil || c.ProjectAccess != 100 {
		t.Errorf("component reads carry the project's access level: %+v %v", c, err)
	}
}

// testSearch: names and slugs (a language's code) match anywhere,
// ignoring case, LIKE's wildcards are plain characters, each kind comes by
// name up to the limit, and a viewer finds only the projects it may see
// and what is in them.
func testSearch(t *testing.T, s *store.Store, _ *gorm.DB) {
	ctx := t.Context()
	seed(t, s)
	open, closed := newProject("open_docs"), newProject("closed")
	closed.AccessControl = 100
	for _, p := range []*store.Project{open, closed} {
		if err := s.CreateProject(ctx, p, "", nil); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateComponent(ctx, newComponent(p.ID, "docs"), nil); err != nil {
			t.Fatal(err)
		}
		if err := s.SaveCategory(ctx, &store.Category{ProjectID: p.ID, Name: "Docs", Slug: "manuals"}); err != nil {
			t.Fatal(err)
		}
	}
	public := store.Viewer{Levels: []int32{0}}
	names := func(f store.Found) []string {
		var out []string
		for _, p := range f.Projects {
			out = append(out, "project "+p.Slug)
		}
		for _, c := range f.Categories {
			out = append(out, "category "+c.ProjectSlug+"/"+c.Slug)
		}
		for _, c := range f.Components {
			out = append(out, "component "+c.ProjectSlug+"/"+c.Slug)
		}
		for _, l := range f.Languages {
			out = append(out, "language "+l.Code)
		}
		return out
	}
	cases := []struct {
		text  string
		limit int
		v     store.Viewer
		want  []string
	}{
		{"DOCS", 5, store.Viewer{All: true}, []string{"project open_docs", "category open_docs/manuals", "category closed/manuals",
			"component open_docs/docs", "component closed/docs"}}, // one name: by id
		{"docs", 5, public, []string{"project open_docs", "category open_docs/manuals", "component open_docs/docs"}},
		{"docs", 1, store.Viewer{All: true}, []string{"project open_docs", "category open_docs/manuals", "component open_docs/docs"}},
		{"_", 5, store.Viewer{All: true}, []string{"project open_docs"}},
		{"%", 5, store.Viewer{All: true}, nil},
		{"AR", 5, public, []string{"language ar"}},
		{"czech", 5, public, []string{"language cs"}},
		{"", 5, store.Viewer{All: true}, nil},
	}
	for _, c := range cases {
		found, err := s.Search(ctx, c.text, c.limit, c.v)
		if got := names(found); err != nil || strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("search %q (limit %d): %v %v, want %v", c.text, c.limit, got, err, c.want)
		}
	}
}
