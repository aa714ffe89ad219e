package translation_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"
	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/errs"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation"
	"github.com/tmsproject/tms/services/translation/internal/fixture"
	"github.com/tmsproject/tms/services/translation/server"
)

// uploadPO is a pt_BR file: Send translated, Close fuzzy, Help translated,
// an unknown string, and the rest of the fixture untranslated.
var uploadPO = strings.NewReplacer(
	"msgid \"Send\"\nmsgstr \"\"", "msgid \"Send\"\nmsgstr \"Enviar\"",
	"#: src/dialog.c:10\nmsgid \"Close\"\nmsgstr \"\"", "#: src/dialog.c:10\n#, fuzzy\nmsgid \"Close\"\nmsgstr \"Fechar\"",
	"msgid \"Help\"\nmsgstr \"\"", "msgid \"Help\"\nmsgstr \"Ajuda\"",
).Replace(fixture.PO("pt_BR")) + "\nmsgid \"Unknown\"\nmsgstr \"Desconhecido\"\n"

func (e *env) upload(t *testing.T, code, method, conflicts, fuzzy string, content string) (*translationv1.UploadFileResponse, error) {
	t.Helper()
	return e.client.UploadFile(t.Context(), &translationv1.UploadFileRequest{ComponentId: 1, LanguageCode: code,
		Content: []byte(content), Method: method, Conflicts: conflicts, Fuzzy: fuzzy, Actor: "ana", ActorCanReview: true})
}

func counts(r *translationv1.UploadFileResponse) [4]int64 {
	return [4]int64{r.GetNotFound(), r.GetSkipped(), r.GetAccepted(), r.GetTotal()}
}

func TestUploadMethods(t *testing.T) {
	tests := []struct {
		name, method, conflicts, fuzzy string
		want                           [4]int64         // not_found, skipped, accepted, total
		send, close                    typev1.UnitState // states after
	}{
		{"translate", "", "", "", [4]int64{1, 0, 2, 16}, typev1.UnitState_UNIT_STATE_TRANSLATED, typev1.UnitState_UNIT_STATE_EMPTY},
		{"fuzzy process", "translate", "", "process", [4]int64{1, 0, 3, 16}, typev1.UnitState_UNIT_STATE_TRANSLATED, typev1.UnitState_UNIT_STATE_FUZZY},
		{"fuzzy approve", "translate", "", "approve", [4]int64{1, 0, 3, 16}, typev1.UnitState_UNIT_STATE_TRANSLATED, typev1.UnitState_UNIT_STATE_TRANSLATED},
		{"method fuzzy", "fuzzy", "", "", [4]int64{1, 0, 2, 16}, typev1.UnitState_UNIT_STATE_FUZZY, typev1.UnitState_UNIT_STATE_EMPTY},
		{"approve", "approve", "", "", [4]int64{1, 0, 2, 16}, typev1.UnitState_UNIT_STATE_APPROVED, typev1.UnitState_UNIT_STATE_EMPTY},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _ := setupRepo(t, nil)
			r, err := e.upload(t, "pt_BR", tt.method, tt.conflicts, tt.fuzzy, uploadPO)
			if err != nil {
				t.Fatal(err)
			}
			if counts(r) != tt.want || !r.GetResult() || r.GetCount() != tt.want[3] {
				t.Errorf("counts = %v, want %v", counts(r), tt.want)
			}
			if s := e.unit(t, "pt_BR", "Send").GetState(); s != tt.send {
				t.Errorf("Send state %s, want %s", s, tt.send)
			}
			if s := e.unit(t, "pt_BR", "Close").GetState(); s != tt.close {
				t.Errorf("Close state %s, want %s", s, tt.close)
			}
			waitChanges(t, e, int(tt.want[2]), func(c *changelogv1.Change) bool { return c.GetAction() == typev1.ChangeAction_CHANGE_ACTION_UPLOAD })
			got := waitChanges(t, e, 1, func(c *changelogv1.Change) bool {
				return c.GetAction() == typev1.ChangeAction_CHANGE_ACTION_FILE_UPLOAD
			})
			if d := details(t, got[0]); d["accepted"] != float64(tt.want[2]) || d["method"] != or(tt.method, "translate") {
				t.Errorf("upload record details %v", d)
			}
		})
	}
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func TestUploadConflicts(t *testing.T) {
	e, _ := setupRepo(t, nil)
	cs := strings.Replace(fixture.PO("cs"), `msgstr "[cs] Close"`, `msgstr "Zavřít"`, 1)
	r, err := e.upload(t, "cs", "translate", "", "", cs)
	if err != nil || counts(r) != [4]int64{0, 13, 0, 15} {
		t.Fatalf("default conflicts: %v %v", counts(r), err)
	}
	r, err = e.upload(t, "cs", "translate", "replace-translated", "", cs)
	if err != nil || counts(r) != [4]int64{0, 12, 1, 15} || e.unit(t, "cs", "Close").GetTarget()[0] != "Zavřít" {
		t.Fatalf("replace-translated: %v %v", counts(r), err)
	}
	if _, err := e.upload(t, "cs", "approve", "replace-translated", "", strings.Replace(cs, "Zavřít", "Zavři", 1)); err != nil {
		t.Fatal(err)
	}
	r, _ = e.upload(t, "cs", "translate", "replace-translated", "", cs)
	if counts(r)[2] != 0 || e.unit(t, "cs", "Close").GetState() != typev1.UnitState_UNIT_STATE_APPROVED {
		t.Errorf("approved string replaced without replace-approved: %v", counts(r))
	}
	// The approve upload approved every string it carried; replace-approved
	// turns them all back to translated.
	r, _ = e.upload(t, "cs", "translate", "replace-approved", "", cs)
	if counts(r)[2] != 13 || e.unit(t, "cs", "Close").GetState() != typev1.UnitState_UNIT_STATE_TRANSLATED {
		t.Errorf("replace-approved: %v", counts(r))
	}
}

