package rest

import (
	"fmt"

	"github.com/tmsproject/tms/pkg/weblate"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
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

// unitList pages the units scope selects (a translation, by id or by
// component and language; none: all), filtered by ?q=.
func (g *gateway) unitList(c *call, scope *translationv1.ListUnitsRequest, def, maxSize int64) error {
	return c.servicePageSized(def, maxSize, func(offset, limit int64) (any, int64, error) {
		req := &translationv1.ListUnitsRequest{TranslationId: scope.GetTranslationId(), ComponentId: scope.GetComponentId(),
			LanguageCode: scope.GetLanguageCode(), Query: c.r.URL.Query().Get("q"), Offset: offset, Limit: limit}
		resp, err := g.cfg.Translation.ListUnits(c.ctx, req)
		return pageRows(resp.GetUnits(), resp.GetTotal(), err, always(c.urls.unitJSON))
	})
}

func (g *gateway) allUnits(c *call) error {
	return g.unitList(c, &translationv1.ListUnitsRequest{}, unitsPageSize, unitsMaxSize)
}

// pathUnit fetches the unit of the {id} path, within a visible project.
func (c *call) pathUnit() (*translationv1.Unit, error) {
	return pathObject(c, func(n int64) (*translationv1.Unit, error) {
		resp, err := c.g.cfg.Translation.GetUnit(c.ctx, &translationv1.GetUnitRequest{Id: n})
		return resp.GetUnit(), err
	})
}

func (g *gateway) getUnit(c *call) error {
	u, err := c.pathUnit()
	if err != nil {
		return err
	}
	return c.ok(c.urls.unitJSON(u))
}

type unitEditJSON struct {
	Target      []string `json:"target"`
	State       int32    `json:"state"`
	Explanation string   `json:"explanation"`
	ExtraFlags  string   `json:"extra_flags"`
	Labels      []int64  `json:"labels"`
}

// newUnitEditJSON is the answer to an edit of x.
func newUnitEditJSON(x *translationv1.Unit) unitEditJSON {
	return unitEditJSON{Target: nonNil(x.GetTarget()), State: restState(x.GetState()), Explanation: x.GetExplanation(),
		ExtraFlags: x.GetExtraFlags(), Labels: labelIDs(x.GetLabels())}
}

// labelIDs are the labels of an edit's answer, as the reference's write
// serializer gives them: their ids.
func labelIDs(ls []*translationv1.Label) []int64 {
	out := make([]int64, 0, len(ls))
	for _, l := range ls {
		out = append(out, l.GetId())
	}
	return out
}

// unitState reads the optional "state" of a unit body: unspecified when
// absent; a state a client may set (not read-only) when present.
func (b *body) unitState() typev1.UnitState {
	n, ok := b.integer("state")
	if !ok {
		return typev1.UnitState_UNIT_STATE_UNSPECIFIED
	}
	state, known := typev1.UnitState_UNIT_STATE_UNSPECIFIED, false
	if n >= weblate.StateEmpty && n <= weblate.StateReadOnly {
		state, known = weblate.UnitStates.Enum(int32(n))
	}
	if !known || state == typev1.UnitState_UNIT_STATE_READONLY {
		b.errs.Add("state", "invalid_choice", fmt.Sprintf("\"%d\" is not a valid choice.", n))
	}
	return state
}

// updateUnit edits target and state together (COMPAT.md §5): unit.edit,
// and unit.review to approve; labels (ids of the project's labels) and
// extra_flags and explanation (of a source string) alone or with them,
// with source.edit.
//
// A valid edit goes straight to the service, which answers 404 for what
// the caller may not see and 403 without the permission, as the lookups
// here would (visiblePath leaves this route to it; anonymous writes never
// get here). An invalid body takes the lookups first, so that 404 and 403
// come before its 400.
func (g *gateway) updateUnit(c *call) error {
	id, err := c.pathID()
	if err != nil {
		return err
	}
	b, err := c.readBody()
	var req *translationv1.UpdateUnitRequest
	if err == nil {
		req, err = unitUpdate(b)
	}
	if err != nil {
		if lerr := c.unitEditable(); lerr != nil {
			return lerr
		}
		return err
	}
	req.Id, req.Actor = id, c.actor()
	resp, err := g.cfg.Translation.UpdateUnit(c.ctx, req)
	if err != nil {
		return err
	}
	return c.ok(newUnitEditJSON(resp.GetUnit()))
}

// unitEditable is the lookup of the unit of the path: 404 when the caller
// may not see it, 403 without unit.edit.
func (c *call) unitEditable() error {
	u, err := c.pathUnit()
	if err != nil {
		return err
	}
	return c.authorizeOn("unit.edit", u, "You do not have permission to edit this string.")
}

// unitUpdate reads the edit of a unit body: target and state together,
// labels, extra_flags and explanation alone or with them.
func unitUpdate(b *body) (*translationv1.UpdateUnitRequest, error) {
	labels, setLabels := b.intList("labels")
	extra, setExtra := b.str("extra_flags")
	explanation, setExplanation := b.str("explanation")
	if b.has("target") != b.has("state") || (!b.has("target") && !setLabels && !setExtra && !setExplanation) {
		const both = "Please provide both state and target for a partial update"
		b.errs.Add("state", "required", both)
		b.errs.Add("target", "required", both)
		return nil, b.err()
	}
	target, _ := b.strList("target")
	state := b.unitState()
	if err := b.err(); err != nil {
		return nil, err
	}
	return &translationv1.UpdateUnitRequest{Target: target, State: state,
		SetLabels: setLabels, LabelIds: labels, LabelsOnly: !b.has("target"), SetExtraFlags: setExtra, ExtraFlags: extra,
		SetExplanation: setExplanation, Explanation: explanation}, nil
}
