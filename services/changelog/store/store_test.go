package store_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/pgtest"
	"github.com/tmsproject/tms/services/changelog/store"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// base is a timestamp with a non-zero microsecond part and nanoseconds that
// storage must drop.
var base = time.Date(2024, 5, 6, 7, 8, 9, 123456789, time.UTC)

func change(id string, action int32, project, component, lang string, at time.Time) store.Change {
	return store.Change{EventID: id, Action: action, ProjectSlug: project, ComponentSlug: component,
		LanguageCode: lang, Timestamp: at}
}

// TestStore is the storage conformance suite, run on both engines.
func TestStore(t *testing.T) {
	cases := []struct {
		name string
		run  func(t *testing.T, s *store.Store)
	}{
		{"append and get round trip", testRoundTrip},
		{"append is idempotent by event id", testIdempotent},
		{"large batch", testLargeBatch},
		{"list filters", testFilters},
		{"list order and paging", testOrderPaging},
		{"timestamp order across fraction lengths", testFractionOrder},
		{"get unknown", testGetUnknown},
		{"negative paging", testNegativePaging},
		{"string removed detaches the unit", testRemovedUnitDetached},
		{"user activity and contributions", testUserActivity},
		{"contributions leave removed translations out", testContributionsRemoved},
		{"after a cursor", testAfter},
		{"credits", testCredits},
		{"renames", testRenames},
		{"a removed translation's records go with it", testRemovedTranslationForgotten},
	}
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				if err := gdb.Exec("DELETE FROM changes").Error; err != nil {
					t.Fatal(err)
				}
				c.run(t, store.New(gdb))
			})
		}
	}, store.Migrations)
}

