package rest

import (
	"encoding/json"
	"math"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/tmsproject/tms/gateway/rest/wire"
	"github.com/tmsproject/tms/pkg/changedetails"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
)

// Field lists of the external conformance checks.
var (
	fLanguage = split("id code name plural aliases direction population web_url url statistics_url")
	fProject  = split("name slug id web web_url url components_list_url repository_url statistics_url categories_url " +
		"changes_list_url languages_url labels_url translation_review source_review set_language_team instructions enable_hooks language_aliases")
	fSettings    = split("license agreement new_lang language_code_style commit_message add_message delete_message merge_message addon_message pull_message")
	fInherited   = inheritedFields()
	fProjectFull = append(append(split("credits_url lock_url metrics_url machinery_settings check_flags commit_policy secondary_language enforced_2fa locked use_shared_tm contribute_shared_tm"),
		fSettings...), fInherited...)
	fComponent = split("name slug id source_language project vcs repo git_export branch push_branch filemask screenshot_filemask " +
		"template edit_template intermediate new_base file_format license license_url agreement web_url url repository_url " +
		"translations_url statistics_url lock_url links_url changes_list_url task_url new_lang language_code_style push " +
		"check_flags priority enforced_checks restricted repoweb report_source_bugs merge_style commit_message add_message " +
		"delete_message merge_message addon_message pull_message allow_translation_propagation manage_units enable_suggestions " +
		"suggestion_voting suggestion_autoaccept push_on_commit commit_pending_age auto_lock_error language_regex variant_regex " +
		"addons is_glossary glossary_color category")
	fComponentFull = append(split("credits_url key_filter secondary_language locked"), fInherited...)
	fTranslation   = split("language language_code id filename revision web_url share_url translate_url url is_template is_source " +
		"total total_words translated translated_words translated_percent fuzzy fuzzy_words fuzzy_percent failing_checks " +
		"failing_checks_words failing_checks_percent have_suggestion have_comment last_change last_author repository_url " +
		"file_url statistics_url changes_list_url units_list_url")
	fStats = split("total total_words total_chars last_change recent_changes translated translated_words translated_chars " +
		"translated_percent translated_words_percent translated_chars_percent fuzzy fuzzy_words fuzzy_chars fuzzy_percent " +
		"fuzzy_words_percent fuzzy_chars_percent approved approved_words approved_chars approved_percent approved_words_percent " +
		"approved_chars_percent readonly readonly_words readonly_chars readonly_percent readonly_words_percent " +
		"readonly_chars_percent failing failing_percent suggestions comments code name url translate_url last_author")
	fUnit = split("translation language_code source previous_source target id_hash content_hash location context note flags " +
		"labels state fuzzy translated approved position has_suggestion has_comment has_failing_check num_words source_unit " +
		"priority id web_url url explanation extra_flags pending timestamp")
	fChange = split("unit component translation user author timestamp action target old details id action_name url alert")
)

func split(s string) []string { return strings.Fields(s) }

// inheritedFields are the inherit_ and effective_ keys of each
// inheritable setting, and effective_check_flags.
func inheritedFields() []string {
	out := []string{"effective_check_flags"}
	for _, n := range split("license agreement new_lang language_code_style secondary_language commit_message add_message " +
		"delete_message merge_message addon_message pull_message") {
		out = append(out, "inherit_"+n, "effective_"+n)
	}
	return out
}

// testCall is a call whose lookups are already answered, so rendering runs
// without backends.
func testCall(target string) *call {
	r := httptest.NewRequest("GET", target, nil)
	r.Host = "tms.test"
	c := &call{r: r, ctx: r.Context(), urls: newURLs(r, false), lookups: newLookups()}
	c.projects["hello"] = memoEntry[*catalogv1.Project]{v: &catalogv1.Project{Id: 1, Name: "Hello", Slug: "hello", Web: "https://hello.example/",
		SecondaryLanguageCode: "de"}}
	for _, l := range []*catalogv1.Language{
		{Id: 1, Code: "en", Name: "English", PluralNumber: 2, PluralFormula: "n != 1"},
		{Id: 2, Code: "cs", Name: "Czech", PluralNumber: 3, PluralFormula: "(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2"},
		{Id: 3, Code: "de", Name: "German", PluralNumber: 2, PluralFormula: "n != 1"},
	} {
		c.langs[l.Code] = memoEntry[*catalogv1.Language]{v: l}
	}
	return c
}

