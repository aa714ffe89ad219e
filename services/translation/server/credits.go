package server

import (
	"context"
	"slices"
	"time"

	"github.com/tmsproject/tms/services/translation/store"
	"github.com/tmsproject/tms/services/translation/workcopy"
)

// edit is one uncommitted change a commit credits: who made it and when.
type edit struct {
	user string
	at   time.Time
	id   int64 // orders edits of the same instant: the later row wins
}

// pendingEdits lists the credited edits of a translation's pending work:
// its pending units (by pending_author) and queued removals (by author).
// Rows stored before authors were kept per edit have none; the
// translation's last author stands in for them.
func pendingEdits(p store.Pending) []edit {
	var out []edit
	for _, u := range p.Units {
		if u.PendingAuthor != "" {
			out = append(out, edit{user: u.PendingAuthor, at: u.LastUpdated, id: u.ID})
		}
	}
	for _, r := range p.Removals {
		if r.Author != "" {
			out = append(out, edit{user: r.Author, at: r.CreatedAt, id: r.ID})
		}
	}
	if len(out) == 0 && p.Translation.LastAuthor != "" {
		out = append(out, edit{user: p.Translation.LastAuthor, at: lastChange(p.Translation)})
	}
	return out
}

// latest is the most recent edit; the zero edit (user "", the committer)
// when there is none.
func latest(edits []edit) edit {
	var last edit
	for i, e := range edits {
		if i == 0 || e.at.After(last.at) || e.at.Equal(last.at) && e.id > last.id {
			last = e
		}
	}
	return last
}

// credits names who a commit of edits is by: the author of the most recent
// edit is the commit author (the committer when nobody is credited), every
// other editor a "Co-authored-by: Name <email>" trailer. Trailers are
// sorted and unique, as Weblate's squash add-on writes them, so the order
// does not depend on the order of the edits.
func (mc *messageContext) credits(ctx context.Context, edits []edit) (workcopy.Signature, []string) {
	author := mc.author(ctx, latest(edits).user)
	seen := map[string]bool{signatureText(author): true}
	var trailers []string
	for _, e := range edits {
		text := signatureText(mc.author(ctx, e.user))
		if !seen[text] {
			seen[text] = true
			trailers = append(trailers, "Co-authored-by: "+text)
		}
	}
	slices.Sort(trailers)
	return author, trailers
}
