package rest

import (
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

func (g *gateway) listLanguages(c *call) error {
	return c.servicePage(func(offset, limit int64) (any, int64, error) {
		resp, err := g.cfg.Catalog.ListLanguages(c.ctx, &catalogv1.ListLanguagesRequest{Offset: offset, Limit: limit})
		return pageRows(resp.GetLanguages(), resp.GetTotal(), err, always(c.urls.languageJSON))
	})
}

func (g *gateway) getLanguage(c *call) error {
	l, err := c.language(c.param("language"))
	if err != nil {
		return err
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