func testComponent() *catalogv1.Component {
	return &catalogv1.Component{Id: 7, ProjectSlug: "hello", Name: "Web App", Slug: "greeter", SourceLanguageCode: "en",
		Vcs: "git", Repo: "file:///x", Branch: "main", Filemask: "po/*.po", FileFormat: "po", Priority: 100}
}

func testTranslation(lang string, st *translationv1.Statistics) *translationv1.Translation {
	return &translationv1.Translation{Id: 3, ComponentId: 7, ProjectSlug: "hello", ComponentSlug: "greeter",
		LanguageCode: lang, Filename: "po/" + lang + ".po", IsSource: lang == "en", Stats: st}
}

// decode renders v like a response and returns the generic JSON object.
func decode(t *testing.T, v any) map[string]any {
	t.Helper()
	var buf strings.Builder
	if err := wire.Encode(&buf, v); err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(buf.String()), &out); err != nil {
		t.Fatal(err)
	}
	out["\x00raw"] = buf.String()
	return out
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		if k != "\x00raw" {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// sameFields checks that obj has exactly want (plus extra).
func sameFields(t *testing.T, what string, obj map[string]any, want []string, extra ...string) {
	t.Helper()
	all := append(append([]string{}, want...), extra...)
	sort.Strings(all)
	if got := keys(obj); strings.Join(got, " ") != strings.Join(all, " ") {
		t.Errorf("%s fields\n got %v\nwant %v", what, got, all)
	}
}

func TestComponentForms(t *testing.T) {
	c := testCall("/api/components/hello/greeter/?format=api")
	full, err := c.componentJSON(testComponent(), true, "")
	if err != nil {
		t.Fatal(err)
	}
	obj := decode(t, full)
	sameFields(t, "full component", obj, append(fComponent, fComponentFull...), "announcements_url")
	sameFields(t, "full project", obj["project"].(map[string]any), append(fProject, fProjectFull...), "announcements_url")
	sameFields(t, "source language", obj["source_language"].(map[string]any), fLanguage)
	if obj["task_url"] != nil || obj["category"] != nil {
		t.Error("task_url and category must be null")
	}
	if sl := obj["project"].(map[string]any)["secondary_language"].(map[string]any); sl["code"] != "de" {
		t.Errorf("secondary language %v", sl)
	}
	if obj["url"] != "http://tms.test/api/components/hello/greeter/?format=api" {
		t.Errorf("url %v", obj["url"])
	}
	for _, u := range apiURLs(obj, nil) {
		if !strings.HasSuffix(u, "?format=api") {
			t.Errorf("API URL without format=api: %s", u)
		}
	}
	if web := obj["web_url"].(string); strings.Contains(web, "format") {
		t.Errorf("web URL %s", web)
	}
}

func apiURLs(v any, out []string) []string {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if k != "\x00raw" {
				out = apiURLs(x, out)
			}
		}
	case []any:
		for _, x := range v {
			out = apiURLs(x, out)
		}
	case string:
		if strings.HasPrefix(v, "http") && strings.Contains(v, "/api/") {
			out = append(out, v)
		}
	}
	return out
}

