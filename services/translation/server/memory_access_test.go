package server_test

import (
	"slices"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/store"
)

// TestMemoryAndMachineryAccess: over gRPC, the memory of a private
// project, its automatic translation and its machinery answer only those
// who may see it (to others as if it were not there), and deleting an
// entry takes memory.delete on its project.
func TestMemoryAndMachineryAccess(t *testing.T) {
	r := newRig(t, dbtest.SQLite(t, store.Sources()...))
	r.addPrivateComponent()
	st := store.New(r.gdb)
	if _, err := st.Remember(t.Context(), []store.MemoryEntry{
		{ProjectSlug: "p", SourceLanguage: "en", TargetLanguage: "cs", Source: "Open the file", Target: "Otevřít soubor", Origin: "p/c"},
		{ProjectSlug: "secret", SourceLanguage: "en", TargetLanguage: "cs", Source: "Secret plans tonight", Target: "Tajné plány", Origin: "secret/app"},
		{ProjectSlug: "secret", SourceLanguage: "en", TargetLanguage: "de", Source: "Secret", Target: "Geheim", Origin: "secret.tmx", FromFile: true},
	}); err != nil {
		t.Fatal(err)
	}
	// The import queued the translated "Über uns" of project p; the
	// memory's batch (RunMemoryQueue in a service) takes it.
	if empty, err := st.RememberQueued(t.Context(), 100); err != nil || !empty {
		t.Fatalf("remember the queue: empty %v, %v", empty, err)
	}
	all, err := r.memory.ListMemory(t.Context(), &translationv1.ListMemoryRequest{})
	if err != nil || all.GetTotal() != 4 {
		t.Fatalf("service's list: %v %v", all, err)
	}
	ids := map[string]int64{}
	for _, e := range all.GetEntries() {
		ids[e.GetSource()] = e.GetId()
	}
	public, secret := ids["Open the file"], ids["Secret plans tonight"]
	secretUnit := r.units(r.secretTranslation(t), "")[0].GetId()
	member := policy.Caller{Username: "mia", Grants: append(policy.DefaultGrants(false),
		policy.Grant{ProjectSelection: policy.SelectManual, Projects: []string{"secret"}})}
	for _, tc := range []struct {
		name   string
		caller policy.Caller
		secret bool
	}{
		{"anonymous", policy.Anonymous, false},
		{"outsider", policy.NewAccount("olga"), false},
		{"member", member, true},
		{"superuser", policy.Caller{Username: "root", Superuser: true}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := policy.WithCaller(t.Context(), tc.caller)
			hidden := map[bool]codes.Code{false: codes.NotFound, true: codes.OK}[tc.secret]
			list, err := r.memory.ListMemory(ctx, &translationv1.ListMemoryRequest{})
			if want := map[bool]int64{false: 2, true: 4}[tc.secret]; err != nil || list.GetTotal() != want {
				t.Errorf("list: %d entries (%v), want %d", list.GetTotal(), err, want)
			}
			_, err = r.memory.GetMemory(ctx, &translationv1.GetMemoryRequest{Id: secret})
			wantCode(t, "get the private entry", err, hidden)
			look, err := r.memory.LookupMemory(ctx, &translationv1.LookupMemoryRequest{SourceLanguage: "en",
				TargetLanguage: "cs", Strings: []string{"Secret plans tonight", "Secret plans for tonight"}})
			if err != nil {
				t.Fatal(err)
			}
			for _, res := range look.GetResults() {
				if (res.GetMatch() != nil) != tc.secret {
					t.Errorf("lookup %q: match %v", res.GetQuery(), res.GetMatch())
				}
			}
			_, err = r.memory.LookupMemory(ctx, &translationv1.LookupMemoryRequest{SourceLanguage: "en",
				TargetLanguage: "cs", ProjectSlug: "secret", Strings: []string{"x"}})
			wantCode(t, "look up in the private project", err, hidden)
			exp, err := r.memory.ExportMemory(ctx, &translationv1.ExportMemoryRequest{ProjectSlug: "secret"})
			if err == nil {
				_, err = exp.Recv()
			}
			wantCode(t, "export the private project", err, hidden)
			// Machinery takes machinery.view (a translator's); seeing
			// the project is not enough.
			mt, err := r.client.ListMachinery(ctx, &translationv1.ListMachineryRequest{UnitId: secretUnit})
			wantCode(t, "machinery of a private unit", err, map[string]codes.Code{"anonymous": codes.NotFound,
				"outsider": codes.NotFound, "member": codes.PermissionDenied, "superuser": codes.OK}[tc.name])
			if tc.name == "superuser" && (len(mt.GetSuggestions()) != 1 || mt.GetSuggestions()[0].GetText() != "Geheim" ||
				mt.GetSuggestions()[0].GetQuality() != 100) {
				t.Errorf("machinery: %v, want the memory's Geheim", mt)
			}
			_, err = r.client.AutoTranslate(ctx, &translationv1.AutoTranslateRequest{ComponentId: 2, LanguageCode: "de",
				Mode: "suggest", FilterType: "todo", AutoSource: "others"})
			if !tc.secret {
				wantCode(t, "autotranslate the private project", err, codes.NotFound)
			}
			// Nobody but a project's managers deletes its memory; the
			// anonymous caller is told to sign in.
			if tc.name != "superuser" {
				_, err = r.memory.DeleteMemory(ctx, &translationv1.DeleteMemoryRequest{Id: public})
				wantCode(t, "delete a public entry", err, map[bool]codes.Code{true: codes.Unauthenticated,
					false: codes.PermissionDenied}[tc.name == "anonymous"])
			}
		})
	}
	ctx := policy.WithCaller(t.Context(), policy.Caller{Username: "root", Superuser: true})
	if _, err := r.memory.DeleteMemory(ctx, &translationv1.DeleteMemoryRequest{Id: public}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.memory.GetMemory(ctx, &translationv1.GetMemoryRequest{Id: public}); status.Code(err) != codes.NotFound {
		t.Errorf("deleted entry: %v", err)
	}
}

