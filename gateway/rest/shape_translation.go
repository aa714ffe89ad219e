package rest

import (
	"github.com/tmsproject/tms/gateway/rest/wire"
	"github.com/tmsproject/tms/pkg/textstat"
	"github.com/tmsproject/tms/pkg/weblate"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

// translationJSON is the translation: the single form carries Component,
// the list form AnnouncementsURL instead (SPEC.md, Translation).
type translationJSON struct {
	Language             *languageJSON  `json:"language" nullable:"false"`
	Component            *componentJSON `json:"component,omitempty"`
	LanguageCode         string         `json:"language_code"`
	ID                   int64          `json:"id"`
	Filename             string         `json:"filename"`
	Revision             string         `json:"revision"`
	WebURL               string         `json:"web_url"`
	ShareURL             string         `json:"share_url"`
	TranslateURL         string         `json:"translate_url"`
	URL                  string         `json:"url"`
	IsTemplate           bool           `json:"is_template"`
	IsSource             bool           `json:"is_source"`
	Total                int64          `json:"total"`
	TotalWords           int64          `json:"total_words"`
	Translated           int64          `json:"translated"`
	TranslatedWords      int64          `json:"translated_words"`
	TranslatedPercent    wire.Percent   `json:"translated_percent"`
	Fuzzy                int64          `json:"fuzzy"`
	FuzzyWords           int64          `json:"fuzzy_words"`
	FuzzyPercent         wire.Percent   `json:"fuzzy_percent"`
	FailingChecks        int64          `json:"failing_checks"`
	FailingChecksWords   int64          `json:"failing_checks_words"`
	FailingChecksPercent wire.Percent   `json:"failing_checks_percent"`
	HaveSuggestion       int64          `json:"have_suggestion"`
	HaveComment          int64          `json:"have_comment"`
	LastChange           *wire.Time     `json:"last_change"`
	LastAuthor           *string        `json:"last_author"`
	RepositoryURL        string         `json:"repository_url"`
	FileURL              string         `json:"file_url"`
	StatisticsURL        string         `json:"statistics_url"`
	ChangesListURL       string         `json:"changes_list_url"`
	UnitsListURL         string         `json:"units_list_url"`
	AnnouncementsURL     string         `json:"announcements_url,omitempty"`
}

// translatedWhenEmpty is the translated percent of an empty translation:
// complete, unless the project reviews translations (COMPAT.md §6).
func translatedWhenEmpty(review bool) wire.Percent {
	if review {
		return 0
	}
	return 100
}

// translationJSON renders t. With comp set it is the single form (nested
// reduced component, filename "" for the source); otherwise the list form.
func (c *call) translationJSON(t *translationv1.Translation, comp *catalogv1.Component) (*translationJSON, error) {
	proj, err := c.project(t.GetProjectSlug())
	if err != nil {
		return nil, err
	}
	lang, err := c.language(t.GetLanguageCode())
	if err != nil {
		return nil, err
	}
	u, p, cs, l := c.urls, t.GetProjectSlug(), t.GetComponentSlug(), t.GetLanguageCode()
	st := t.GetStats()
	language := u.languageJSON(lang)
	// The language object shows the plural the translation's file uses,
	// which is not the language's default when the file has its own rule.
	// A rule new to the catalog has id 0 until the catalog has stored it
	// and its table reached the translation service (moments after the
	// import): its rule shows meanwhile, not the language's default.
	if pl := t.GetPlural(); pl.GetId() != 0 || ownRule(pl, lang) {
		language.Plural = pluralJSON{ID: pl.GetId(), Source: pl.GetSource(), Number: pl.GetNumber(),
			Formula: pl.GetFormula(), Type: pl.GetType()}
	}
	out := &translationJSON{
		Language: language, LanguageCode: l, ID: t.GetId(), Filename: t.GetFilename(),
		Revision: t.GetRevision(), WebURL: u.Web("projects", p, cs, l), ShareURL: u.Web("engage", p, "-", l),
		TranslateURL: u.Web("translate", p, cs, l), URL: u.translation(p, cs, l),
		IsTemplate: t.GetIsTemplate(), IsSource: t.GetIsSource(),
		Total: st.GetTotal(), TotalWords: st.GetTotalWords(),
		Translated: st.GetTranslated(), TranslatedWords: st.GetTranslatedWords(),
		TranslatedPercent: wire.PercentOf(st.GetTranslated(), st.GetTotal(), translatedWhenEmpty(proj.GetTranslationReview())),
		Fuzzy:             st.GetFuzzy(), FuzzyWords: st.GetFuzzyWords(),
		FuzzyPercent:  wire.PercentOf(st.GetFuzzy(), st.GetTotal(), 0),
		FailingChecks: st.GetFailing(), FailingChecksWords: st.GetFailingWords(), FailingChecksPercent: wire.PercentOf(st.GetFailing(), st.GetTotal(), 0),
		HaveSuggestion: st.GetSuggestions(), HaveComment: st.GetComments(),
		LastChange: wire.TimeOf(st.GetLastChange()), LastAuthor: optional(st.GetLastAuthor()),
		RepositoryURL: u.translation(p, cs, l, "repository"), FileURL: u.translation(p, cs, l, "file"),
		StatisticsURL: u.translation(p, cs, l, "statistics"), ChangesListURL: u.translation(p, cs, l, "changes"),
		UnitsListURL: u.translation(p, cs, l, "units"),
	}
	if comp == nil {
		out.AnnouncementsURL = u.translation(p, cs, l, "announcements")
		return out, nil
	}
	if t.GetIsSource() {
		out.Filename = ""
	}
	out.Component, err = c.componentJSON(comp, false, "")
	return out, err
}

// statsJSON is a statistics object: the SPEC.md groups plus last_author
// and an identity (code/name/url/translate_url) that depends on the scope.
type statsJSON struct {
	Total                  int64        `json:"total"`
	TotalWords             int64        `json:"total_words"`
	TotalChars             int64        `json:"total_chars"`
	LastChange             *wire.Time   `json:"last_change"`
	RecentChanges          int64        `json:"recent_changes"`
	Translated             int64        `json:"translated"`
	TranslatedWords        int64        `json:"translated_words"`
	TranslatedChars        int64        `json:"translated_chars"`
	TranslatedPercent      wire.Percent `json:"translated_percent"`
	TranslatedWordsPercent wire.Percent `json:"translated_words_percent"`
	TranslatedCharsPercent wire.Percent `json:"translated_chars_percent"`
	Fuzzy                  int64        `json:"fuzzy"`
	FuzzyWords             int64        `json:"fuzzy_words"`
	FuzzyChars             int64        `json:"fuzzy_chars"`
	FuzzyPercent           wire.Percent `json:"fuzzy_percent"`
	FuzzyWordsPercent      wire.Percent `json:"fuzzy_words_percent"`
	FuzzyCharsPercent      wire.Percent `json:"fuzzy_chars_percent"`
	Approved               int64        `json:"approved"`
	ApprovedWords          int64        `json:"approved_words"`
	ApprovedChars          int64        `json:"approved_chars"`
	ApprovedPercent        wire.Percent `json:"approved_percent"`
	ApprovedWordsPercent   wire.Percent `json:"approved_words_percent"`
	ApprovedCharsPercent   wire.Percent `json:"approved_chars_percent"`
	Readonly               int64        `json:"readonly"`
	ReadonlyWords          int64        `json:"readonly_words"`
	ReadonlyChars          int64        `json:"readonly_chars"`
	ReadonlyPercent        wire.Percent `json:"readonly_percent"`
	ReadonlyWordsPercent   wire.Percent `json:"readonly_words_percent"`
	ReadonlyCharsPercent   wire.Percent `json:"readonly_chars_percent"`
	Failing                int64        `json:"failing"`
	FailingPercent         wire.Percent `json:"failing_percent"`
	Suggestions            int64        `json:"suggestions"`
	Comments               int64        `json:"comments"`
	LastAuthor             *string      `json:"last_author"`
	statsIdentity
}

type statsIdentity struct {
	Code         string `json:"code,omitempty"`
	Name         string `json:"name"`
	URL          string `json:"url"`
	TranslateURL string `json:"translate_url,omitempty"`
}

func newStats(st *translationv1.Statistics, review bool, id statsIdentity) *statsJSON {
	out := &statsJSON{
		Total: st.GetTotal(), TotalWords: st.GetTotalWords(), TotalChars: st.GetTotalChars(),
		LastChange: wire.TimeOf(st.GetLastChange()), RecentChanges: st.GetRecentChanges(),
		Translated: st.GetTranslated(), TranslatedWords: st.GetTranslatedWords(), TranslatedChars: st.GetTranslatedChars(),
		Fuzzy: st.GetFuzzy(), FuzzyWords: st.GetFuzzyWords(), FuzzyChars: st.GetFuzzyChars(),
		Approved: st.GetApproved(), ApprovedWords: st.GetApprovedWords(), ApprovedChars: st.GetApprovedChars(),
		Readonly: st.GetReadonly(), ReadonlyWords: st.GetReadonlyWords(), ReadonlyChars: st.GetReadonlyChars(),
		Failing: st.GetFailing(), FailingPercent: wire.PercentOf(st.GetFailing(), st.GetTotal(), 0),
		Suggestions: st.GetSuggestions(), Comments: st.GetComments(),
		LastAuthor: optional(st.GetLastAuthor()), statsIdentity: id,
	}
	out.TranslatedPercent, out.TranslatedWordsPercent, out.TranslatedCharsPercent =
		percents(st, out.Translated, out.TranslatedWords, out.TranslatedChars, translatedWhenEmpty(review))
	out.FuzzyPercent, out.FuzzyWordsPercent, out.FuzzyCharsPercent = percents(st, out.Fuzzy, out.FuzzyWords, out.FuzzyChars, 0)
	out.ApprovedPercent, out.ApprovedWordsPercent, out.ApprovedCharsPercent =
		percents(st, out.Approved, out.ApprovedWords, out.ApprovedChars, 0)
	out.ReadonlyPercent, out.ReadonlyWordsPercent, out.ReadonlyCharsPercent =
		percents(st, out.Readonly, out.ReadonlyWords, out.ReadonlyChars, 0)
	return out
}

// percents are a group's shares of the strings, words and characters of
// st; whenEmpty is the share of an empty total.
func percents(st *translationv1.Statistics, n, words, chars int64, whenEmpty wire.Percent) (wire.Percent, wire.Percent, wire.Percent) {
	return wire.PercentOf(n, st.GetTotal(), whenEmpty), wire.PercentOf(words, st.GetTotalWords(), whenEmpty),
		wire.PercentOf(chars, st.GetTotalChars(), whenEmpty)
}

// translationStats is the statistics object of one translation.
func (c *call) translationStats(t *translationv1.Translation) (*statsJSON, error) {
	proj, err := c.project(t.GetProjectSlug())
	if err != nil {
		return nil, err
	}
	lang, err := c.language(t.GetLanguageCode())
	if err != nil {
		return nil, err
	}
	p, cs, l := t.GetProjectSlug(), t.GetComponentSlug(), t.GetLanguageCode()
	return newStats(t.GetStats(), proj.GetTranslationReview(), statsIdentity{
		Code: l, Name: lang.GetName(), URL: c.urls.Web("projects", p, cs, l),
		TranslateURL: c.urls.Web("translate", p, cs, l)}), nil
}

type unitJSON struct {
	Translation     string      `json:"translation"`
	LanguageCode    string      `json:"language_code"`
	Source          []string    `json:"source"`
	PreviousSource  string      `json:"previous_source"`
	Target          []string    `json:"target"`
	IDHash          int64       `json:"id_hash"`
	ContentHash     int64       `json:"content_hash"`
	Location        string      `json:"location"`
	Context         string      `json:"context"`
	Note            string      `json:"note"`
	Flags           string      `json:"flags"`
	Labels          []labelJSON `json:"labels"`
	State           int32       `json:"state"`
	Fuzzy           bool        `json:"fuzzy"`
	Translated      bool        `json:"translated"`
	Approved        bool        `json:"approved"`
	Position        int64       `json:"position"`
	HasSuggestion   bool        `json:"has_suggestion"`
	HasComment      bool        `json:"has_comment"`
	HasFailingCheck bool        `json:"has_failing_check"`
	NumWords        int64       `json:"num_words"`
	SourceUnit      string      `json:"source_unit"`
	Priority        int32       `json:"priority"`
	ID              int64       `json:"id"`
	WebURL          string      `json:"web_url"`
	URL             string      `json:"url"`
	Explanation     string      `json:"explanation"`
	ExtraFlags      string      `json:"extra_flags"`
	Pending         bool        `json:"pending"`
	Timestamp       wire.Time   `json:"timestamp"`
	LastUpdated     *wire.Time  `json:"last_updated,omitempty"`
}

func (u urls) unitJSON(x *translationv1.Unit) *unitJSON {
	p, cs, l := x.GetProjectSlug(), x.GetComponentSlug(), x.GetLanguageCode()
	src, state := x.GetSourceUnitId(), restState(x.GetState())
	if src == 0 {
		src = x.GetId()
	}
	ts := wire.Time{}
	if t := wire.TimeOf(x.GetTimestamp()); t != nil {
		ts = *t
	}
	return &unitJSON{
		Translation: u.translation(p, cs, l), LanguageCode: l, Source: nonNil(x.GetSource()),
		PreviousSource: x.GetPreviousSource(), Target: nonNil(x.GetTarget()),
		IDHash: x.GetIdHash(), ContentHash: x.GetContentHash(), Location: x.GetLocation(),
		Context: x.GetContext(), Note: x.GetNote(), Flags: x.GetFlags(), Labels: labelsJSON(x.GetLabels()),
		State: state, Fuzzy: state == weblate.StateFuzzy, Translated: state >= weblate.StateTranslated,
		Approved: state == weblate.StateApproved, Position: x.GetPosition(), HasSuggestion: x.GetHasSuggestion(),
		HasComment: x.GetHasComment(), HasFailingCheck: x.GetHasFailingCheck(), NumWords: x.GetNumWords(),
		SourceUnit: u.unit(src), Priority: x.GetPriority(), ID: x.GetId(),
		WebURL: u.Web("translate", p, cs, l) + "?checksum=" + textstat.Checksum(x.GetIdHash()), URL: u.unit(x.GetId()),
		Explanation: x.GetExplanation(), ExtraFlags: x.GetExtraFlags(), Pending: x.GetPending(),
		Timestamp: ts, LastUpdated: wire.TimeOf(x.GetLastUpdated()),
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// ownRule reports whether the translation's plural is a rule of its own
// that the catalog has not numbered yet: one other than the language's
// default (rows imported before plurals were kept have no formula).
func ownRule(pl *translationv1.TranslationPlural, l *catalogv1.Language) bool {
	return pl.GetFormula() != "" && (pl.GetNumber() != l.GetPluralNumber() || pl.GetFormula() != l.GetPluralFormula())
}
