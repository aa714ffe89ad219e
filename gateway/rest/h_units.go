package rest

import (
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

// addUnit adds a string to a bilingual component (COMPAT.md §5):
// {"context"?, "source": [..], "target": [..], "state"?}; the monolingual
// form {"key", "value"} is read as context and source. Weblate answers 200
// with the unit; it needs unit.add ("Edit source" and administrators).
func (g *gateway) addUnit(c *call) error {
	if err := c.authorizePath("unit.add"); err != nil {
		return err
	}
	_, t, err := c.pathTranslation()
	if err != nil {
		return err
	}
	b, err := c.readBody()
	if err != nil {
		return err
	}
	sourceKey, contextKey, targetKey := "source", "context", "target"
	if b.has("key") || b.has("value") {
		sourceKey, contextKey = "value", "key"
		b.required("key", "value")
	} else {
		b.required("source")
	}
	source, _ := b.strList(sourceKey)
	target, _ := b.strList(targetKey)
	context, _ := b.str(contextKey)
	state := b.unitState()
	if err = b.err(); err != nil {
		return err
	}
	resp, err := g.cfg.Translation.CreateUnit(c.ctx, &translationv1.CreateUnitRequest{TranslationId: t.GetId(),
		Context: context, Source: source, Target: target, State: state, Actor: c.actor()})
	if err != nil {
		return err
	}
	return c.ok(c.urls.unitJSON(resp.GetUnit()))
}

// deleteUnit removes the string from every translation of its component.
func (g *gateway) deleteUnit(c *call) error {
	u, err := c.pathUnit()
	if err != nil {
		return err
	}
	if err := c.authorizeOn("unit.delete", u, ""); err != nil {
		return err
	}
	if _, err := g.cfg.Translation.DeleteUnit(c.ctx, &translationv1.DeleteUnitRequest{Id: u.GetId(), Actor: c.actor()}); err != nil {
		return err
	}
	return c.noContent()
}

// unitTranslations lists the other units of the string: a plain array,
// not paginated (COMPAT.md §2).
func (g *gateway) unitTranslations(c *call) error {
	u, err := c.pathUnit()
	if err != nil {
		return err
	}
	resp, err := g.cfg.Translation.ListUnitTranslations(c.ctx, &translationv1.ListUnitTranslationsRequest{Id: u.GetId()})
	if err != nil {
		return err
	}
	out := make([]*unitJSON, 0, len(resp.GetUnits()))
	for _, x := range resp.GetUnits() {
		out = append(out, c.urls.unitJSON(x))
	}
	return c.ok(out)
}