func TestUploadSuggestAddReplace(t *testing.T) {
	e, origin := setupRepo(t, func(c *catalogv1.Component) { c.ManageUnits = true })
	r, err := e.upload(t, "pt_BR", "suggest", "", "", uploadPO)
	if err != nil || counts(r) != [4]int64{1, 0, 2, 16} {
		t.Fatalf("suggest: %v %v", counts(r), err)
	}
	if u := e.unit(t, "pt_BR", "Send"); u.GetState() != typev1.UnitState_UNIT_STATE_EMPTY || !u.GetHasSuggestion() {
		t.Errorf("suggest changed the unit or made no suggestion: %+v", u)
	}
	// The fuzzy Close is not taken (fuzzy ""), the 14 others exist.
	r, err = e.upload(t, "pt_BR", "add", "", "", uploadPO)
	if err != nil || counts(r) != [4]int64{0, 14, 1, 16} {
		t.Fatalf("add: %v %v", counts(r), err)
	}
	if u := e.unit(t, "pt_BR", "Unknown"); u.GetTarget()[0] != "Desconhecido" || !u.GetPending() {
		t.Errorf("added unit %+v", u)
	}
	if res := e.op(t, "push"); !res.GetResult() {
		t.Fatal(res)
	}
	if pt := originFile(t, origin, "po/pt_BR.po"); !strings.Contains(pt, "msgid \"Unknown\"\nmsgstr \"Desconhecido\"") {
		t.Errorf("added string not written:\n%s", pt)
	}
	replaced := strings.Replace(fixture.PO("pt_BR"), "msgid \"Theme\"\nmsgstr \"\"", "msgid \"Theme\"\nmsgstr \"Tema\"", 1)
	r, err = e.upload(t, "pt_BR", "replace", "", "", replaced)
	if err != nil || r.GetTotal() != 15 {
		t.Fatalf("replace: %v %v", counts(r), err)
	}
	if u := e.unit(t, "pt_BR", "Theme"); u.GetTarget()[0] != "Tema" || u.GetState() != typev1.UnitState_UNIT_STATE_TRANSLATED || u.GetPending() {
		t.Errorf("replaced file not re-read: %+v", u)
	}
	if res := e.op(t, "push"); !res.GetResult() || originFile(t, origin, "po/pt_BR.po") != replaced {
		t.Errorf("replaced file not pushed as uploaded: %+v", res)
	}
}

func TestUploadErrors(t *testing.T) {
	e, _ := setupRepo(t, nil)
	_, err := e.upload(t, "pt_BR", "", "", "", "msgid \"a\"\nmsgstr \"b\"\nbogus line\n")
	if fe := errs.FromStatus(err); fe.Kind != errs.InvalidArgument || len(fe.Fields) != 1 || fe.Fields[0].Field != "file" ||
		!strings.Contains(fe.Fields[0].Description, "line 3") {
		t.Errorf("parse error: %v", err)
	}
	if _, err = e.upload(t, "pt_BR", "explode", "", "", uploadPO); kind(err) != errs.InvalidArgument {
		t.Errorf("bad method: %v", err)
	}
	if _, err = e.upload(t, "pt_BR", "", "sometimes", "", uploadPO); kind(err) != errs.InvalidArgument {
		t.Errorf("bad conflicts: %v", err)
	}
	if _, err = e.upload(t, "cs", "", "", "", uploadPO); kind(err) != errs.InvalidArgument {
		t.Errorf("plural mismatch accepted: %v", err)
	}
	if _, err = e.upload(t, "xx", "", "", "", uploadPO); kind(err) != errs.NotFound {
		t.Errorf("missing translation: %v", err)
	}
	_, err = e.client.UploadFile(t.Context(), &translationv1.UploadFileRequest{ComponentId: 1, LanguageCode: "pt_BR",
		Content: []byte(uploadPO), Method: "approve", Actor: "ana"})
	if kind(err) != errs.PermissionDenied {
		t.Errorf("approve without the reviewer role: %v", err)
	}
}

