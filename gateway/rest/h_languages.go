package rest

import (
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

func (g *gateway) listLanguages(c *call) error {
	p, err := c.pager(defaultPageSize, maxPageSize)
	if err != nil {
		return err
	}
	resp, err := g.cfg.Catalog.ListLanguages(c.ctx, &catalogv1.ListLanguagesRequest{Offset: p.offset(), Limit: p.size})
	if err != nil {
		return err
	}
	out := make([]*languageJSON, 0, len(resp.GetLanguages()))
	for _, l := range resp.GetLanguages() {
		out = append(out, c.urls.languageJSON(l))
	}
	return c.page(p, resp.GetTotal(), out)
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
		URL: c.urls.language(l.GetCode(), "statistics"), TranslateURL: c.urls.Web("languages", l.GetCode())}))
}