func testRoundTrip(t *testing.T, s *store.Store) {
	in := store.Change{EventID: "e1", Action: 4, ProjectSlug: "p", ComponentSlug: "c", LanguageCode: "cs",
		UnitID: 42, User: "alice", Author: "bob", Target: "nový", Old: "starý",
		DetailsJSON: `{"state":10,"source":"x"}`, Timestamp: base.In(time.FixedZone("X", 3600))}
	n, err := s.Append(t.Context(), []store.Change{in})
	if err != nil || n != 1 {
		t.Fatalf("append: %d %v", n, err)
	}
	list, total, err := s.List(t.Context(), store.Filter{}, 0, 10)
	if err != nil || total != 1 || len(list) != 1 {
		t.Fatalf("list: %v %d %v", list, total, err)
	}
	got, err := s.Get(t.Context(), list[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	want := in
	want.ID = got.ID
	want.Timestamp = base.Truncate(time.Microsecond)
	if got != want {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	if got.Timestamp.Location() != time.UTC {
		t.Fatalf("timestamp not UTC: %v", got.Timestamp)
	}
}

func testIdempotent(t *testing.T, s *store.Store) {
	first := []store.Change{change("a", 1, "p", "c", "", base), change("b", 2, "p", "c", "", base)}
	if n, err := s.Append(t.Context(), first); err != nil || n != 2 {
		t.Fatalf("first: %d %v", n, err)
	}
	replay := first[0]
	replay.Target = "changed"
	second := []store.Change{replay, change("c", 3, "p", "c", "", base), change("c", 3, "p", "c", "", base)}
	if n, err := s.Append(t.Context(), second); err != nil || n != 1 {
		t.Fatalf("second: %d %v", n, err)
	}
	list, total, err := s.List(t.Context(), store.Filter{}, 0, 0)
	if err != nil || total != 3 {
		t.Fatalf("total %d %v", total, err)
	}
	for _, c := range list {
		if c.Target == "changed" {
			t.Fatal("a replay overwrote the stored record")
		}
	}
	if n, err := s.Append(t.Context(), nil); err != nil || n != 0 {
		t.Fatalf("empty: %d %v", n, err)
	}
}

func testLargeBatch(t *testing.T, s *store.Store) {
	const n = 1234 // spans several INSERT statements
	cs := make([]store.Change, n)
	for i := range cs {
		cs[i] = change(fmt.Sprintf("ev-%d", i), 2, "p", "c", "de", base.Add(time.Duration(i)*time.Second))
	}
	if got, err := s.Append(t.Context(), cs); err != nil || got != n {
		t.Fatalf("append: %d %v", got, err)
	}
	if got, err := s.Append(t.Context(), cs); err != nil || got != 0 {
		t.Fatalf("replay: %d %v", got, err)
	}
	page, total, err := s.List(t.Context(), store.Filter{ComponentSlug: "c"}, 0, 0)
	if err != nil || total != n || len(page) != store.MaxLimit {
		t.Fatalf("list: %d %d %v", len(page), total, err)
	}
	if page[0].EventID != fmt.Sprintf("ev-%d", n-1) {
		t.Fatalf("newest first: %s", page[0].EventID)
	}
}

func seed(t *testing.T, s *store.Store) {
	t.Helper()
	cs := []store.Change{
		change("1", 14, "p", "c", "", base),                   // component level
		change("2", 5, "p", "c", "cs", base.Add(time.Second)), // translation
		change("3", 2, "p", "c", "de", base.Add(2*time.Second)),
		change("4", 2, "p", "d", "cs", base.Add(3*time.Second)), // other component
		change("5", 4, "q", "c", "cs", base.Add(4*time.Second)), // other project
	}
	cs[1].UnitID, cs[1].User = 7, "alice"
	cs[2].UnitID, cs[2].User = 8, "bob"
	cs[3].User = "alice"
	if _, err := s.Append(t.Context(), cs); err != nil {
		t.Fatal(err)
	}
}

func testFilters(t *testing.T, s *store.Store) {
	seed(t, s)
	cases := []struct {
		name string
		f    store.Filter
		want []string
	}{
		{"all", store.Filter{}, []string{"5", "4", "3", "2", "1"}},
		{"project", store.Filter{ProjectSlug: "p"}, []string{"4", "3", "2", "1"}},
		{"component", store.Filter{ProjectSlug: "p", ComponentSlug: "c"}, []string{"3", "2", "1"}},
		{"translation", store.Filter{ProjectSlug: "p", ComponentSlug: "c", LanguageCode: "cs"}, []string{"2"}},
		{"language anywhere", store.Filter{LanguageCode: "cs"}, []string{"5", "4", "2"}},
		{"unit", store.Filter{UnitID: 8}, []string{"3"}},
		{"user", store.Filter{User: "alice"}, []string{"4", "2"}},
		{"actions or", store.Filter{Actions: []int32{14, 4}}, []string{"5", "1"}},
		{"after inclusive", store.Filter{After: base.Add(3 * time.Second)}, []string{"5", "4"}},
		{"before inclusive", store.Filter{Before: base.Add(time.Second)}, []string{"2", "1"}},
		{"window", store.Filter{After: base.Add(time.Second), Before: base.Add(2 * time.Second)}, []string{"3", "2"}},
		{"combined", store.Filter{ProjectSlug: "p", User: "alice", Actions: []int32{2}}, []string{"4"}},
		{"nothing", store.Filter{ProjectSlug: "zzz"}, []string{}},
		{"p not seen", store.Filter{Seen: store.Seen{Restricted: true, Projects: []string{"q"}}}, []string{"5"}},
		{"nothing seen", store.Filter{Seen: store.Seen{Restricted: true}}, []string{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			list, total, err := s.List(t.Context(), c.f, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			if got := eventIDs(list); fmt.Sprint(got) != fmt.Sprint(c.want) || total != int64(len(c.want)) {
				t.Fatalf("got %v (total %d), want %v", got, total, c.want)
			}
		})
	}
}

func eventIDs(cs []store.Change) []string {
	out := []string{}
	for _, c := range cs {
		out = append(out, c.EventID)
	}
	return out
}

func testOrderPaging(t *testing.T, s *store.Store) {
	// Same timestamp: id breaks the tie, newest (highest id) first.
	cs := []store.Change{change("x", 0, "p", "c", "", base), change("y", 0, "p", "c", "", base),
		change("z", 0, "p", "c", "", base), change("old", 0, "p", "c", "", base.Add(-time.Hour))}
	if _, err := s.Append(t.Context(), cs); err != nil {
		t.Fatal(err)
	}
	pages := []struct {
		offset, limit int
		want          []string
	}{
		{0, 2, []string{"z", "y"}},
		{2, 2, []string{"x", "old"}},
		{3, 5, []string{"old"}},
		{4, 2, []string{}},
		{100, 2, []string{}},
	}
	for _, p := range pages {
		list, total, err := s.List(t.Context(), store.Filter{}, p.offset, p.limit)
		if err != nil || total != 4 || fmt.Sprint(eventIDs(list)) != fmt.Sprint(p.want) {
			t.Fatalf("offset %d limit %d: %v total %d err %v, want %v", p.offset, p.limit, eventIDs(list), total, err, p.want)
		}
	}
}

// testFractionOrder checks that ordering and range filters follow time, not
// text, whatever the length of the fractional seconds.
func testFractionOrder(t *testing.T, s *store.Store) {
	t0 := time.Date(2024, 1, 1, 10, 0, 5, 0, time.UTC)
	offsets := []time.Duration{0, 100 * time.Millisecond, 120 * time.Millisecond, 999999 * time.Microsecond,
		time.Second, time.Second + time.Microsecond, -time.Microsecond}
	var cs []store.Change
	for i, d := range offsets {
		cs = append(cs, change(fmt.Sprint(i), 0, "p", "c", "", t0.Add(d)))
	}
	if _, err := s.Append(t.Context(), cs); err != nil {
		t.Fatal(err)
	}
	list, _, err := s.List(t.Context(), store.Filter{}, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(eventIDs(list)), "[5 4 3 2 1 0 6]"; got != want {
		t.Fatalf("order %s, want %s", got, want)
	}
	list, _, err = s.List(t.Context(), store.Filter{After: t0, Before: t0.Add(time.Second)}, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(eventIDs(list)), "[4 3 2 1 0]"; got != want {
		t.Fatalf("window %s, want %s", got, want)
	}
}

func testGetUnknown(t *testing.T, s *store.Store) {
	if _, err := s.Get(t.Context(), 999); !errs.Is(err, errs.NotFound) {
		t.Fatalf("got %v, want NotFound", err)
	}
}

func testNegativePaging(t *testing.T, s *store.Store) {
	for _, p := range [][2]int{{-1, 0}, {0, -1}} {
		if _, _, err := s.List(t.Context(), store.Filter{}, p[0], p[1]); !errs.Is(err, errs.InvalidArgument) {
			t.Fatalf("%v: got %v, want InvalidArgument", p, err)
		}
	}
}

func testRemovedUnitDetached(t *testing.T, s *store.Store) {
	at := base
	rec := func(id string, action int32, unit int64) store.Change {
		at = at.Add(time.Second)
		return store.Change{EventID: id, Action: action, ProjectSlug: "p", ComponentSlug: "c", LanguageCode: "de", UnitID: unit, Timestamp: at}
	}
	if _, err := s.Append(t.Context(), []store.Change{rec("a", 5, 7), rec("b", 2, 8)}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(t.Context(), []store.Change{rec("c", store.ActionStringRemoved, 7)}); err != nil {
		t.Fatal(err)
	}
	if _, n, _ := s.List(t.Context(), store.Filter{UnitID: 7}, 0, 10); n != 0 {
		t.Errorf("%d records still link the removed unit", n)
	}
	if _, n, _ := s.List(t.Context(), store.Filter{UnitID: 8}, 0, 10); n != 1 {
		t.Errorf("the other unit lost its record: %d", n)
	}
	if _, n, _ := s.List(t.Context(), store.Filter{}, 0, 10); n != 3 {
		t.Errorf("records lost: %d of 3", n)
	}
}

func testUserActivity(t *testing.T, s *store.Store) {
	ctx := t.Context()
	cs := []store.Change{
		change("a1", 5, "p", "c", "cs", base), change("a2", 2, "p", "c", "cs", base.Add(time.Second)),
		change("a3", 36, "p", "c", "de", base.Add(2*time.Second)), change("a4", 4, "p", "d", "de", base.Add(3*time.Second)),
		change("a5", 3, "q", "c", "fr", base.Add(4*time.Second)), change("a6", 5, "q", "c", "fr", base.Add(5*time.Second)),
		change("b1", 5, "p", "c", "it", base.Add(6*time.Second)),
	}
	for i := range cs {
		cs[i].User = "alice"
	}
	cs[6].User = "bob"
	if _, err := s.Append(ctx, cs); err != nil {
		t.Fatal(err)
	}
	counts, langs, err := s.UserActivity(ctx, "alice", store.Seen{})
	if err != nil || fmt.Sprint(counts) != "[{2 1} {3 1} {4 1} {5 2} {36 1}]" || langs != 3 {
		t.Errorf("activity: %v, %d languages, %v", counts, langs, err)
	}
	counts, langs, err = s.UserActivity(ctx, "alice", store.Seen{Restricted: true, Projects: []string{"p"}})
	if err != nil || fmt.Sprint(counts) != "[{2 1} {4 1} {5 1} {36 1}]" || langs != 2 {
		t.Errorf("activity without q: %v, %d languages, %v", counts, langs, err)
	}
	list, total, err := s.Contributions(ctx, "alice", store.Seen{}, 1, 2)
	if err != nil || total != 4 || fmt.Sprint(list) != "[{p c de 1} {p d de 1}]" {
		t.Errorf("contributions page: %v total %d, %v", list, total, err)
	}
	list, total, err = s.Contributions(ctx, "alice", store.Seen{Restricted: true, Projects: []string{"p", "renamed"}}, 0, 0)
	if err != nil || total != 3 || fmt.Sprint(list) != "[{p c cs 2} {p c de 1} {p d de 1}]" {
		t.Errorf("contributions without q: %v total %d, %v", list, total, err)
	}
}

// testContributionsRemoved removes translations, a component and a
// project alice has records in: each is gone from her contributions, and
// from their total, unless she made records after it came back.
func testContributionsRemoved(t *testing.T, s *store.Store) {
	ctx := t.Context()
	at := func(n int) time.Time { return base.Add(time.Duration(n) * time.Second) }
	removal := func(id string, action int32, project, component, lang, target string, n int) store.Change {
		c := change(id, action, project, component, lang, at(n))
		c.Target, c.User = target, "admin"
		return c
	}
	cs := []store.Change{
		change("a1", 5, "p", "c", "cs", at(0)), change("a2", 5, "p", "c", "de", at(1)),
		change("a3", 5, "p", "d", "de", at(2)), change("a4", 5, "q", "c", "fr", at(3)),
		change("a5", 5, "p", "c", "it", at(4)), change("a6", 5, "p", "c", "it", at(9)),
		change("a7", 5, "r", "c", "fr", at(10)),
		removal("r1", store.ActionRemoveTranslation, "p", "c", "cs", "po/cs.po", 5),
		removal("r2", store.ActionRemoveComponent, "p", "", "", "d", 6),
		removal("r3", store.ActionRemoveProject, "", "", "", "q", 7),
		removal("r4", store.ActionRemoveTranslation, "p", "c", "it", "po/it.po", 8),
		removal("r5", store.ActionRemoveProject, "", "", "", "r", 8), // before a7: r made again
	}
	for i := range cs {
		if cs[i].User == "" {
			cs[i].User = "alice"
		}
	}
	// The remover's own record of a removed translation is no contribution.
	cs = append(cs, removal("r6", store.ActionRemoveTranslation, "p", "c", "de", "po/de.po", 11))
	cs[len(cs)-1].User = "alice"
	if _, err := s.Append(ctx, cs); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		seen store.Seen
		want string
	}{
		{"everything seen", store.Seen{}, "[{p c it 1} {r c fr 1}]"},
		{"r not seen", store.Seen{Restricted: true, Projects: []string{"p", "q"}}, "[{p c it 1}]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			list, total, err := s.Contributions(ctx, "alice", c.seen, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint(list); got != c.want {
				t.Errorf("contributions %s, want %s", got, c.want)
			}
			if total != int64(len(list)) {
				t.Errorf("total %d for %d listed", total, len(list))
			}
		})
	}
}

func testAfter(t *testing.T, s *store.Store) {
	seed(t, s)
	all, err := s.After(t.Context(), 0, 0, store.Seen{})
	if err != nil || fmt.Sprint(eventIDs(all)) != "[1 2 3 4 5]" {
		t.Fatalf("after 0: %v %v", eventIDs(all), err)
	}
	page, err := s.After(t.Context(), all[1].ID, 2, store.Seen{})
	if err != nil || fmt.Sprint(eventIDs(page)) != "[3 4]" {
		t.Errorf("after the second: %v %v", eventIDs(page), err)
	}
	visible, err := s.After(t.Context(), 0, 0, store.Seen{Restricted: true, Projects: []string{"q"}})
	if err != nil || fmt.Sprint(eventIDs(visible)) != "[5]" {
		t.Errorf("hiding p: %v %v", eventIDs(visible), err)
	}
	if rest, err := s.After(t.Context(), all[4].ID, 0, store.Seen{}); err != nil || len(rest) != 0 {
		t.Errorf("after the last: %v %v", rest, err)
	}
}

func testCredits(t *testing.T, s *store.Store) {
	ctx := t.Context()
	authored := func(id, author string, action int32, project, component, lang string, at time.Time) store.Change {
		c := change(id, action, project, component, lang, at)
		c.Author = author
		return c
	}
	cs := []store.Change{
		authored("c1", "bob", 5, "p", "c", "de", base), authored("c2", "alice", 2, "p", "c", "de", base.Add(time.Second)),
		authored("c3", "alice", 2, "p", "c", "de", base.Add(2*time.Second)), authored("c4", "alice", 5, "p", "d", "cs", base.Add(3*time.Second)),
		authored("c5", "carol", 5, "q", "c", "de", base.Add(4*time.Second)), authored("c6", "", 5, "p", "c", "de", base.Add(5*time.Second)),
		authored("c7", "dave", 5, "p", "c", "", base.Add(6*time.Second)), authored("c8", "bob", 14, "p", "c", "de", base.Add(7*time.Second)),
	}
	if _, err := s.Append(ctx, cs); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		f    store.Filter
		want string
	}{
		{"all", store.Filter{}, "[{cs alice 1} {de alice 2} {de bob 2} {de carol 1}]"},
		{"content actions", store.Filter{Actions: []int32{2, 5}}, "[{cs alice 1} {de alice 2} {de bob 1} {de carol 1}]"},
		{"q not seen", store.Filter{Seen: store.Seen{Restricted: true, Projects: []string{"p"}}}, "[{cs alice 1} {de alice 2} {de bob 2}]"},
		{"a component", store.Filter{ProjectSlug: "p", ComponentSlug: "c"}, "[{de alice 2} {de bob 2}]"},
		{"a language and time", store.Filter{LanguageCode: "de", After: base.Add(time.Second), Before: base.Add(4 * time.Second)},
			"[{de alice 2} {de carol 1}]"},
	} {
		got, err := s.Credits(ctx, tc.f)
		if err != nil || fmt.Sprint(got) != tc.want {
			t.Errorf("%s: %v, %v; want %s", tc.name, got, err, tc.want)
		}
	}
}

// testRenames: a project's and a component's rename files their earlier
// records under the new slug; a project that takes the former slug later
// keeps its records, also when the rename is delivered again.
func testRenames(t *testing.T, s *store.Store) {
	ctx := t.Context()
	rename := func(id string, action int32, project, old, target string) store.Change {
		c := change(id, action, project, "", "", base)
		c.Old, c.Target = old, target
		return c
	}
	batches := [][]store.Change{
		{change("1", 5, "p", "c", "de", base), change("2", 5, "p", "d", "de", base), change("3", 5, "q", "c", "de", base)},
		{rename("r1", store.ActionRenameProject, "p2", "p", "p2")},
		{change("4", 5, "p", "c", "de", base)},                     // a new project p
		{rename("r1", store.ActionRenameProject, "p2", "p", "p2")}, // delivered again
		{rename("r2", store.ActionRenameComponent, "p2", "c", "c2")},
	}
	for _, b := range batches {
		if _, err := s.Append(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	list, _, err := s.List(ctx, store.Filter{}, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range list {
		got[c.EventID] = c.ProjectSlug + "/" + c.ComponentSlug
	}
	want := map[string]string{"1": "p2/c2", "2": "p2/d", "3": "q/c", "4": "p/c", "r1": "p2/", "r2": "p2/"}
	if !maps.Equal(got, want) {
		t.Errorf("records filed under %v, want %v", got, want)
	}
}

// testRemovedTranslationForgotten: a translation's removal deletes its
// earlier records and stays, under its component only, as Weblate
// deletes a translation's changes with it and records the removal
// without it; a later record of the language (added again) stays, and a
// removal delivered again changes nothing.
func testRemovedTranslationForgotten(t *testing.T, s *store.Store) {
	ctx := t.Context()
	at := func(n int) time.Time { return base.Add(time.Duration(n) * time.Second) }
	removal := change("r1", store.ActionRemoveTranslation, "p", "c", "de", at(5))
	removal.Target = "po/de.po"
	for _, batch := range [][]store.Change{
		{change("a1", 5, "p", "c", "de", at(0)), change("a2", 2, "p", "c", "de", at(1)), change("a3", 5, "p", "c", "fr", at(2)),
			change("a4", 5, "p", "d", "de", at(3)), change("a5", 5, "q", "c", "de", at(4))},
		{removal, change("a6", 5, "p", "c", "de", at(6))},
		{removal}, // delivered again
	} {
		if _, err := s.Append(ctx, batch); err != nil {
			t.Fatal(err)
		}
		list, _, err := s.List(ctx, store.Filter{}, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range list {
			got = append(got, c.EventID+":"+c.LanguageCode)
		}
		slices.Sort(got)
		if len(batch) == 5 {
			continue
		}
		if want := "a3:fr a4:de a5:de a6:de r1:"; strings.Join(got, " ") != want {
			t.Errorf("records %v, want %s", got, want)
		}
	}
}
