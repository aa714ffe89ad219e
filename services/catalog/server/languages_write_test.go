package server_test

import (
	"testing"

	"google.golang.org/protobuf/types/known/fieldmaskpb"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
)

// TestLanguageWrites: language.edit writes languages; the code is
// unique (in any case) and the plural valid; an updated plural is what
// the language answers; a deleted language is gone.
func TestLanguageWrites(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	lang := &catalogv1.Language{Code: "xqz", Name: "Testish", PluralNumber: 1, PluralFormula: "0"}
	_, err := e.client.CreateLanguage(policy.WithCaller(ctx, outsider), &catalogv1.CreateLanguageRequest{Language: lang})
	wantKind(t, err, errs.PermissionDenied, nil)
	made, err := e.client.CreateLanguage(ctx, &catalogv1.CreateLanguageRequest{Language: lang})
	if err != nil || made.GetLanguage().GetDirection() != "ltr" || made.GetLanguage().GetPluralNumber() != 1 {
		t.Fatalf("created: %v %v", made, err)
	}
	_, err = e.client.CreateLanguage(ctx, &catalogv1.CreateLanguageRequest{Language: &catalogv1.Language{Code: "XQZ", Name: "Again", PluralNumber: 1, PluralFormula: "0"}})
	wantKind(t, err, errs.InvalidArgument, &violation{field: "code", code: "unique"})
	_, err = e.client.CreateLanguage(ctx, &catalogv1.CreateLanguageRequest{Language: &catalogv1.Language{Code: "xqy", Name: "Y", PluralNumber: 2, PluralFormula: "n >"}})
	wantKind(t, err, errs.InvalidArgument, &violation{field: "plural", code: "invalid"})
	upd, err := e.client.UpdateLanguage(ctx, &catalogv1.UpdateLanguageRequest{Code: "xqz",
		Language:   &catalogv1.Language{PluralNumber: 2, PluralFormula: "n != 1", Direction: "rtl"},
		UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"plural_number", "plural_formula", "direction"}}})
	if err != nil || upd.GetLanguage().GetPluralFormula() != "n != 1" || upd.GetLanguage().GetDirection() != "rtl" {
		t.Errorf("updated: %v %v", upd, err)
	}
	got, err := e.client.GetLanguage(ctx, &catalogv1.GetLanguageRequest{Code: "xqz"})
	if err != nil || got.GetLanguage().GetPluralNumber() != 2 || got.GetLanguage().GetName() != "Testish" {
		t.Errorf("read back: %v %v", got, err)
	}
	_, err = e.client.DeleteLanguage(policy.WithCaller(ctx, outsider), &catalogv1.DeleteLanguageRequest{Code: "xqz"})
	wantKind(t, err, errs.PermissionDenied, nil)
	if _, err = e.client.DeleteLanguage(ctx, &catalogv1.DeleteLanguageRequest{Code: "xqz"}); err != nil {
		t.Fatal(err)
	}
	_, err = e.client.GetLanguage(ctx, &catalogv1.GetLanguageRequest{Code: "xqz"})
	wantKind(t, err, errs.NotFound, nil)
}
