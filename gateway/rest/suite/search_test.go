package suite

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// TestSearch: /api/search/ finds projects, categories, components, users
// and languages by name, five of each at most, as Weblate's site-wide
// search; a private project and what is in it are found only by who may
// see it, users only by signed-in callers and by the account list's
// rules, and LIKE's wildcards are plain characters.
func TestSearch(t *testing.T) {
	f := newTeamsFixture(t)
	a := f.admin
	a.want(201, "POST", a.base+"categories/", map[string]any{"name": "Docs", "slug": "docs", "project": a.base + "projects/hidden/"})
	anon := client{t: t, base: a.base, token: anonymous}
	search := func(who client, q string) []string {
		code, body := who.do("GET", a.base+"search/?q="+url.QueryEscape(q), nil)
		if code != 200 {
			t.Fatalf("search %q: %d %s", q, code, body)
		}
		var hits []map[string]any
		if err := json.Unmarshal(body, &hits); err != nil {
			t.Fatalf("search %q: %v", q, err)
		}
		var out []string
		for _, h := range hits {
			out = append(out, h["category"].(string)+" "+h["name"].(string))
		}
		return out
	}
	cases := []struct {
		who  client
		q    string
		want []string
	}{
		{a, "hid", []string{"Project hidden"}},
		{f.users["rita"], "hid", nil},
		{anon, "hid", nil},
		{a, "DOC", []string{"Category hidden/Docs"}},
		{f.users["rita"], "doc", nil},
		{a, "ap", []string{"Component guarded/app", "Component hidden/app"}},
		{f.users["rita"], "ap", []string{"Component guarded/app"}},
		{a, "tin", []string{"User tina"}},
		{f.users["rita"], "tin", nil},
		{f.users["rita"], "rit", []string{"User rita"}},
		{anon, "tin", nil},
		{a, "czech", []string{"Language Czech"}}, // languages are compared only here
		{a, "%", nil},
		{a, "", nil},
	}
	for _, c := range cases {
		got := search(c.who, c.q)
		if c.q != "czech" {
			got = slices.DeleteFunc(got, func(h string) bool { return strings.HasPrefix(h, "Language ") })
		}
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("search %q as %q: %v, want %v", c.q, c.who.token, got, c.want)
		}
	}
	if got := search(a, "e"); len(got) > 5*5 || countPrefix(got, "Language ") != 5 {
		t.Errorf("search \"e\": %d results, %d languages (five of each kind at most)", len(got), countPrefix(got, "Language "))
	}
}

func countPrefix(list []string, prefix string) int {
	n := 0
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			n++
		}
	}
	return n
}
