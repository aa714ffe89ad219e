package server

import (
	"cmp"
	"context"
	"slices"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	"github.com/tmsproject/tms/services/translation/machinery"
	"github.com/tmsproject/tms/services/translation/store"
)

// MachinerySettings configure machine translation engines: each engine's
// settings by its id, as the machinery settings of a project hold them.
type MachinerySettings map[string]map[string]any

// memoryEngine is the id of the translation memory as an engine, and
// memoryScore its rank: above every external engine, as in the
// reference (its memory's rank 102 beats DeepL's 91).
const (
	memoryEngine     = "weblate-translation-memory"
	memoryEngineName = "Weblate Translation Memory"
	memoryScore      = 100
)

// engineSet is what a project may translate with: the engines built from
// the site's and the project's settings, those configured that this
// service does not call, with why, and the projects whose memory the
// memory engine reads (the project's own and the shared memory's as the
// caller may see it, decided when the set is built, so a task reads what
// its requester could).
type engineSet struct {
	engines map[string]machinery.Engine
	broken  map[string]string
	memory  store.MemoryFilter
}

// ids are the engines' ids, the memory's included, best rank first.
func (es engineSet) ids() []string {
	out := []string{memoryEngine}
	for id := range es.engines {
		out = append(out, id)
	}
	slices.SortFunc(out[1:], func(a, b string) int {
		return cmp.Or(cmp.Compare(es.engines[b].MaxScore(), es.engines[a].MaxScore()), cmp.Compare(a, b))
	})
	return out
}

// projectEngines builds the engines configured for a project: the site's
// settings, then the project's own, which win for the same engine. The
// project's engines reach only public addresses unless the operator
// allows local ones; the site's are the operator's own.
func (s *Server) projectEngines(ctx context.Context, project string) (engineSet, error) {
	es := engineSet{engines: map[string]machinery.Engine{}, broken: map[string]string{}}
	var err error
	if es.memory, err = s.memoryScope(ctx, project); err != nil {
		return es, err
	}
	resp, err := s.cfg.Catalog.GetMachinerySettings(policy.System(ctx), &catalogv1.GetMachinerySettingsRequest{
		ProjectSlug: project, IncludeSecrets: true})
	if err != nil && !errs.Is(errs.FromStatus(err), errs.NotFound) {
		return es, errs.FromStatus(err)
	}
	own := map[string]map[string]any{}
	for id, st := range resp.GetServices() {
		own[id] = st.AsMap()
	}
	add := func(id string, settings map[string]any, site bool) {
		if id == memoryEngine || id == "weblate" {
			return // the memory is always there; live strings are the others mode
		}
		if !machinery.Supported(id) {
			es.broken[id] = "This service does not call " + id + "."
			return
		}
		opts := machinery.Options{Client: s.cfg.MachineryClient, AllowLocal: site || s.cfg.AllowLocalMachinery, UserAgent: "tms"}
		e, berr := machinery.New(id, settings, opts)
		if berr != nil {
			es.broken[id] = berr.Error()
			return
		}
		delete(es.broken, id)
		es.engines[id] = e
	}
	for id, settings := range s.cfg.Machinery {
		if _, overridden := own[id]; !overridden {
			add(id, settings, true)
		}
	}
	for id, settings := range own {
		add(id, settings, false)
	}
	return es, nil
}

