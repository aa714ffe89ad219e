package server

import (
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	"github.com/tmsproject/tms/services/catalog/store"
)

// SnapshotProto is the snapshot the translation service keeps of a
// project: the project and its components as the catalog's own calls see
// them (repository credentials included), or the project's removal.
func SnapshotProto(snap store.ProjectSnapshot) *translationv1.CatalogSnapshot {
	out := &translationv1.CatalogSnapshot{ProjectId: snap.ProjectID, Revision: snap.Revision, Removed: snap.Project == nil}
	if snap.Project == nil {
		return out
	}
	out.Project = projectProto(snap.Project)
	out.Components = make([]*catalogv1.Component, 0, len(snap.Components))
	for i := range snap.Components {
		out.Components = append(out.Components, componentProto(&snap.Components[i]))
	}
	return out
}

// LanguageTableProto is the message of a language table snapshot: each
// plural names its language by code.
func LanguageTableProto(snap store.LanguageTableSnapshot) *translationv1.LanguageTable {
	out := &translationv1.LanguageTable{Revision: snap.Revision,
		Languages: make([]*catalogv1.Language, len(snap.Languages)), Plurals: make([]*catalogv1.Plural, 0, len(snap.Plurals))}
	byID := make(map[int64]*store.Language, len(snap.Languages))
	for i := range snap.Languages {
		l := &snap.Languages[i]
		out.Languages[i], byID[l.ID] = languageProto(l), l
	}
	for i := range snap.Plurals {
		if l := byID[snap.Plurals[i].LanguageID]; l != nil {
			out.Plurals = append(out.Plurals, pluralProto(l, &snap.Plurals[i]))
		}
	}
	return out
}
