package store_test

import (
	"slices"
	"testing"

	"google.golang.org/protobuf/proto"
	"gorm.io/gorm"

	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	"github.com/tmsproject/tms/services/catalog/store"
)

// inheritAll inherits every setting.
func inheritAll() store.Inherit {
	var in store.Inherit
	for _, p := range in.Ptrs() {
		*p = true
	}
	return in
}

// rechecked are the components whose rechecks were recorded, in order.
func rechecked(t *testing.T, gdb *gorm.DB) []int64 {
	t.Helper()
	var payloads [][]byte
	if err := gdb.Table("removal_events").Where("topic = ?", store.RecheckTopic).Order("id").Pluck("payload", &payloads).Error; err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, p := range payloads {
		var req translationv1.RecheckComponentsRequest
		if err := proto.Unmarshal(p, &req); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, req.GetComponentIds()...)
	}
	return ids
}

// testInheritance: effective settings follow Weblate's inheritance, from
// the project through categories down to components, and follow every
// write of a setting at any level; a change of effective check flags
// rechecks exactly the components it reaches.
func testInheritance(t *testing.T, s *store.Store, gdb *gorm.DB) {
	ctx := t.Context()
	p := newProject("inh")
	p.Settings = store.Settings{License: "MIT", NewLang: "add", CommitMessage: "project {{ language_name }}"}
	p.CheckFlags = "c-format"
	if err := s.CreateProject(ctx, p, "", nil); err != nil {
		t.Fatal(err)
	}
	top := &store.Category{ProjectID: p.ID, Name: "Top", Slug: "top", CheckFlags: "max-length:10",
		Settings: store.Settings{License: "GPL-3.0-only", NewLang: "none"}, Inherit: inheritAll()}
	top.InheritNewLang = false
	if err := s.SaveCategory(ctx, top); err != nil {
		t.Fatal(err)
	}
	sub := &store.Category{ProjectID: p.ID, ParentID: top.ID, Name: "Sub", Slug: "sub",
		Settings: store.Settings{License: "Apache-2.0"}, Inherit: inheritAll()}
	sub.InheritLicense = false
	if err := s.SaveCategory(ctx, sub); err != nil {
		t.Fatal(err)
	}
	inSub := newComponent(p.ID, "insub")
	inSub.CategoryID, inSub.Inherit = sub.ID, inheritAll()
	inTop := newComponent(p.ID, "intop")
	inTop.CategoryID, inTop.Inherit, inTop.FileFormat, inTop.CheckFlags = top.ID, inheritAll(), "strings", "max-length:20"
	own := newComponent(p.ID, "own")
	own.Settings = store.Settings{License: "BSD-3-Clause", NewLang: "contact", CommitMessage: "own"}
	for _, c := range []*store.Component{inSub, inTop, own} {
		if err := s.CreateComponent(ctx, c, nil); err != nil {
			t.Fatal(err)
		}
	}
	check := func(when string, c *store.Component, license, newLang, message, flags string) {
		t.Helper()
		got, err := s.GetComponentByID(ctx, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		e := got.Effective
		if e.License != license || e.NewLang != newLang || e.CommitMessage != message || e.CheckFlags != flags {
			t.Errorf("%s: %s: effective %q %q %q %q, want %q %q %q %q", when, c.Slug,
				e.License, e.NewLang, e.CommitMessage, e.CheckFlags, license, newLang, message, flags)
		}
	}
	check("created", inSub, "Apache-2.0", "none", "project {{ language_name }}", "c-format, max-length:10")
	check("created", inTop, "MIT", "none", "project {{ language_name }}", "c-format, max-length:20, objc-format")
	check("created", own, "BSD-3-Clause", "contact", "own", "c-format")

	before := len(rechecked(t, gdb))
	p.License, p.CommitMessage, p.CheckFlags = "EUPL-1.2", "changed", "c-format, ignore-same"
	if err := s.SaveProject(ctx, p, nil); err != nil {
		t.Fatal(err)
	}
	check("project saved", inSub, "Apache-2.0", "none", "changed", "c-format, ignore-same, max-length:10")
	check("project saved", inTop, "EUPL-1.2", "none", "changed", "c-format, ignore-same, max-length:20, objc-format")
	check("project saved", own, "BSD-3-Clause", "contact", "own", "c-format, ignore-same")
	if got := rechecked(t, gdb)[before:]; !slices.Equal(got, []int64{inSub.ID, inTop.ID, own.ID}) {
		t.Errorf("project flags changed: rechecked %v", got)
	}

	// The subcategory moves to the top: the top category's values no
	// longer reach it, and only its components are rechecked.
	before = len(rechecked(t, gdb))
	sub.ParentID = 0
	if err := s.SaveCategory(ctx, sub); err != nil {
		t.Fatal(err)
	}
	check("category moved", inSub, "Apache-2.0", "add", "changed", "c-format, ignore-same")
	if got := rechecked(t, gdb)[before:]; !slices.Equal(got, []int64{inSub.ID}) {
		t.Errorf("category moved: rechecked %v", got)
	}
	if got, err := s.GetCategory(ctx, sub.ID); err != nil || got.Effective.NewLang != "add" || got.Effective.License != "Apache-2.0" {
		t.Errorf("category moved: %+v, %v", got, err)
	}

	// A component moved into a category takes the category's effective
	// values (the top category inherits its license from the project).
	own.CategoryID, own.InheritLicense = top.ID, true
	if err := s.SaveComponent(ctx, own, nil); err != nil {
		t.Fatal(err)
	}
	check("component moved", own, "EUPL-1.2", "contact", "own", "c-format, ignore-same, max-length:10")
}

// testBackfill: rows stored before the settings existed (effective never
// computed) get the default messages and their effective settings once;
// a second run changes nothing.
func testBackfill(t *testing.T, s *store.Store, gdb *gorm.DB) {
	ctx := t.Context()
	p := newProject("old")
	p.CheckFlags = "c-format"
	if err := s.CreateProject(ctx, p, "", nil); err != nil {
		t.Fatal(err)
	}
	c := newComponent(p.ID, "old")
	c.CommitMessage = "component's own"
	if err := s.CreateComponent(ctx, c, nil); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"UPDATE projects SET effective = '', commit_message = ''", "UPDATE components SET effective = ''"} {
		if err := gdb.Exec(q).Error; err != nil {
			t.Fatal(err)
		}
	}
	defaults := store.Settings{CommitMessage: "default", AddMessage: "add"}
	for range 2 {
		if err := s.Backfill(ctx, defaults); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.GetProject(ctx, "old")
	if err != nil || got.CommitMessage != "default" || got.AddMessage != "add" || got.Effective.CommitMessage != "default" || got.Effective.CheckFlags != "c-format" {
		t.Errorf("project: %+v, %v", got, err)
	}
	comp, err := s.GetComponentByID(ctx, c.ID)
	if err != nil || comp.Effective.CommitMessage != "component's own" || comp.Effective.CheckFlags != "c-format" {
		t.Errorf("component: %+v, %v", comp.Effective, err)
	}
}