func TestTranslationForms(t *testing.T) {
	c := testCall("/api/translations/hello/greeter/cs/")
	st := &translationv1.Statistics{Total: 15, TotalWords: 39, Translated: 13, Fuzzy: 0,
		LastChange: timestamppb.New(time.Date(2026, 3, 29, 18, 42, 42, 617681000, time.UTC))}
	single, err := c.translationJSON(testTranslation("cs", st), testComponent())
	if err != nil {
		t.Fatal(err)
	}
	obj := decode(t, single)
	sameFields(t, "single translation", obj, fTranslation, "component")
	sameFields(t, "nested component", obj["component"].(map[string]any), fComponent, "announcements_url")
	sameFields(t, "nested project", obj["component"].(map[string]any)["project"].(map[string]any), fProject, "announcements_url")
	raw := obj["\x00raw"].(string)
	for _, want := range []string{`"translated_percent":86.6`, `"fuzzy_percent":0.0`, `"last_change":"2026-03-29T18:42:42.617681Z"`,
		`"last_author":null`, `"share_url":"http://tms.test/engage/hello/-/cs/"`, `"translate_url":"http://tms.test/translate/hello/greeter/cs/"`} {
		if !strings.Contains(raw, want) {
			t.Errorf("missing %s in %s", want, raw)
		}
	}

	list, err := c.translationJSON(testTranslation("cs", st), nil)
	if err != nil {
		t.Fatal(err)
	}
	obj = decode(t, list)
	sameFields(t, "list translation", obj, fTranslation, "announcements_url")
	if obj["filename"] != "po/cs.po" {
		t.Errorf("list filename %v", obj["filename"])
	}

	src, _ := c.translationJSON(testTranslation("en", &translationv1.Statistics{}), testComponent())
	obj = decode(t, src)
	if obj["filename"] != "" || obj["is_source"] != true {
		t.Errorf("source single form: filename %v is_source %v", obj["filename"], obj["is_source"])
	}
	if !strings.Contains(obj["\x00raw"].(string), `"translated_percent":100.0`) {
		t.Error("an empty translation is 100.0 translated without review")
	}
	c.projects["hello"].v.TranslationReview = true
	src, _ = c.translationJSON(testTranslation("en", &translationv1.Statistics{}), testComponent())
	if raw := decode(t, src)["\x00raw"].(string); !strings.Contains(raw, `"translated_percent":0.0`) {
		t.Error("an empty translation is 0.0 translated with review")
	}
}

// TestTranslationPlural checks the plural of a translation's language
// object: the language's default, the translation's own numbered plural,
// and an own rule the catalog has not numbered yet.
func TestTranslationPlural(t *testing.T) {
	const csDefault = "(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2"
	for _, c := range []struct {
		name       string
		plural     *translationv1.TranslationPlural
		id, number float64
		formula    string
	}{
		{"no plural kept", nil, 0, 3, csDefault},
		{"the default", &translationv1.TranslationPlural{Number: 3, Formula: csDefault}, 0, 3, csDefault},
		{"numbered own", &translationv1.TranslationPlural{Id: 9, Source: 1, Number: 4, Formula: "n==1 ? 0 : n<5 ? 1 : n<9 ? 2 : 3"}, 9, 4, "n==1 ? 0 : n<5 ? 1 : n<9 ? 2 : 3"},
		{"own, not numbered yet", &translationv1.TranslationPlural{Source: 1, Number: 3, Formula: "(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2 "}, 0, 3, csDefault + " "},
		{"own number, not numbered yet", &translationv1.TranslationPlural{Source: 1, Number: 2, Formula: "n != 1"}, 0, 2, "n != 1"},
	} {
		tr := testTranslation("cs", &translationv1.Statistics{})
		tr.Plural = c.plural
		out, err := testCall("/api/translations/hello/greeter/cs/").translationJSON(tr, nil)
		if err != nil {
			t.Fatal(err)
		}
		p := decode(t, out)["language"].(map[string]any)["plural"].(map[string]any)
		if p["id"] != c.id || p["number"] != c.number || p["formula"] != c.formula {
			t.Errorf("%s: plural %v, want id %v, %v forms, %q", c.name, p, c.id, c.number, c.formula)
		}
	}
}

func TestStatisticsShape(t *testing.T) {
	c := testCall("/api/translations/hello/greeter/de/statistics/")
	st := &translationv1.Statistics{Total: 15, TotalWords: 39, TotalChars: 196, Translated: 10, TranslatedWords: 20,
		TranslatedChars: 100, Fuzzy: 2, LastAuthor: "Tina Translator"}
	s, err := c.translationStats(testTranslation("de", st))
	if err != nil {
		t.Fatal(err)
	}
	obj := decode(t, s)
	sameFields(t, "statistics", obj, fStats)
	raw := obj["\x00raw"].(string)
	for _, want := range []string{`"translated_percent":66.6`, `"fuzzy_percent":13.3`, `"translated_words_percent":51.2`,
		`"translated_chars_percent":51.0`, `"code":"de"`, `"name":"German"`, `"last_author":"Tina Translator"`,
		`"url":"http://tms.test/projects/hello/greeter/de/"`, `"last_change":null`} {
		if !strings.Contains(raw, want) {
			t.Errorf("missing %s in %s", want, raw)
		}
	}
}

