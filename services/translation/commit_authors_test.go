package translation_test

import (
	"strings"
	"testing"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/tmsproject/tms/services/translation"
)

// originCommit is the head commit of branch main of a bare repository.
func originCommit(t *testing.T, origin string) *object.Commit {
	t.Helper()
	r, err := git.PlainOpen(origin)
	if err != nil {
		t.Fatal(err)
	}
	c, err := r.CommitObject(plumbing.NewHash(originHead(t, origin)))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// trailers returns the Co-authored-by lines of a commit message.
func trailers(msg string) []string {
	var out []string
	for _, line := range strings.Split(msg, "\n") {
		if strings.HasPrefix(line, "Co-authored-by: ") {
			out = append(out, line)
		}
	}
	return out
}

// TestCommitCreditsEachEditor checks that a commit credits the people who
// made its pending edits, resolved through the user directory: the author
// of the most recent edit is the commit author, the others Co-authored-by
// trailers (sorted, one per person), that the configured committer signs
// it, and that Config.SiteURL reaches the commit message.
func TestCommitCreditsEachEditor(t *testing.T) {
	e, origin := setupRepoWith(t, func(c *translation.Config) {
		c.SiteURL = "https://tms.example.org/"
		c.Git.CommitterName, c.Git.CommitterEmail = "L10n Bot", "l10n@example.org"
	}, nil)
	e.users.Set("ana", "Ana Lima", "ana@example.org")
	e.users.Set("bob", "Bob Brown", "bob@example.org")

	// Two people, two strings of one translation.
	e.edit(t, "pt_BR", "Send", []string{"Enviar"}, 20, "ana")
	e.edit(t, "pt_BR", "Close", []string{"Fechar"}, 20, "bob")
	// Statistics name the last author by full name (the reference's
	// get_author_name), the directory's name for a user it knows.
	if got := e.translation(t, 1, "pt_BR").GetStats().GetLastAuthor(); got != "Bob Brown" {
		t.Errorf("last_author %q, want Bob Brown", got)
	}
	if res := e.op(t, "push"); !res.GetResult() {
		t.Fatalf("push: %+v", res)
	}
	c := originCommit(t, origin)
	if c.Author.Name != "Bob Brown" || c.Author.Email != "bob@example.org" {
		t.Errorf("author %s <%s>, want Bob Brown <bob@example.org>", c.Author.Name, c.Author.Email)
	}
	if c.Committer.Name != "L10n Bot" || c.Committer.Email != "l10n@example.org" {
		t.Errorf("committer %s <%s>", c.Committer.Name, c.Committer.Email)
	}
	if got := trailers(c.Message); len(got) != 1 || got[0] != "Co-authored-by: Ana Lima <ana@example.org>" {
		t.Errorf("trailers %q in:\n%s", got, c.Message)
	}
	if !strings.Contains(c.Message, "Translate-URL: https://tms.example.org/projects/hello/greeter/pt_BR/") {
		t.Errorf("site URL not in the message:\n%s", c.Message)
	}
	if pt := originFile(t, origin, "po/pt_BR.po"); !strings.Contains(pt, `"Last-Translator: Bob Brown <bob@example.org>\n"`) {
		t.Errorf("pt_BR header does not name the last editor:\n%s", pt[:min(len(pt), 800)])
	}

	// Three people over two translations, one of them twice and one
	// unknown to the directory: each co-author once, in sorted order.
	e.edit(t, "cs", "Send", []string{"Odeslat"}, 20, "carol")
	e.edit(t, "pt_BR", "Send", []string{"Mandar"}, 20, "ana")
	e.edit(t, "pt_BR", "Close", []string{"Fechar janela"}, 20, "ana")
	e.edit(t, "cs", "Close", []string{"Zavřít"}, 20, "bob")
	if res := e.op(t, "push"); !res.GetResult() {
		t.Fatalf("second push: %+v", res)
	}
	c = originCommit(t, origin)
	if c.Author.Name != "Bob Brown" {
		t.Errorf("second commit author %s <%s>", c.Author.Name, c.Author.Email)
	}
	want := []string{"Co-authored-by: Ana Lima <ana@example.org>", "Co-authored-by: carol <l10n@example.org>"}
	if got := trailers(c.Message); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("trailers %q, want %q", got, want)
	}
	if !strings.HasSuffix(c.Message, "\n\n"+strings.Join(want, "\n")+"\n") {
		t.Errorf("trailers are not the last paragraph:\n%s", c.Message)
	}
	if pt := originFile(t, origin, "po/pt_BR.po"); !strings.Contains(pt, `"Last-Translator: Ana Lima <ana@example.org>\n"`) {
		t.Error("pt_BR header does not name its own last editor")
	}
	if got := e.translation(t, 1, "cs").GetStats().GetLastAuthor(); got != "Bob Brown" {
		t.Errorf("cs last_author %q, want Bob Brown", got)
	}
	e.edit(t, "cs", "Close", []string{"Zavřít okno"}, 20, "carol")
	if got := e.translation(t, 1, "cs").GetStats().GetLastAuthor(); got != "carol" {
		t.Errorf("last_author of a user the directory does not know: %q, want carol", got)
	}
}
