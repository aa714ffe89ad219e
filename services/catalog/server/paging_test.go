package server_test

import (
	"encoding/base64"
	"slices"
	"strconv"
	"testing"

	"github.com/tmsproject/tms/pkg/errs"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
)

// TestListComponentsPageTokens pages through a project's components with
// page tokens to the end, and checks that a token answers nothing but the
// list it was issued for.
func TestListComponentsPageTokens(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	e.project("hello")
	e.project("other")
	var want []int64
	for _, slug := range []string{"a", "b", "c", "d", "e"} {
		want = append(want, e.component("hello", slug).GetId())
	}
	e.component("other", "x")

	t.Run("to the end", func(t *testing.T) {
		var got []int64
		req := &catalogv1.ListComponentsRequest{ProjectSlug: "hello", PageSize: 2}
		for pages := 1; ; pages++ {
			resp, err := e.client.ListComponents(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range resp.GetComponents() {
				got = append(got, c.GetId())
			}
			if resp.GetTotal() != 5 {
				t.Fatalf("total = %d, want 5", resp.GetTotal())
			}
			if resp.GetNextPageToken() == "" {
				if pages != 3 {
					t.Fatalf("%d pages, want 3", pages)
				}
				break
			}
			req.PageToken = resp.GetNextPageToken()
		}
		if !slices.Equal(got, want) {
			t.Fatalf("ids = %v, want %v", got, want)
		}
	})
	first, err := e.client.ListComponents(ctx, &catalogv1.ListComponentsRequest{ProjectSlug: "hello", PageSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	token := first.GetNextPageToken()
	for _, tc := range []struct {
		desc string
		req  *catalogv1.ListComponentsRequest
	}{
		{"tampered token", &catalogv1.ListComponentsRequest{ProjectSlug: "hello", PageToken: flipLast(token)}},
		{"token with other filters", &catalogv1.ListComponentsRequest{ProjectSlug: "other", PageToken: token}},
		{"token with offset", &catalogv1.ListComponentsRequest{ProjectSlug: "hello", PageToken: token, Offset: 1}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := e.client.ListComponents(ctx, tc.req)
			wantKind(t, err, errs.InvalidArgument, &violation{field: "page_token", code: "invalid"})
		})
	}
	t.Run("offset and limit unchanged", func(t *testing.T) {
		resp, err := e.client.ListComponents(ctx, &catalogv1.ListComponentsRequest{ProjectSlug: "hello", Offset: 1, Limit: 2})
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.GetComponents()) != 2 || resp.GetComponents()[0].GetId() != want[1] {
			t.Fatalf("page = %v, want ids %v", resp.GetComponents(), want[1:3])
		}
		if resp.GetNextPageToken() != "" {
			t.Fatalf("next_page_token %q in the offset form", resp.GetNextPageToken())
		}
	})
}

// TestListProjectsDefaultPageSize: a page_token request without page_size
// gets the documented default, 50.
func TestListProjectsDefaultPageSize(t *testing.T) {
	e := newEnv(t)
	for i := range 52 {
		e.project("p" + string(rune('a'+i/26)) + string(rune('a'+i%26)))
	}
	resp, err := e.client.ListProjects(t.Context(), &catalogv1.ListProjectsRequest{PageSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	resp, err = e.client.ListProjects(t.Context(), &catalogv1.ListProjectsRequest{PageToken: resp.GetNextPageToken()})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.GetProjects()) != 50 || resp.GetNextPageToken() == "" {
		t.Fatalf("%d projects, next %q; want 50 and a next page", len(resp.GetProjects()), resp.GetNextPageToken())
	}
	last, err := e.client.ListProjects(t.Context(), &catalogv1.ListProjectsRequest{PageToken: resp.GetNextPageToken()})
	if err != nil {
		t.Fatal(err)
	}
	if len(last.GetProjects()) != 1 || last.GetNextPageToken() != "" {
		t.Fatalf("last page: %d projects, next %q; want 1 and none", len(last.GetProjects()), last.GetNextPageToken())
	}
}

// TestResourceNames: every response names its resources, and the Get
// requests take the names.
func TestResourceNames(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	p := e.project("hello")
	e.project("other")
	c := e.component("hello", "po")
	cat, err := e.client.CreateCategory(ctx, &catalogv1.CreateCategoryRequest{Category: &catalogv1.Category{ProjectSlug: "hello", Name: "Docs", Slug: "docs"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Run("set", func(t *testing.T) {
		for _, tc := range []struct{ got, want string }{
			{p.GetResourceName(), "projects/hello"},
			{c.GetResourceName(), "projects/hello/components/po"},
			{cat.GetCategory().GetResourceName(), "categories/" + itoa(cat.GetCategory().GetId())},
		} {
			if tc.got != tc.want {
				t.Errorf("name %q, want %q", tc.got, tc.want)
			}
		}
	})
	t.Run("get project", func(t *testing.T) {
		resp, err := e.client.GetProject(ctx, &catalogv1.GetProjectRequest{Name: "projects/hello"})
		if err != nil || resp.GetProject().GetId() != p.GetId() {
			t.Fatalf("GetProject = %v, %v", resp, err)
		}
	})
	t.Run("get component", func(t *testing.T) {
		for _, req := range []*catalogv1.GetComponentRequest{
			{Name: "projects/hello/components/po"},
			{Name: "projects/hello/components/po", ProjectSlug: "hello", Slug: "po"},
			{Name: "projects/hello/components/po", Id: c.GetId()},
		} {
			resp, err := e.client.GetComponent(ctx, req)
			if err != nil || resp.GetComponent().GetId() != c.GetId() {
				t.Fatalf("GetComponent(%v) = %v, %v", req, resp, err)
			}
		}
	})
	t.Run("get category", func(t *testing.T) {
		resp, err := e.client.GetCategory(ctx, &catalogv1.GetCategoryRequest{Name: cat.GetCategory().GetResourceName()})
		if err != nil || resp.GetCategory().GetSlug() != "docs" {
			t.Fatalf("GetCategory = %v, %v", resp, err)
		}
	})
	for _, tc := range []struct {
		desc string
		call func() error
		code string
	}{
		{"project name and other slug", func() error {
			_, err := e.client.GetProject(ctx, &catalogv1.GetProjectRequest{Name: "projects/hello", Slug: "other"})
			return err
		}, "mismatch"},
		{"component name and other slug", func() error {
			_, err := e.client.GetComponent(ctx, &catalogv1.GetComponentRequest{Name: "projects/hello/components/po", ProjectSlug: "other", Slug: "po"})
			return err
		}, "mismatch"},
		{"component name and other id", func() error {
			_, err := e.client.GetComponent(ctx, &catalogv1.GetComponentRequest{Name: "projects/other/components/po", Id: c.GetId()})
			return err
		}, "mismatch"},
		{"category name and other id", func() error {
			_, err := e.client.GetCategory(ctx, &catalogv1.GetCategoryRequest{Name: cat.GetCategory().GetResourceName(), Id: cat.GetCategory().GetId() + 1})
			return err
		}, "mismatch"},
		{"project name of a component", func() error {
			_, err := e.client.GetProject(ctx, &catalogv1.GetProjectRequest{Name: "projects/hello/components/po"})
			return err
		}, "invalid"},
		{"component name with a category path", func() error {
			_, err := e.client.GetComponent(ctx, &catalogv1.GetComponentRequest{Name: "projects/hello/components/docs/po"})
			return err
		}, "invalid"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			wantKind(t, tc.call(), errs.InvalidArgument, &violation{field: "name", code: tc.code})
		})
	}
}

// flipLast changes a bit of a token's last byte.
func flipLast(token string) string {
	b, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil || len(b) == 0 {
		return token + "x"
	}
	b[len(b)-1] ^= 1
	return base64.RawURLEncoding.EncodeToString(b)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
