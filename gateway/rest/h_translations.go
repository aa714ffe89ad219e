package rest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"

	"github.com/tmsproject/tms/pkg/grpcx"
	"github.com/tmsproject/tms/pkg/weblate"

	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

func (g *gateway) listTranslations(c *call) error { return g.translationList(c, 0) }

func (g *gateway) getTranslation(c *call) error {
	comp, t, err := c.pathTranslation()
	if err != nil {
		return err
	}
	return c.okRendered(c.translationJSON(t, comp))
}

func (g *gateway) deleteTranslation(c *call) error {
	if err := c.authorizePath("translation.delete"); err != nil {
		return err
	}
	comp, t, err := c.pathTranslation()
	if err != nil {
		return err
	}
	if _, err := g.cfg.Translation.DeleteTranslation(c.ctx, &translationv1.DeleteTranslationRequest{
		ComponentId: comp.GetId(), LanguageCode: t.GetLanguageCode(), Actor: c.actor()}); err != nil {
		return err
	}
	return c.noContent()
}

func (g *gateway) translationStatistics(c *call) error {
	_, t, err := c.pathTranslation()
	if err != nil {
		return err
	}
	return c.okRendered(c.translationStats(t))
}

// unitList pages units of one translation (0: all) in id order; q is the
// search expression.
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

// translationUnits pages a translation's units: the service finds the
// translation of the path's component (one call less than looking it up).
func (g *gateway) translationUnits(c *call) error {
	comp, err := c.pathComponent()
	if err != nil {
		return err
	}
	scope := &translationv1.ListUnitsRequest{ComponentId: comp.GetId(), LanguageCode: c.param("language")}
	return g.unitList(c, scope, defaultPageSize, maxPageSize)
}

func (g *gateway) translationFile(c *call) error {
	comp, t, err := c.pathTranslation()
	if err != nil {
		return err
	}
	head, content, err := c.download(comp.GetId(), t.GetLanguageCode(), fileFormat(c.r.URL.Query().Get("format")))
	if err != nil {
		return err
	}
	name := head.GetFilename()
	if name == "" {
		name = fmt.Sprintf("%s-%s-%s.po", comp.GetProjectSlug(), comp.GetSlug(), t.GetLanguageCode())
	}
	return c.attachment(baseName(name), head.GetContentType(), content)
}

// download streams a translation's file from the service (DownloadFile),
// so that no file is too large for one gRPC message; head is the first
// message (name, type, commit time).
func (c *call) download(componentID int64, lang, format string) (head *translationv1.DownloadFileResponse, content []byte, err error) {
	ctx, cancel := context.WithTimeout(c.ctx, grpcx.LongTimeout)
	defer cancel()
	stream, err := c.g.cfg.Translation.DownloadFile(ctx, &translationv1.DownloadFileRequest{
		ComponentId: componentID, LanguageCode: lang, Format: format})
	if err != nil {
		return nil, nil, err
	}
	var buf bytes.Buffer
	for {
		msg, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return head, buf.Bytes(), nil
		}
		if err != nil {
			return nil, nil, err
		}
		if head == nil {
			head = msg
		}
		buf.Write(msg.GetChunk())
	}
}

func baseName(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }

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
// extra_flags (of a source string) alone or with them, with source.edit.
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

func (g *gateway) getTask(c *call) error {
	resp, err := g.cfg.Translation.GetTask(c.ctx, &translationv1.GetTaskRequest{Id: c.param("id")})
	if err != nil {
		return err
	}
	return c.ok(newTaskJSON(resp.GetTask()))
}
