package rest

import (
	"slices"

	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

// listLanguages lists the languages as Weblate's LanguageViewSet does:
// all of them to those who may edit languages, else those with a
// translation (here: one the caller may see).
func (g *gateway) listLanguages(c *call) error {
	req := &catalogv1.ListLanguagesRequest{}
	if !c.caller.CanGlobal("language.edit") {
		codes, err := c.translatedLanguages()
		if err != nil {
			return err
		}
		req.OnlyCodes, req.Codes = true, codes
	}
	return c.servicePage(func(offset, limit int64) (any, int64, error) {
		req.Offset, req.Limit = offset, limit
		resp, err := g.cfg.Catalog.ListLanguages(c.ctx, req)
		return pageRows(resp.GetLanguages(), resp.GetTotal(), err, always(c.urls.languageJSON))
	})
}

// translatedLanguages are the codes of the languages with a translation
// the caller may see.
func (c *call) translatedLanguages() ([]string, error) {
	resp, err := c.g.cfg.Translation.ListLanguageCodes(c.ctx, &translationv1.ListLanguageCodesRequest{})
	return resp.GetCodes(), err
}

// getLanguage answers a language, of those listLanguages lists: another
// is not found, as in Weblate.
func (g *gateway) getLanguage(c *call) error {
	l, err := c.language(c.param("language"))
	if err != nil {
		return err
	}
	if !c.caller.CanGlobal("language.edit") {
		codes, err := c.translatedLanguages()
		if err != nil {
			return err
		}
		if !slices.Contains(codes, l.GetCode()) {
			return notFound()
		}
	}
	return c.ok(c.urls.languageJSON(l))
}

func (g *gateway) languageStatistics(c *call) error {
	l, err := c.language(c.param("language"))
	if err != nil {
		return err
	}
	resp, err := g.cfg.Translation.GetStatistics(c.ctx, &translationv1.GetStatisticsRequest{LanguageCode: l.GetCode()})
	if err != nil {
		return err
	}
	return c.ok(newStats(resp.GetStats(), false, statsIdentity{Code: l.GetCode(), Name: l.GetName(),
		URL: c.urls.Web("languages", l.GetCode()), TranslateURL: c.urls.Web("languages", l.GetCode())}))
}
