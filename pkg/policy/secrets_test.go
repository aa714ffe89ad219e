package policy

import (
	"context"
	"testing"
)

func TestRedactURL(t *testing.T) {
	cases := []struct{ in, marked, dropped string }{
		{"https://user:pass@git.example/x.git", "https://***@git.example/x.git", "https://git.example/x.git"},
		{"https://token@git.example/x.git", "https://***@git.example/x.git", "https://git.example/x.git"},
		{"ssh://git:secret@git.example:2222/x.git", "ssh://***@git.example:2222/x.git", "ssh://git.example:2222/x.git"},
		{"https://git.example/x.git", "https://git.example/x.git", "https://git.example/x.git"},
		{"git@github.com:org/x.git", "git@github.com:org/x.git", "git@github.com:org/x.git"},
		{"/srv/repo", "/srv/repo", "/srv/repo"},
		{"", "", ""},
	}
	for _, c := range cases {
		if got := RedactURL(c.in, true); got != c.marked {
			t.Errorf("RedactURL(%q, true) = %q, want %q", c.in, got, c.marked)
		}
		if got := RedactURL(c.in, false); got != c.dropped {
			t.Errorf("RedactURL(%q, false) = %q, want %q", c.in, got, c.dropped)
		}
	}
}

func TestShowURL(t *testing.T) {
	raw := "https://u:p@git.example/x.git"
	ctx := context.Background()
	for _, c := range []struct {
		ctx  context.Context
		want string
	}{
		{ctx, raw},
		{WithCaller(ctx, Caller{Username: "admin", Superuser: true}), "https://***@git.example/x.git"},
		{WithCaller(ctx, Caller{Username: "tina"}), "https://git.example/x.git"},
		{WithCaller(ctx, Anonymous), "https://git.example/x.git"},
		{System(WithCaller(ctx, Anonymous)), raw},
	} {
		if got := ShowURL(c.ctx, raw); got != c.want {
			t.Errorf("ShowURL = %q, want %q", got, c.want)
		}
	}
}

func TestScrubText(t *testing.T) {
	in := `clone https://alice:s3cret@git.example/x.git: authentication required (see http://bob@host/y)`
	want := `clone https://***@git.example/x.git: authentication required (see http://***@host/y)`
	if got := ScrubText(in); got != want {
		t.Errorf("ScrubText = %q, want %q", got, want)
	}
	if got := ScrubText("mail me at a@b.example"); got != "mail me at a@b.example" {
		t.Errorf("ScrubText touched an address: %q", got)
	}
}
