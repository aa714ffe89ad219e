package rest

import (
	"fmt"

	"github.com/tmsproject/tms/gateway/rest/wire"
	"github.com/tmsproject/tms/pkg/version"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

// metricsJSON is Weblate's MetricsSerializer, counted within what the
// caller may see: a count of a project nobody may show the caller would
// tell of it. Weblate's configuration_errors and celery_queues are left
// out: this service has neither configuration error records nor Celery.
type metricsJSON struct {
	Units           int64  `json:"units" doc:"Strings of the translations the caller may see."`
	UnitsTranslated int64  `json:"units_translated"`
	Users           int64  `json:"users" doc:"Accounts the caller may list."`
	Changes         int64  `json:"changes"`
	Projects        int64  `json:"projects"`
	Components      int64  `json:"components"`
	Translations    int64  `json:"translations"`
	Languages       int64  `json:"languages" doc:"Languages the service knows."`
	Checks          int64  `json:"checks" doc:"Quality check results, dismissed ones included."`
	Suggestions     int64  `json:"suggestions"`
	Name            string `json:"name"`
	Version         string `json:"version"`
}

// metrics answers the site's counts to a signed-in caller, as Weblate's
// Metrics view (IsAuthenticated).
func (g *gateway) metrics(c *call) error {
	if err := c.requireUser(); err != nil {
		return err
	}
	out := metricsJSON{Name: version.Product, Version: version.String()}
	tm, err := g.cfg.Translation.GetMetrics(c.ctx, &translationv1.GetMetricsRequest{})
	if err != nil {
		return err
	}
	out.Translations, out.Units, out.UnitsTranslated = tm.GetTranslations(), tm.GetUnits(), tm.GetUnitsTranslated()
	out.Checks, out.Suggestions = tm.GetChecks(), tm.GetSuggestions()
	for _, count := range []struct {
		to   *int64
		list func() (interface{ GetTotal() int64 }, error)
	}{
		{&out.Projects, func() (interface{ GetTotal() int64 }, error) {
			return g.cfg.Catalog.ListProjects(c.ctx, &catalogv1.ListProjectsRequest{Limit: 1})
		}},
		{&out.Components, func() (interface{ GetTotal() int64 }, error) {
			return g.cfg.Catalog.ListComponents(c.ctx, &catalogv1.ListComponentsRequest{Limit: 1})
		}},
		{&out.Languages, func() (interface{ GetTotal() int64 }, error) {
			return g.cfg.Catalog.ListLanguages(c.ctx, &catalogv1.ListLanguagesRequest{Limit: 1})
		}},
		{&out.Changes, func() (interface{ GetTotal() int64 }, error) {
			return g.cfg.Changelog.ListChanges(c.ctx, &changelogv1.ListChangesRequest{Limit: 1})
		}},
		{&out.Users, func() (interface{ GetTotal() int64 }, error) {
			return g.cfg.Notification.ListUsers(c.ctx, &notificationv1.ListUsersRequest{Limit: 1})
		}},
	} {
		resp, err := count.list()
		if err != nil {
			return err
		}
		*count.to = resp.GetTotal()
	}
	return c.ok(out)
}

// translationMetricsJSON is one translation in a project's metrics
// (Weblate's PROJECT_METRIC_DEFINITIONS).
type translationMetricsJSON struct {
	Name                   string       `json:"name" doc:"The language's name."`
	Translated             int64        `json:"translated"`
	TranslatedWords        int64        `json:"translated_words"`
	TranslatedChars        int64        `json:"translated_chars"`
	Total                  int64        `json:"total"`
	TotalWords             int64        `json:"total_words"`
	TotalChars             int64        `json:"total_chars"`
	Fuzzy                  int64        `json:"fuzzy"`
	FuzzyWords             int64        `json:"fuzzy_words"`
	FuzzyChars             int64        `json:"fuzzy_chars"`
	Failing                int64        `json:"failing"`
	FailingWords           int64        `json:"failing_words"`
	FailingChars           int64        `json:"failing_chars"`
	Approved               int64        `json:"approved"`
	ApprovedWords          int64        `json:"approved_words"`
	ApprovedChars          int64        `json:"approved_chars"`
	Suggestions            int64        `json:"suggestions"`
	Comments               int64        `json:"comments"`
	TranslatedPercent      wire.Percent `json:"translated_percent"`
	TranslatedWordsPercent wire.Percent `json:"translated_words_percent"`
	TranslatedCharsPercent wire.Percent `json:"translated_chars_percent"`
	ApprovedPercent        wire.Percent `json:"approved_percent"`
	ApprovedWordsPercent   wire.Percent `json:"approved_words_percent"`
	ApprovedCharsPercent   wire.Percent `json:"approved_chars_percent"`
}

// projectMetrics answers, per component path and language code, the
// statistics of every translation of the project's components the caller
// may see, as Weblate's project metrics do.
func (g *gateway) projectMetrics(c *call) error {
	p, comps, err := c.pathProjectComponents()
	if err != nil {
		return err
	}
	out := map[string]map[string]translationMetricsJSON{}
	if len(comps) == 0 {
		return c.ok(out)
	}
	paths := metricPaths(p.GetSlug(), comps)
	var ts []*translationv1.Translation
	err = eachPage(func(offset, limit int64) (int, int64, error) {
		resp, lerr := g.cfg.Translation.ListTranslations(c.ctx, &translationv1.ListTranslationsRequest{
			ComponentIds: componentIDs(comps), Offset: offset, Limit: limit})
		ts = append(ts, resp.GetTranslations()...)
		return len(resp.GetTranslations()), resp.GetTotal(), lerr
	})
	if err != nil {
		return err
	}
	for _, t := range ts {
		lang, err := c.language(t.GetLanguageCode())
		if err != nil {
			return err
		}
		path := paths[t.GetComponentId()]
		if out[path] == nil {
			out[path] = map[string]translationMetricsJSON{}
		}
		out[path][lang.GetCode()] = newTranslationMetrics(lang.GetName(), t.GetStats(), p.GetTranslationReview())
	}
	return c.ok(out)
}

// metricPaths names each component as Weblate's project metrics do: its
// category path and slug below the project (a component shared into the
// project by its slug); a name two components share gets "@id".
func metricPaths(project string, comps []*catalogv1.Component) map[int64]string {
	paths, seen := map[int64]string{}, map[string]int{}
	for _, comp := range comps {
		path := comp.GetSlug()
		if cat := comp.GetCategoryPath(); cat != "" && comp.GetProjectSlug() == project {
			path = cat + "/" + path
		}
		paths[comp.GetId()] = path
		seen[path]++
	}
	for id, path := range paths {
		if seen[path] > 1 {
			paths[id] = fmt.Sprintf("%s@%d", path, id)
		}
	}
	return paths
}

func newTranslationMetrics(name string, st *translationv1.Statistics, review bool) translationMetricsJSON {
	out := translationMetricsJSON{Name: name,
		Translated: st.GetTranslated(), TranslatedWords: st.GetTranslatedWords(), TranslatedChars: st.GetTranslatedChars(),
		Total: st.GetTotal(), TotalWords: st.GetTotalWords(), TotalChars: st.GetTotalChars(),
		Fuzzy: st.GetFuzzy(), FuzzyWords: st.GetFuzzyWords(), FuzzyChars: st.GetFuzzyChars(),
		Failing: st.GetFailing(), FailingWords: st.GetFailingWords(), FailingChars: st.GetFailingChars(),
		Approved: st.GetApproved(), ApprovedWords: st.GetApprovedWords(), ApprovedChars: st.GetApprovedChars(),
		Suggestions: st.GetSuggestions(), Comments: st.GetComments(),
	}
	out.TranslatedPercent, out.TranslatedWordsPercent, out.TranslatedCharsPercent =
		percents(st, out.Translated, out.TranslatedWords, out.TranslatedChars, translatedWhenEmpty(review))
	out.ApprovedPercent, out.ApprovedWordsPercent, out.ApprovedCharsPercent =
		percents(st, out.Approved, out.ApprovedWords, out.ApprovedChars, 0)
	return out
}
