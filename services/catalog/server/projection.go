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