// secretTranslation is the id of the private component's German
// translation.
func (r *rig) secretTranslation(t *testing.T) int64 {
	t.Helper()
	resp, err := r.client.ListTranslations(t.Context(), &translationv1.ListTranslationsRequest{ComponentIds: []int64{2}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range resp.GetTranslations() {
		if tr.GetLanguageCode() == "de" {
			return tr.GetId()
		}
	}
	t.Fatal("no German translation of component 2")
	return 0
}

func wantCode(t *testing.T, what string, err error, want codes.Code) {
	t.Helper()
	if got := status.Code(err); got != want {
		t.Errorf("%s: %v, want %v", what, err, want)
	}
}

// TestSharedMemory: a lookup for a project using the shared memory reads
// the entries translations made in projects contributing to it, those
// the caller may see, and neither their imported files nor projects that
// do not contribute; the machinery's memory engine reads the same, and a
// component of a project that does not contribute is no source of
// automatic translation.
func TestSharedMemory(t *testing.T) {
	r := newRig(t, dbtest.SQLite(t, store.Sources()...))
	r.addPrivateComponent()
	r.catalog.Set(comp, &catalogv1.Project{Slug: "p", TranslationReview: true, UseSharedTm: true})
	r.catalog.Set(&catalogv1.Component{Id: 2, ProjectSlug: "secret", Slug: "app", SourceLanguageCode: "en", FileFormat: "po"},
		&catalogv1.Project{Slug: "secret", AccessControl: typev1.AccessControl_ACCESS_CONTROL_PRIVATE, ContributeSharedTm: true})
	r.catalog.Set(&catalogv1.Component{Id: 3, ProjectSlug: "open", Slug: "docs", SourceLanguageCode: "en"},
		&catalogv1.Project{Slug: "open", ContributeSharedTm: true})
	r.catalog.Set(&catalogv1.Component{Id: 4, ProjectSlug: "closed", Slug: "ui", SourceLanguageCode: "en"},
		&catalogv1.Project{Slug: "closed"})
	entry := func(project, source, target string, file bool) store.MemoryEntry {
		return store.MemoryEntry{ProjectSlug: project, SourceLanguage: "en", TargetLanguage: "cs", Source: source,
			Target: target, Origin: project + "/x", FromFile: file}
	}
	if _, err := store.New(r.gdb).Remember(t.Context(), []store.MemoryEntry{
		entry("open", "Save the document", "Uložit dokument", false), entry("open", "Hello", "Ahoj", false),
		entry("open", "Print a report", "Vytisknout zprávu", true), entry("closed", "Close the window", "Zavřít okno", false),
		entry("secret", "Secret plans tonight", "Tajné plány", false),
	}); err != nil {
		t.Fatal(err)
	}
	strs := []string{"Save the document", "Print a report", "Close the window", "Secret plans tonight"}
	lookup := func(t *testing.T, caller policy.Caller) []bool {
		t.Helper()
		resp, err := r.memory.LookupMemory(policy.WithCaller(t.Context(), caller), &translationv1.LookupMemoryRequest{
			SourceLanguage: "en", TargetLanguage: "cs", ProjectSlug: "p", Exact: true, Strings: strs})
		if err != nil {
			t.Fatal(err)
		}
		var found []bool
		for _, res := range resp.GetResults() {
			found = append(found, res.GetMatch() != nil)
		}
		return found
	}
	member := policy.Caller{Username: "mia", Grants: append(policy.DefaultGrants(false),
		policy.Grant{ProjectSelection: policy.SelectManual, Projects: []string{"secret"}})}
	root := policy.Caller{Username: "root", Superuser: true}
	for _, tc := range []struct {
		name   string
		caller policy.Caller
		want   []bool
	}{
		{"anonymous", policy.Anonymous, []bool{true, false, false, false}},
		{"member of the private project", member, []bool{true, false, false, true}},
		{"superuser", root, []bool{true, false, false, true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := lookup(t, tc.caller); !slices.Equal(got, tc.want) {
				t.Errorf("found %v of %q, want %v", got, strs, tc.want)
			}
		})
	}
	hello := r.units(r.cs, "")[0]
	mt, err := r.client.ListMachinery(policy.WithCaller(t.Context(), root), &translationv1.ListMachineryRequest{UnitId: hello.GetId()})
	if err != nil || len(mt.GetSuggestions()) != 1 || mt.GetSuggestions()[0].GetText() != "Ahoj" {
		t.Errorf("machinery of %q: %v %v, want the shared Ahoj", hello.GetSource(), mt, err)
	}
	_, err = r.client.AutoTranslate(policy.WithCaller(t.Context(), root), &translationv1.AutoTranslateRequest{ComponentId: 1,
		LanguageCode: "cs", Mode: "suggest", FilterType: "todo", AutoSource: "others", Component: "closed/ui", Threshold: 80})
	if st, _ := status.FromError(err); st.Code() != codes.InvalidArgument || !strings.Contains(st.Message(), "disabled contribution") {
		t.Errorf("autotranslate from a project that does not contribute: %v", err)
	}
	// A project that stops using the shared memory reads its own only.
	r.catalog.Set(comp, &catalogv1.Project{Slug: "p", TranslationReview: true})
	if got := lookup(t, root); slices.Contains(got, true) {
		t.Errorf("without the shared memory: found %v", got)
	}
}