func TestUnitShape(t *testing.T) {
	u := urls{base: "http://h"}
	x := &translationv1.Unit{Id: 42, ProjectSlug: "hello", ComponentSlug: "greeter", LanguageCode: "cs",
		Source: []string{"%d message", "%d messages"}, Target: []string{"a", "b", "c"}, IdHash: -9223372036854775807,
		State: typev1.UnitState_UNIT_STATE_TRANSLATED, SourceUnitId: 12, Timestamp: timestamppb.New(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))}
	obj := decode(t, u.unitJSON(x))
	sameFields(t, "unit", obj, fUnit)
	raw := obj["\x00raw"].(string)
	for _, want := range []string{`"id_hash":-9223372036854775807`, `"translated":true`, `"fuzzy":false`, `"approved":false`,
		`"source_unit":"http://h/api/units/12/"`, `"timestamp":"2026-01-02T03:04:05Z"`, `"labels":[]`,
		`"web_url":"http://h/translate/hello/greeter/cs/?checksum=0000000000000001"`} {
		if !strings.Contains(raw, want) {
			t.Errorf("missing %s in %s", want, raw)
		}
	}
}

func TestChangeShape(t *testing.T) {
	u := urls{base: "http://h", api: true}
	cases := []struct {
		name string
		ch   *changelogv1.Change
		want []string
	}{
		{"component level", &changelogv1.Change{Id: 5, Action: typev1.ChangeAction_CHANGE_ACTION_LOCK, ProjectSlug: "hello", ComponentSlug: "greeter",
			User: "admin", Details: changedetails.FromMap(map[string]bool{"auto": false})},
			[]string{`"unit":null`, `"translation":null`, `"details":{"auto":false}`, `"action_name":"Component locked"`,
				`"user":"http://h/api/users/admin/?format=api"`, `"author":null`, `"url":"http://h/api/changes/5/?format=api"`}},
		{"unit level", &changelogv1.Change{Id: 6, Action: typev1.ChangeAction_CHANGE_ACTION_NEW, ProjectSlug: "hello", ComponentSlug: "greeter",
			LanguageCode: "pt_BR", UnitId: 9, Author: "tina", Target: "Enviar"},
			[]string{`"unit":"http://h/api/units/9/?format=api"`, `"translation":"http://h/api/translations/hello/greeter/pt_BR/?format=api"`,
				`"details":{}`, `"target":"Enviar"`, `"user":null`, `"action_name":"Translation added"`}},
		{"project level", &changelogv1.Change{Id: 7, Action: typev1.ChangeAction_CHANGE_ACTION_CREATE_PROJECT, ProjectSlug: "hello",
			Details: &structpb.Struct{Fields: map[string]*structpb.Value{"n": structpb.NewNumberValue(math.NaN())}}},
			[]string{`"component":null`, `"details":{}`, `"action_name":"Project created"`}},
		{"details as they were stored as text", &changelogv1.Change{Id: 8, Action: typev1.ChangeAction_CHANGE_ACTION_COMMENT, ProjectSlug: "hello",
			Details: changedetails.FromMap(map[string]any{"comment": "<b>a & b</b>"})},
			[]string{`"details":{"comment":"\u003cb\u003ea \u0026 b\u003c/b\u003e"}`}},
	}
	for _, c := range cases {
		obj := decode(t, u.changeJSON(c.ch))
		sameFields(t, c.name, obj, fChange)
		raw := obj["\x00raw"].(string)
		for _, w := range c.want {
			if !strings.Contains(raw, w) {
				t.Errorf("%s: missing %s in %s", c.name, w, raw)
			}
		}
	}
}

func TestApplyBody(t *testing.T) {
	b := &body{fields: map[string]any{}}
	if err := decodeJSON([]byte(`{"name":"Web","slug":"web","source_language":{"code":"cs"},"priority":"80",
		"enforced_checks":["same"],"locked":true,"project":{"slug":"x"},"unknown":1}`), b); err != nil {
		t.Fatal(err)
	}
	comp := &catalogv1.Component{}
	fields := applyBody(b, comp)
	sort.Strings(fields)
	if got := strings.Join(fields, " "); got != "enforced_checks name priority slug source_language_code" {
		t.Errorf("fields %s", got)
	}
	if comp.SourceLanguageCode != "cs" || comp.Priority != 80 || comp.Locked || len(comp.EnforcedChecks) != 1 {
		t.Errorf("component %+v", comp)
	}
	if len(b.errs) != 0 {
		t.Errorf("violations %+v", b.errs)
	}
}