// TestUploadMethodRefusals: a method the translation cannot take is
// refused before the file is read, as the reference's upload serializer
// refuses it (400 on "method"), and changes nothing.
func TestUploadMethodRefusals(t *testing.T) {
	const (
		unavailable = "This method is not available here. Check your permissions or use different translation object."
		addToSource = "This method is not available here. Try adding to the source instead of the translation."
	)
	mono := func(c *catalogv1.Component) {
		c.FileFormat, c.Filemask, c.Template, c.NewBase, c.ManageUnits = "json", "json/*.json", "json/en.json", "", true
	}
	tests := []struct {
		name, code, method string
		mod                func(*catalogv1.Component)
		review             bool
		want               string
	}{
		{"approve with review off", "pt_BR", "approve", nil, false, unavailable},
		{"suggest with suggestions off", "pt_BR", "suggest", func(c *catalogv1.Component) { c.EnableSuggestions = false }, true, unavailable},
		{"add without manage_units", "pt_BR", "add", nil, true, addToSource},
		{"add to the source without manage_units", "en", "add", nil, true, unavailable},
		{"replace the source of a bilingual component", "en", "replace", nil, true, unavailable},
		{"source to a bilingual translation", "pt_BR", "source", nil, true, "Source upload is supported only on source language."},
		{"add to a monolingual translation", "cs", "add", mono, true, addToSource},
		{"add to a template that may not be edited", "en", "add", func(c *catalogv1.Component) { mono(c); c.EditTemplate = false }, true, unavailable},
		{"source to a monolingual template", "en", "source", mono, true, unavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := setupSourceRepo(t, tt.mod)
			p := proto.CloneOf(project)
			p.TranslationReview = tt.review
			e.catalog.Set(e.catalog.Component(1), p)
			before := sourceSnapshot(t, e)
			_, err := e.upload(t, tt.code, tt.method, "", "", "not even a file of the format")
			fe := errs.FromStatus(err)
			if fe.Kind != errs.InvalidArgument || len(fe.Fields) != 1 || fe.Fields[0].Field != "method" || fe.Fields[0].Description != tt.want {
				t.Errorf("error %v, want %q on method", err, tt.want)
			}
			if sourceSnapshot(t, e) != before {
				t.Error("refused upload changed the source strings")
			}
		})
	}
}

// TestUploadReplaceTemplate: replace on the source translation of a
// monolingual component writes its template, as the reference's
// handle_replace does, and every translation takes the new source text.
func TestUploadReplaceTemplate(t *testing.T) {
	e := setupSourceRepo(t, func(c *catalogv1.Component) {
		c.FileFormat, c.Filemask, c.Template, c.NewBase = "json", "json/*.json", "json/en.json", ""
	})
	r, err := e.upload(t, "en", "replace", "", "", "{\n    \"hello\": \"Hello there\"\n}\n")
	if err != nil || counts(r) != [4]int64{0, 0, 1, 1} {
		t.Fatalf("replace: %v %v", counts(r), err)
	}
	for _, code := range []string{"en", "cs"} {
		us := e.units(t, e.translation(t, 1, code).GetId())
		if len(us) != 1 || us[0].GetSource()[0] != "Hello there" {
			t.Errorf("%s units after replacing the template: %v", code, us)
		}
	}
}

