package rest

import (
	"encoding/json"
	"math"
	"net/http"

	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
)

// languageBody reads code, name, direction, population and plural
// ({"number", "formula"}), as Weblate's LanguageSerializer takes them, and
// names the proto fields set.
func (c *call) languageBody(create bool) (*catalogv1.Language, []string, error) {
	b, err := c.readBody()
	if err != nil {
		return nil, nil, err
	}
	if create || c.r.Method == http.MethodPut {
		b.required("name", "plural")
	}
	if create {
		b.required("code")
	}
	l := &catalogv1.Language{}
	var fields []string
	if v, ok := b.str("code"); ok {
		l.Code = v
	}
	if v, ok := b.str("name"); ok {
		l.Name, fields = v, append(fields, "name")
	}
	if v, ok := b.str("direction"); ok {
		l.Direction, fields = v, append(fields, "direction")
	}
	if v, ok := b.integer("population"); ok {
		l.Population, fields = v, append(fields, "population")
	}
	if raw, ok := b.fields["plural"]; ok {
		p, isObject := raw.(map[string]any)
		if !isObject {
			b.errs.Add("plural", "invalid", "Invalid data. Expected a dictionary.")
		}
		if n, isNumber := p["number"].(json.Number); isNumber {
			if v, nerr := n.Int64(); nerr == nil && v > 0 && v <= math.MaxInt32 {
				l.PluralNumber = int32(v)
			}
		}
		l.PluralFormula, _ = p["formula"].(string)
		fields = append(fields, "plural_number", "plural_formula")
	}
	return l, fields, b.err()
}

func (g *gateway) createLanguage(c *call) error {
	l, _, err := c.languageBody(true)
	if err != nil {
		return err
	}
	resp, err := g.cfg.Catalog.CreateLanguage(c.ctx, &catalogv1.CreateLanguageRequest{Language: l})
	if err != nil {
		return err
	}
	j := c.urls.languageJSON(resp.GetLanguage())
	return c.created(j.URL, j)
}

func (g *gateway) updateLanguage(c *call) error {
	cur, err := c.language(c.param("language"))
	if err != nil {
		return err
	}
	l, fields, err := c.languageBody(false)
	if err != nil {
		return err
	}
	resp, err := g.cfg.Catalog.UpdateLanguage(c.ctx, &catalogv1.UpdateLanguageRequest{Code: cur.GetCode(), Language: l, UpdateMask: mask(fields)})
	if err != nil {
		return err
	}
	return c.ok(c.urls.languageJSON(resp.GetLanguage()))
}

func (g *gateway) deleteLanguage(c *call) error {
	cur, err := c.language(c.param("language"))
	if err != nil {
		return err
	}
	if _, err := g.cfg.Catalog.DeleteLanguage(c.ctx, &catalogv1.DeleteLanguageRequest{Code: cur.GetCode()}); err != nil {
		return err
	}
	return c.noContent()
}
