package server

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/tmsproject/tms/pkg/errs"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	"github.com/tmsproject/tms/services/translation/store"
)

// MemoryServer is the MemoryService of the translation memory, kept in the
// translation service's database next to the strings that feed it.
type MemoryServer struct {
	translationv1.UnimplementedMemoryServiceServer
	s *Server
}

// Memory is the server's MemoryService.
func (s *Server) Memory() *MemoryServer { return &MemoryServer{s: s} }

// Lookup bounds, the reference's: strings per request, characters per
// string, and the threshold when none is asked.
const (
	maxLookupStrings = 100
	maxLookupChars   = 2000
	defaultThreshold = 80
)

// memoryFilter is the visibility of ctx's caller as a filter: the
// projects it may see when it is restricted.
func (m *MemoryServer) memoryFilter(ctx context.Context) (store.MemoryFilter, error) {
	h, err := m.s.hidden(ctx)
	return store.MemoryFilter{Restricted: h.Restricted, Seen: h.Seen}, err
}

// ListMemory answers a page of the entries the caller may see.
func (m *MemoryServer) ListMemory(ctx context.Context, req *translationv1.ListMemoryRequest) (*translationv1.ListMemoryResponse, error) {
	pg, err := listPage(req)
	if err != nil {
		return nil, err
	}
	f, err := m.memoryFilter(ctx)
	if err != nil {
		return nil, err
	}
	f.Source, f.SourceLanguage, f.TargetLanguage = req.GetSource(), req.GetSourceLanguage(), req.GetTargetLanguage()
	f.Project, f.Origin = req.GetProjectSlug(), req.GetOrigin()
	entries, total, err := m.s.cfg.Store.ListMemory(ctx, f, pg.Offset, pg.Limit)
	if err != nil {
		return nil, err
	}
	out := &translationv1.ListMemoryResponse{Total: total, NextPageToken: pg.Next(total)}
	for _, e := range entries {
		out.Entries = append(out.Entries, memoryProto(e))
	}
	return out, nil
}

// visibleEntry loads an entry of a project the caller may see.
func (m *MemoryServer) visibleEntry(ctx context.Context, id int64) (store.MemoryEntry, error) {
	e, err := m.s.cfg.Store.GetMemory(ctx, id)
	if err == nil {
		err = m.s.mustSee(ctx, e.ProjectSlug)
	}
	return e, err
}