func TestCommitAged(t *testing.T) {
	e, origin := setupRepo(t, nil) // commit_pending_age 0 in the fixture component
	e.edit(t, "pt_BR", "Send", []string{"Enviar"}, 20, "ana")
	c := e.catalog.Component(1)
	c.CommitPendingAge, c.PushOnCommit = 1, true
	e.catalog.Set(c, project)
	if err := e.svc.CommitAged(t.Context(), time.Now()); err != nil {
		t.Fatal(err)
	}
	if !e.repository(t, "").GetNeedsCommit() {
		t.Fatal("committed before commit_pending_age")
	}
	if err := e.svc.CommitAged(t.Context(), time.Now().Add(61*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if e.repository(t, "").GetNeedsCommit() || !strings.Contains(originFile(t, origin, "po/pt_BR.po"), "Enviar") {
		t.Error("aged edit not committed and pushed")
	}
}

// TestUploadFailingMidwayChangesNothing makes the database refuse one
// string of an upload after others were written: the upload fails, and
// the translation, its statistics and the pending change records are as
// before, for every method that writes strings.
func TestUploadFailingMidwayChangesNothing(t *testing.T) {
	tests := []struct {
		name, method string
		trigger      string // refuses a write that comes after others of the same upload
	}{
		{"translate", "translate", `BEFORE UPDATE ON units WHEN NEW.target = 'Ajuda'`},
		{"approve", "approve", `BEFORE UPDATE ON units WHEN NEW.target = 'Ajuda'`},
		{"suggest", "suggest", `BEFORE INSERT ON suggestions WHEN NEW.target = 'Ajuda'`},
		{"add", "add", `BEFORE INSERT ON units WHEN NEW.source = 'Later'`}, // after Unknown
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _ := setupRepo(t, func(c *catalogv1.Component) { c.ManageUnits = true })
			gdb := e.svc.DB()
			if err := gdb.Exec(`CREATE TRIGGER refuse ` + tt.trigger + ` BEGIN SELECT RAISE(ABORT, 'injected failure'); END`).Error; err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, e, gdb)
			content := uploadPO + "\nmsgid \"Later\"\nmsgstr \"Depois\"\n"
			if _, err := e.upload(t, "pt_BR", tt.method, "", "", content); kind(err) != errs.Internal {
				t.Fatalf("upload with a refused write: %v, want an internal error", err)
			}
			if after := snapshot(t, e, gdb); after != before {
				t.Errorf("after a failed upload:\n%s\nwant as before:\n%s", after, before)
			}
		})
	}
}

// snapshot is what an upload may change of pt_BR: its units (text and
// state), suggestions, statistics and the change records not yet sent.
func snapshot(t *testing.T, e *env, gdb *gorm.DB) string {
	t.Helper()
	var b strings.Builder
	tr := e.translation(t, 1, "pt_BR")
	fmt.Fprintf(&b, "statistics %v\n", tr.GetStats())
	for _, u := range e.units(t, tr.GetId()) {
		fmt.Fprintf(&b, "%q %q %s\n", u.GetSource(), u.GetTarget(), u.GetState())
	}
	var suggestions, events int64
	if err := gdb.Raw(`SELECT count(*) FROM suggestions`).Scan(&suggestions).Error; err != nil {
		t.Fatal(err)
	}
	if err := gdb.Raw(`SELECT count(*) FROM outbox_events`).Scan(&events).Error; err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "suggestions %d, change events %d\n", suggestions, events)
	return b.String()
}

// TestUploadLimits: an upload that would make more suggestions, or add
// more strings, than one upload may is refused whole, naming the limit,
// and changes nothing; at the limit it is taken.
func TestUploadLimits(t *testing.T) {
	limits := func(s, n int, changes ...int) func(*translation.Config) {
		return func(c *translation.Config) {
			c.Upload = server.UploadLimits{MaxSuggestions: s, MaxNewStrings: n, MaxChanges: append(changes, 0)[0]}
		}
	}
	twoNew := uploadPO + "\nmsgid \"Another\"\nmsgstr \"Outro\"\n"
	cases := []struct {
		name, method, content string
		limits                func(*translation.Config)
		refused               bool
	}{
		{"suggest over", "suggest", uploadPO, limits(1, 10), true}, // two suggestions
		{"suggest at the limit", "suggest", uploadPO, limits(2, 10), false},
		{"add at the limit", "add", uploadPO, limits(10, 1), false}, // one new string
		{"add over", "add", twoNew, limits(10, 1), true},
		{"translate at the limit", "translate", uploadPO, limits(10, 10, 2), false}, // two strings changed
		{"translate over", "translate", uploadPO, limits(10, 10, 1), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e, _ := setupRepoWith(t, c.limits, func(comp *catalogv1.Component) { comp.ManageUnits = true })
			before, sendBefore := e.translation(t, 1, "pt_BR"), e.unit(t, "pt_BR", "Send")
			_, err := e.upload(t, "pt_BR", c.method, "", "", c.content)
			if !c.refused {
				if err != nil {
					t.Fatalf("within the limits: %v", err)
				}
				return
			}
			fe := errs.FromStatus(err)
			if fe.Kind != errs.InvalidArgument || len(fe.Fields) != 1 || fe.Fields[0].Field != "file" ||
				!strings.Contains(fe.Fields[0].Description, "at most 1") {
				t.Fatalf("over the limit: %v", err)
			}
			after := e.translation(t, 1, "pt_BR")
			send := e.unit(t, "pt_BR", "Send")
			if after.GetStats().GetTotal() != before.GetStats().GetTotal() || send.GetHasSuggestion() || send.GetState() != sendBefore.GetState() {
				t.Errorf("a refused upload changed the translation: %d -> %d strings", before.GetStats().GetTotal(), after.GetStats().GetTotal())
			}
		})
	}
}