// ListMachinery answers what every engine proposes for a unit.
func (s *Server) ListMachinery(ctx context.Context, req *translationv1.ListMachineryRequest) (*translationv1.ListMachineryResponse, error) {
	u, err := s.visibleUnit(ctx, req.GetUnitId())
	if err != nil {
		return nil, err
	}
	comp := scopeOf(u.Translation)
	if err = s.require(ctx, "machinery.view", comp, u.Translation.LanguageCode); err != nil {
		return nil, err
	}
	if u.Translation.IsSource {
		return nil, errs.Invalid("unit", "invalid", "Machine translation needs a translation, not the source strings.")
	}
	src, err := s.cfg.Store.SourceLanguage(ctx, u.Translation.ComponentID)
	if err != nil {
		return nil, err
	}
	es, err := s.projectEngines(ctx, u.Translation.ProjectSlug)
	if err != nil {
		return nil, err
	}
	out := &translationv1.ListMachineryResponse{}
	var mu sync.Mutex
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(4)
	for _, id := range es.ids() {
		g.Go(func() error {
			sg, merr := s.suggest(gctx, es, id, src, u)
			mu.Lock()
			defer mu.Unlock()
			if merr != nil {
				out.Errors = append(out.Errors, &translationv1.MachineryError{Service: id, Detail: merr.Error()})
			} else if sg != nil {
				out.Suggestions = append(out.Suggestions, sg)
			}
			return nil
		})
	}
	_ = g.Wait()
	for id, why := range es.broken {
		out.Errors = append(out.Errors, &translationv1.MachineryError{Service: id, Detail: why})
	}
	slices.SortFunc(out.Suggestions, func(a, b *translationv1.MachinerySuggestion) int {
		return cmp.Or(cmp.Compare(b.GetQuality(), a.GetQuality()), cmp.Compare(a.GetService(), b.GetService()))
	})
	slices.SortFunc(out.Errors, func(a, b *translationv1.MachineryError) int { return cmp.Compare(a.GetService(), b.GetService()) })
	return out, nil
}

// suggest is one engine's proposal for u, nil when it has none.
func (s *Server) suggest(ctx context.Context, es engineSet, id, src string, u store.UnitView) (*translationv1.MachinerySuggestion, error) {
	got, err := s.fill(ctx, es, id, src, u.Translation, []store.Unit{u.Unit}, defaultThreshold)
	if err != nil || len(got) == 0 {
		return nil, err
	}
	f := got[0]
	return &translationv1.MachinerySuggestion{Service: id, ServiceName: f.name, Text: f.target,
		Quality: int32(f.quality), Source: u.Source, Origin: f.origin}, nil //nolint:gosec // G115: 0 to 100
}

// filled is an engine's translation of a unit.
type filled struct {
	unitID  int64
	target  string // plural forms joined as units join them
	quality int
	name    string // the engine's
	origin  string // the memory entry's
}

// fill asks engine id for translations of units of t (whose source
// language is src): the memory's best matches reaching threshold, or an
// external engine's translation of each source form, the target's plural
// forms taking the singular's first and the plural's after it.
func (s *Server) fill(ctx context.Context, es engineSet, id, src string, t store.Translation, units []store.Unit, threshold int) ([]filled, error) {
	if id == memoryEngine {
		return s.fillFromMemory(ctx, es.memory, src, t, units, threshold)
	}
	e := es.engines[id]
	var texts []string
	for _, u := range units {
		texts = append(texts, store.Split(u.Source)...)
	}
	got, err := e.Translate(ctx, src, t.LanguageCode, texts)
	if err != nil {
		return nil, err
	}
	out := make([]filled, 0, len(units))
	at := 0
	for _, u := range units {
		forms := store.Split(u.Source)
		tr := got[at : at+len(forms)]
		at += len(forms)
		target := tr[0]
		if len(forms) > 1 {
			n := max(t.PluralNumber, 1)
			plural := make([]string, n)
			for i := range plural {
				plural[i] = tr[min(i, len(tr)-1)]
			}
			target = store.Join(plural)
		}
		if target != "" {
			out = append(out, filled{unitID: u.ID, target: target, quality: e.MaxScore(), name: e.Name()})
		}
	}
	return out, nil
}

// fillFromMemory looks the units' sources up in the memory f selects.
func (s *Server) fillFromMemory(ctx context.Context, f store.MemoryFilter, src string, t store.Translation, units []store.Unit, threshold int) ([]filled, error) {
	texts := make([]string, len(units))
	for i, u := range units {
		texts[i] = u.Source
	}
	f.SourceLanguage, f.TargetLanguage = src, t.LanguageCode
	q := store.MemoryQuery{Filter: f, Threshold: threshold}
	matches, err := s.cfg.Store.LookupMemory(ctx, q, texts)
	if err != nil {
		return nil, err
	}
	var out []filled
	for i, m := range matches {
		if m.Found && len(store.Split(m.Entry.Target)) == pluralForms(store.UnitView{Unit: units[i], Translation: t}) {
			out = append(out, filled{unitID: units[i].ID, target: m.Entry.Target, quality: m.Quality,
				name: memoryEngineName, origin: m.Entry.Origin})
		}
	}
	return out, nil
}