// GetMemory answers one entry.
func (m *MemoryServer) GetMemory(ctx context.Context, req *translationv1.GetMemoryRequest) (*translationv1.GetMemoryResponse, error) {
	e, err := m.visibleEntry(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	return &translationv1.GetMemoryResponse{Entry: memoryProto(e)}, nil
}

// DeleteMemory removes an entry; memory.delete on its project.
func (m *MemoryServer) DeleteMemory(ctx context.Context, req *translationv1.DeleteMemoryRequest) (*translationv1.DeleteMemoryResponse, error) {
	e, err := m.visibleEntry(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	if err = m.requireProject(ctx, "memory.delete", e.ProjectSlug, "Can not delete memory entry"); err != nil {
		return nil, err
	}
	if _, err = m.s.cfg.Store.DeleteMemory(ctx, e.ID, store.MemoryFilter{}); err != nil {
		return nil, err
	}
	return &translationv1.DeleteMemoryResponse{}, nil
}

// DeleteMemoryOrigin removes a project's entries of one origin.
func (m *MemoryServer) DeleteMemoryOrigin(ctx context.Context, req *translationv1.DeleteMemoryOriginRequest) (*translationv1.DeleteMemoryOriginResponse, error) {
	if err := m.s.mustSee(ctx, req.GetProjectSlug()); err != nil {
		return nil, err
	}
	if err := m.requireProject(ctx, "memory.delete", req.GetProjectSlug(), "Can not delete memory entry"); err != nil {
		return nil, err
	}
	if req.GetOrigin() == "" {
		return nil, errs.Invalid("origin", "required", "This field is required.")
	}
	n, err := m.s.cfg.Store.DeleteMemory(ctx, 0, store.MemoryFilter{Project: req.GetProjectSlug(), Origin: req.GetOrigin()})
	if err != nil {
		return nil, err
	}
	return &translationv1.DeleteMemoryOriginResponse{Deleted: n}, nil
}

// memoryScope is the filter of the memory a lookup for project reads: the
// project's own entries, and, when project uses the shared memory, those
// the translations of contributing projects made, of the projects the
// caller may see.
func (s *Server) memoryScope(ctx context.Context, project string) (store.MemoryFilter, error) {
	if s.cfg.Projects == nil {
		return store.MemoryFilter{Project: project}, nil
	}
	shared, err := s.cfg.Projects.SharedMemory(ctx, project)
	return store.MemoryFilter{Project: project, Shared: shared}, err
}

// requireProject fails with PermissionDenied (reason) unless the caller
// holds perm on the project.
func (m *MemoryServer) requireProject(ctx context.Context, perm, project, reason string) error {
	ok, err := m.s.may(ctx, perm, &catalogv1.Component{ProjectSlug: project}, "", true)
	return orDeniedIf(ok, err, reason)
}

// LookupMemory answers each string with its best match.
func (m *MemoryServer) LookupMemory(ctx context.Context, req *translationv1.LookupMemoryRequest) (*translationv1.LookupMemoryResponse, error) {
	if err := validateLookup(req); err != nil {
		return nil, err
	}
	f, err := m.memoryFilter(ctx)
	if err != nil {
		return nil, err
	}
	if p := req.GetProjectSlug(); p != "" {
		if err = m.s.mustSee(ctx, p); err != nil {
			return nil, err
		}
		scope, serr := m.s.memoryScope(ctx, p)
		if serr != nil {
			return nil, serr
		}
		f.Project, f.Shared = scope.Project, scope.Shared
	}
	f.SourceLanguage, f.TargetLanguage = req.GetSourceLanguage(), req.GetTargetLanguage()
	q := store.MemoryQuery{Filter: f, Exact: req.GetExact(), Threshold: int(req.GetThreshold())}
	if q.Threshold == 0 {
		q.Threshold = defaultThreshold
	}
	matches, err := m.s.cfg.Store.LookupMemory(ctx, q, req.GetStrings())
	if err != nil {
		return nil, err
	}
	out := &translationv1.LookupMemoryResponse{}
	for i, text := range req.GetStrings() {
		r := &translationv1.MemoryLookup{Query: text}
		if mt := matches[i]; mt.Found {
			r.Match = &translationv1.MemoryMatch{Entry: memoryProto(mt.Entry), Exact: mt.Entry.Source == text,
				Quality: int32(mt.Quality)} //nolint:gosec // G115: 0 to 100
		}
		out.Results = append(out.Results, r)
	}
	return out, nil
}

// validateLookup checks a lookup as the reference's serializers do.
func validateLookup(req *translationv1.LookupMemoryRequest) error {
	var v errs.Violations
	for field, code := range map[string]string{"source_language": req.GetSourceLanguage(), "target_language": req.GetTargetLanguage()} {
		if code == "" {
			v.Add(field, "required", "This query parameter is required.")
		}
	}
	strs := req.GetStrings()
	switch {
	case len(strs) == 0:
		v.Add("strings", "empty", "This list may not be empty.")
	case len(strs) > maxLookupStrings:
		v.Add("strings", "max_length", fmt.Sprintf("Ensure this field has no more than %d elements.", maxLookupStrings))
	}
	for i, s := range strs {
		field := fmt.Sprintf("strings.%d", i)
		switch {
		case strings.TrimSpace(s) == "":
			v.Add(field, "blank", "This field may not be blank.")
		case !utf8.ValidString(s):
			v.Add(field, "invalid", "Not a valid string.")
		case utf8.RuneCountInString(s) > maxLookupChars:
			v.Add(field, "max_length", fmt.Sprintf("Ensure this field has no more than %d characters.", maxLookupChars))
		}
	}
	if t := req.GetThreshold(); t < 0 || t > 100 {
		v.Add("threshold", "invalid", "Ensure this value is between 1 and 100.")
	}
	return v.Err()
}

func memoryProto(e store.MemoryEntry) *translationv1.MemoryEntry {
	return &translationv1.MemoryEntry{Id: e.ID, Source: e.Source, Target: e.Target, SourceLanguage: e.SourceLanguage,
		TargetLanguage: e.TargetLanguage, Origin: e.Origin, ProjectSlug: e.ProjectSlug, FromFile: e.FromFile,
		Context: e.Context, CreateTime: timestamppb.New(e.CreatedAt)}
}
