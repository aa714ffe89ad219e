package resname

import (
	"testing"

	"github.com/tmsproject/tms/pkg/errs"
)

func TestRoundTrip(t *testing.T) {
	t.Run("project", func(t *testing.T) {
		got, err := ParseProject(Project("hello"))
		if err != nil || got != "hello" {
			t.Fatalf("ParseProject = %q, %v", got, err)
		}
	})
	t.Run("component", func(t *testing.T) {
		p, c, err := ParseComponent(Component("hello", "po"))
		if err != nil || p != "hello" || c != "po" {
			t.Fatalf("ParseComponent = %q %q, %v", p, c, err)
		}
	})
	t.Run("translation", func(t *testing.T) {
		name := Translation("hello", "po", "pt_BR")
		if name != "projects/hello/components/po/translations/pt_BR" {
			t.Fatalf("Translation = %q", name)
		}
		p, c, l, err := ParseTranslation(name)
		if err != nil || p != "hello" || c != "po" || l != "pt_BR" {
			t.Fatalf("ParseTranslation = %q %q %q, %v", p, c, l, err)
		}
	})
	for _, tc := range []struct {
		name  string
		parse func(string) (int64, error)
	}{
		{Unit(42), ParseUnit},
		{Category(42), ParseCategory},
		{Change(42), ParseChange},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id, err := tc.parse(tc.name)
			if err != nil || id != 42 {
				t.Fatalf("parse = %d, %v", id, err)
			}
		})
	}
}

func TestMalformed(t *testing.T) {
	for _, tc := range []struct {
		desc string
		err  func() error
	}{
		{"empty project", func() error { _, err := ParseProject(""); return err }},
		{"project without slug", func() error { _, err := ParseProject("projects/"); return err }},
		{"component as project", func() error { _, err := ParseProject("projects/a/components/b"); return err }},
		{"wrong collection", func() error { _, _, err := ParseComponent("projects/a/categories/b"); return err }},
		{"category path in component", func() error { _, _, err := ParseComponent("projects/a/components/docs/b"); return err }},
		{"translation without language", func() error {
			_, _, _, err := ParseTranslation("projects/a/components/b/translations/")
			return err
		}},
		{"unit id not a number", func() error { _, err := ParseUnit("units/abc"); return err }},
		{"unit id zero", func() error { _, err := ParseUnit("units/0"); return err }},
		{"unit id negative", func() error { _, err := ParseUnit("units/-3"); return err }},
		{"unit as change", func() error { _, err := ParseChange("units/3"); return err }},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			assertInvalidName(t, tc.err())
		})
	}
}

func TestAgree(t *testing.T) {
	t.Run("only name", func(t *testing.T) {
		got, err := Agree("slug", "", "hello")
		if err != nil || got != "hello" {
			t.Fatalf("Agree = %q, %v", got, err)
		}
	})
	t.Run("both the same", func(t *testing.T) {
		got, err := Agree("id", int64(7), int64(7))
		if err != nil || got != 7 {
			t.Fatalf("Agree = %d, %v", got, err)
		}
	})
	t.Run("both different", func(t *testing.T) {
		_, err := Agree("slug", "other", "hello")
		assertInvalidName(t, err)
	})
}

func assertInvalidName(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		t.Fatal("no error")
	}
	e := errs.FromStatus(errs.ToStatus(err))
	if e.Kind != errs.InvalidArgument {
		t.Fatalf("kind = %v, want InvalidArgument", e.Kind)
	}
	if len(e.Fields) != 1 || e.Fields[0].Field != Field {
		t.Fatalf("fields = %+v, want one on %q", e.Fields, Field)
	}
}
