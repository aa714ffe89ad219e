package server

import (
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/resname"
	"github.com/tmsproject/tms/pkg/weblate"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/store"
)

func ts(t *time.Time) *timestamppb.Timestamp {
	if t == nil {
		return nil
	}
	return timestamppb.New(*t)
}

func statsProto(s store.Stats) *translationv1.Statistics {
	return &translationv1.Statistics{
		Total: s.Total, TotalWords: s.TotalWords, TotalChars: s.TotalChars,
		Translated: s.Translated, TranslatedWords: s.TranslatedWords, TranslatedChars: s.TranslatedChars,
		Fuzzy: s.Fuzzy, FuzzyWords: s.FuzzyWords, FuzzyChars: s.FuzzyChars,
		Approved: s.Approved, ApprovedWords: s.ApprovedWords, ApprovedChars: s.ApprovedChars,
		Readonly: s.Readonly, ReadonlyWords: s.ReadonlyWords, ReadonlyChars: s.ReadonlyChars,
		Failing: s.Failing, FailingWords: s.FailingWords, FailingChars: s.FailingChars, Suggestions: s.Suggestions, Comments: s.Comments,
	}
}

func summaryProto(s store.Summary) *translationv1.Statistics {
	p := statsProto(s.Stats)
	p.LastChange, p.LastAuthor, p.RecentChanges, p.LanguageCode = ts(s.LastChange), s.LastAuthor, s.RecentChanges, s.LanguageCode
	return p
}

func translationProto(t store.Translation) *translationv1.Translation {
	st := statsProto(t.Stats)
	st.LastChange, st.LastAuthor, st.LanguageCode = ts(t.LastChange), t.LastAuthor, t.LanguageCode
	return &translationv1.Translation{
		Id: t.ID, ComponentId: t.ComponentID, ProjectSlug: t.ProjectSlug, ComponentSlug: t.ComponentSlug,
		LanguageCode: t.LanguageCode, Filename: t.Filename, Revision: t.Revision,
		IsSource: t.IsSource, IsTemplate: t.IsTemplate, Stats: st,
		ResourceName: resname.Translation(t.ProjectSlug, t.ComponentSlug, t.LanguageCode),
		Plural: &translationv1.TranslationPlural{Id: t.PluralID, Source: t.PluralSource,
			Number: int32(t.PluralNumber), Formula: t.PluralFormula, Type: t.PluralType}, //nolint:gosec // G115: a plural count, the catalog's int32
	}
}

// stateProto is the enum of a stored state (the reference's number).
func stateProto(state int) typev1.UnitState {
	return weblate.UnitStates.EnumOf(int32(state)) //nolint:gosec // G115: a stored unit state, 0 to 100
}

// storedState is the stored number of a requested state; unspecified is
// empty, as the protos document. An unknown value is refused with
// "Invalid state", as the reference refuses a state it does not accept.
func storedState(state typev1.UnitState) (int, error) {
	if state == typev1.UnitState_UNIT_STATE_UNSPECIFIED {
		return weblate.StateEmpty, nil
	}
	n, ok := weblate.UnitStates.Ref(state)
	if !ok {
		return 0, errs.Invalid("state", "invalid", "Invalid state")
	}
	return int(n), nil
}

func unitProto(v store.UnitView) *translationv1.Unit {
	u := &translationv1.Unit{
		Id: v.ID, ResourceName: resname.Unit(v.ID), TranslationId: v.TranslationID, ProjectSlug: v.Translation.ProjectSlug,
		ComponentSlug: v.Translation.ComponentSlug, LanguageCode: v.Translation.LanguageCode,
		Source: store.Split(v.Source), PreviousSource: v.PreviousSource, Target: store.Split(v.Target),
		IdHash: v.IDHash, ContentHash: v.ContentHash, Location: v.Location, Context: v.Context,
		Note: v.Note, Flags: v.Flags, State: stateProto(v.State), Position: v.Position,
		HasSuggestion: v.HasSuggestion, HasComment: v.HasComment, HasFailingCheck: v.HasFailingCheck,
		NumWords: v.NumWords, Priority: int32(v.Priority), Explanation: v.Explanation, //nolint:gosec // G115: a unit's priority (100 as imported)
		ExtraFlags: v.ExtraFlags, Pending: v.Pending,
		Timestamp: timestamppb.New(v.Timestamp), LastUpdated: timestamppb.New(v.LastUpdated),
	}
	if v.SourceUnitID != nil {
		u.SourceUnitId = *v.SourceUnitID
	}
	return u
}
