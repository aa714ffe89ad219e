package rest

import (
	"github.com/tmsproject/tms/gateway/rest/wire"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

// commentJSON follows Weblate's CommentSerializer.
type commentJSON struct {
	ID        int64     `json:"id"`
	Unit      string    `json:"unit"`
	Comment   string    `json:"comment"`
	Scope     string    `json:"scope"`
	User      *string   `json:"user"`
	Timestamp wire.Time `json:"timestamp"`
	Resolved  bool      `json:"resolved"`
	URL       string    `json:"url"`
}

func (u urls) comment(n int64, sub ...string) string {
	return u.API(append([]string{"comments", id(n)}, sub...)...)
}

func (u urls) commentJSON(x *translationv1.Comment) *commentJSON {
	j := &commentJSON{ID: x.GetId(), Unit: u.unit(x.GetUnitId()), Comment: x.GetComment(), Scope: x.GetScope(),
		Resolved: x.GetResolved(), URL: u.comment(x.GetId())}
	if x.GetUser() != "" {
		j.User = optional(u.user(x.GetUser()))
	}
	if t := wire.TimeOf(x.GetTimestamp()); t != nil {
		j.Timestamp = *t
	}
	return j
}

var commentScopes = map[string]bool{"global": true, "translation": true, "report": true}

// unitComments lists (GET) or adds (POST {"scope", "comment"}, 201) the
// comments of a unit; global and report comments land on the source string.
func (g *gateway) unitComments(c *call) error {
	u, err := c.pathUnit()
	if err != nil {
		return err
	}
	if c.r.Method == "POST" {
		return g.addComment(c, u)
	}
	return c.servicePage(func(offset, limit int64) (any, int64, error) {
		resp, err := g.cfg.Translation.ListComments(c.ctx, &translationv1.ListCommentsRequest{
			UnitId: u.GetId(), Offset: offset, Limit: limit})
		return pageRows(resp.GetComments(), resp.GetTotal(), err, always(c.urls.commentJSON))
	})
}

func (g *gateway) addComment(c *call, u *translationv1.Unit) error {
	if err := c.authorizeOn("comment.add", u, ""); err != nil {
		return err
	}
	b, err := c.readBody()
	if err != nil {
		return err
	}
	b.required("scope", "comment")
	scope, ok := b.str("scope")
	if ok && !commentScopes[scope] {
		b.errs.Add("scope", "invalid_choice", "\""+scope+"\" is not a valid choice.")
	}
	text, ok := b.str("comment")
	if ok && text == "" {
		b.errs.Add("comment", "blank", "This field may not be blank.")
	}
	if err = b.err(); err != nil {
		return err
	}
	resp, err := g.cfg.Translation.CreateComment(c.ctx, &translationv1.CreateCommentRequest{
		UnitId: u.GetId(), Scope: scope, Comment: text, Actor: c.actor()})
	if err != nil {
		return err
	}
	return c.write(201, c.urls.commentJSON(resp.GetComment()))
}

// pathComment fetches the comment of the {id} path within a visible project.
func (c *call) pathComment() (*translationv1.Comment, error) { return pathObject(c, c.getComment) }

// ownComment is the comment of the path when the caller may act on it:
// its author, or who holds perm.
func (c *call) ownComment(perm string) (*translationv1.Comment, error) {
	return ownPathObject(c, perm, c.getComment)
}

func (c *call) getComment(n int64) (*translationv1.Comment, error) {
	resp, err := c.g.cfg.Translation.GetComment(c.ctx, &translationv1.GetCommentRequest{Id: n})
	return resp.GetComment(), err
}

func (g *gateway) getComment(c *call) error {
	x, err := c.pathComment()
	if err != nil {
		return err
	}
	return c.ok(c.urls.commentJSON(x))
}

// resolveComment is this service's own route (Weblate resolves comments in
// its web UI only): POST /api/comments/<id>/resolve/ answers the comment.
func (g *gateway) resolveComment(c *call) error {
	x, err := c.ownComment("comment.resolve")
	if err != nil {
		return err
	}
	resp, err := g.cfg.Translation.ResolveComment(c.ctx, &translationv1.ResolveCommentRequest{Id: x.GetId(), Actor: c.actor()})
	if err != nil {
		return err
	}
	return c.ok(c.urls.commentJSON(resp.GetComment()))
}

func (g *gateway) deleteComment(c *call) error {
	x, err := c.ownComment("comment.delete")
	if err != nil {
		return err
	}
	if _, err := g.cfg.Translation.DeleteComment(c.ctx, &translationv1.DeleteCommentRequest{Id: x.GetId(), Actor: c.actor()}); err != nil {
		return err
	}
	return c.noContent()
}
