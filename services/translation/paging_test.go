package translation_test

import (
	"encoding/base64"
	"slices"
	"strconv"
	"testing"

	"github.com/tmsproject/tms/pkg/errs"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	"github.com/tmsproject/tms/services/translation/internal/fixture"
)

// TestListUnitsPageTokens pages through a translation's units with page
// tokens to the end, and refuses a token that was altered or is sent with
// other filters.
func TestListUnitsPageTokens(t *testing.T) {
	e := newEnv(t, true)
	e.catalog.Set(greeter(1, fixture.Origin(t, fixture.Files())), project)
	if task := e.importNow(t, 1); task.GetError() != "" {
		t.Fatal(task.GetError())
	}
	de := e.translation(t, 1, "de")
	var want []int64
	for _, u := range e.units(t, de.GetId()) {
		want = append(want, u.GetId())
	}
	if len(want) < 3 {
		t.Fatalf("%d units in the fixture, want 3 or more to page", len(want))
	}
	t.Run("to the end", func(t *testing.T) {
		var got []int64
		req := &translationv1.ListUnitsRequest{ComponentId: 1, LanguageCode: "de", PageSize: 2}
		for range len(want) {
			resp, err := e.client.ListUnits(t.Context(), req)
			if err != nil {
				t.Fatal(err)
			}
			for _, u := range resp.GetUnits() {
				got = append(got, u.GetId())
			}
			if req.PageToken = resp.GetNextPageToken(); req.PageToken == "" {
				break
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("paged ids %v, want %v", got, want)
		}
	})
	first, err := e.client.ListUnits(t.Context(), &translationv1.ListUnitsRequest{TranslationId: de.GetId(), PageSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	token := first.GetNextPageToken()
	raw, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil {
		t.Fatal(err)
	}
	raw[1] ^= 1 // the offset
	tampered := base64.RawURLEncoding.EncodeToString(raw)
	for _, tc := range []struct {
		desc string
		req  *translationv1.ListUnitsRequest
	}{
		{"tampered token", &translationv1.ListUnitsRequest{TranslationId: de.GetId(), PageToken: tampered}},
		{"token with another query", &translationv1.ListUnitsRequest{TranslationId: de.GetId(), Query: "state:<translated", PageToken: token}},
		{"token with the translation named otherwise", &translationv1.ListUnitsRequest{ComponentId: 1, LanguageCode: "de", PageToken: token}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := e.client.ListUnits(t.Context(), tc.req)
			if e := errs.FromStatus(err); e.Kind != errs.InvalidArgument || len(e.Fields) == 0 || e.Fields[0].Field != "page_token" {
				t.Fatalf("error %v, want InvalidArgument on page_token", err)
			}
		})
	}
}

// TestTranslationUnitNames: translations and units carry their resource
// names, and GetTranslation and GetUnit take them.
func TestTranslationUnitNames(t *testing.T) {
	e := newEnv(t, true)
	e.catalog.Set(greeter(1, fixture.Origin(t, fixture.Files())), project)
	if task := e.importNow(t, 1); task.GetError() != "" {
		t.Fatal(task.GetError())
	}
	de := e.translation(t, 1, "de")
	const name = "projects/hello/components/greeter/translations/de"
	if de.GetResourceName() != name {
		t.Fatalf("translation name %q, want %q", de.GetResourceName(), name)
	}
	u := e.units(t, de.GetId())[0]
	if want := "units/" + strconv.FormatInt(u.GetId(), 10); u.GetResourceName() != want {
		t.Fatalf("unit name %q, want %q", u.GetResourceName(), want)
	}
	t.Run("get translation", func(t *testing.T) {
		for _, req := range []*translationv1.GetTranslationRequest{
			{Name: name},
			{Name: name, ComponentId: 1, LanguageCode: "de"},
		} {
			resp, err := e.client.GetTranslation(t.Context(), req)
			if err != nil || resp.GetTranslation().GetId() != de.GetId() {
				t.Fatalf("GetTranslation(%v) = %v, %v", req, resp, err)
			}
		}
	})
	t.Run("get unit", func(t *testing.T) {
		resp, err := e.client.GetUnit(t.Context(), &translationv1.GetUnitRequest{Name: u.GetResourceName()})
		if err != nil || resp.GetUnit().GetId() != u.GetId() {
			t.Fatalf("GetUnit = %v, %v", resp, err)
		}
	})
	for _, tc := range []struct {
		desc string
		call func() error
		want errs.Kind
	}{
		{"translation name and other language", func() error {
			_, err := e.client.GetTranslation(t.Context(), &translationv1.GetTranslationRequest{Name: name, LanguageCode: "cs"})
			return err
		}, errs.InvalidArgument},
		{"translation name and other component", func() error {
			_, err := e.client.GetTranslation(t.Context(), &translationv1.GetTranslationRequest{Name: name, ComponentId: 2})
			return err
		}, errs.InvalidArgument},
		{"malformed translation name", func() error {
			_, err := e.client.GetTranslation(t.Context(), &translationv1.GetTranslationRequest{Name: "projects/hello/components/greeter"})
			return err
		}, errs.InvalidArgument},
		{"unknown component", func() error {
			_, err := e.client.GetTranslation(t.Context(), &translationv1.GetTranslationRequest{Name: "projects/hello/components/nope/translations/de"})
			return err
		}, errs.NotFound},
		{"unit name and other id", func() error {
			_, err := e.client.GetUnit(t.Context(), &translationv1.GetUnitRequest{Name: u.GetResourceName(), Id: u.GetId() + 1})
			return err
		}, errs.InvalidArgument},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			if got := kind(tc.call()); got != tc.want {
				t.Fatalf("kind %v, want %v", got, tc.want)
			}
		})
	}
}
