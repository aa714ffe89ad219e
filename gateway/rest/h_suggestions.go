package rest

import (
	"github.com/tmsproject/tms/gateway/rest/wire"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

// suggestionJSON follows Weblate's SuggestionSerializer.
type suggestionJSON struct {
	ID        int64     `json:"id"`
	Unit      string    `json:"unit"`
	Target    []string  `json:"target"`
	User      *string   `json:"user"`
	Timestamp wire.Time `json:"timestamp"`
	// Votes is the sum of the suggestion's votes (+1 and -1), as
	// Weblate's get_num_votes.
	Votes int64  `json:"votes"`
	URL   string `json:"url"`
}

func (u urls) suggestion(n int64, sub ...string) string {
	return u.API(append([]string{"suggestions", id(n)}, sub...)...)
}

func (u urls) suggestionJSON(s *translationv1.Suggestion) *suggestionJSON {
	j := &suggestionJSON{ID: s.GetId(), Unit: u.unit(s.GetUnitId()), Target: nonNil(s.GetTarget()),
		Votes: s.GetVotes(), URL: u.suggestion(s.GetId())}
	if s.GetUser() != "" {
		j.User = optional(u.user(s.GetUser()))
	}
	if t := wire.TimeOf(s.GetTimestamp()); t != nil {
		j.Timestamp = *t
	}
	return j
}

// unitSuggestions lists (GET) or adds (POST {"target": [..]}, 201) the
// suggestions of a unit.
func (g *gateway) unitSuggestions(c *call) error {
	u, err := c.pathUnit()
	if err != nil {
		return err
	}
	if c.r.Method == "POST" {
		return g.addSuggestion(c, u)
	}
	return c.servicePage(func(offset, limit int64) (any, int64, error) {
		resp, err := g.cfg.Translation.ListSuggestions(c.ctx, &translationv1.ListSuggestionsRequest{
			UnitId: u.GetId(), Offset: offset, Limit: limit})
		return pageRows(resp.GetSuggestions(), resp.GetTotal(), err, always(c.urls.suggestionJSON))
	})
}

func (g *gateway) addSuggestion(c *call, u *translationv1.Unit) error {
	if err := c.authorizeOn("suggestion.add", u, ""); err != nil {
		return err
	}
	b, err := c.readBody()
	if err != nil {
		return err
	}
	b.required("target")
	target, _ := b.strList("target")
	if err = b.err(); err != nil {
		return err
	}
	resp, err := g.cfg.Translation.CreateSuggestion(c.ctx, &translationv1.CreateSuggestionRequest{
		UnitId: u.GetId(), Target: target, Actor: c.actor()})
	if err != nil {
		return err
	}
	return c.write(201, c.urls.suggestionJSON(resp.GetSuggestion()))
}

// allSuggestions pages every suggestion the caller may see: the service
// leaves the others out of its pages and its total.
func (g *gateway) allSuggestions(c *call) error {
	return c.servicePage(func(offset, limit int64) (any, int64, error) {
		resp, err := g.cfg.Translation.ListSuggestions(c.ctx, &translationv1.ListSuggestionsRequest{Offset: offset, Limit: limit})
		return pageRows(resp.GetSuggestions(), resp.GetTotal(), err, always(c.urls.suggestionJSON))
	})
}

// pathSuggestion fetches the suggestion of the {id} path within a visible
// project.
func (c *call) pathSuggestion() (*translationv1.Suggestion, error) {
	return pathObject(c, c.getSuggestion)
}

// ownSuggestion is the suggestion of the path when the caller may act on
// it: its author, or who holds perm.
func (c *call) ownSuggestion(perm string) (*translationv1.Suggestion, error) {
	return ownPathObject(c, perm, c.getSuggestion)
}

func (c *call) getSuggestion(n int64) (*translationv1.Suggestion, error) {
	resp, err := c.g.cfg.Translation.GetSuggestion(c.ctx, &translationv1.GetSuggestionRequest{Id: n})
	return resp.GetSuggestion(), err
}

func (g *gateway) getSuggestion(c *call) error {
	s, err := c.pathSuggestion()
	if err != nil {
		return err
	}
	return c.ok(c.urls.suggestionJSON(s))
}

// ownPathObject is pathObject for objects their author, and who holds
// perm on their translation, may act on: 404 before 401/403.
func ownPathObject[T interface {
	inTranslation
	GetUser() string
}](c *call, perm string, get func(id int64) (T, error)) (T, error) {
	x, err := pathObject(c, get)
	if err != nil {
		return x, err
	}
	if err := c.requireUser(); err != nil {
		return x, err
	}
	if author := x.GetUser(); author != "" && author == c.actor() {
		return x, nil
	}
	return x, c.authorizeOn(perm, x, "")
}

// suggestionResultJSON is what accepting or voting answers (Weblate
// 2026.8): the outcome, and for a vote the suggestion with its votes (null
// once the vote accepted it).
type suggestionResultJSON struct {
	Result string `json:"result" doc:"accepted, or voted."`
}

type voteResultJSON struct {
	Result     string          `json:"result" doc:"voted, or accepted when the vote reached the component's suggestion_autoaccept."`
	Suggestion *suggestionJSON `json:"suggestion"`
}

type voteIn struct {
	Value int32 `json:"value" doc:"1 or -1."`
}

// acceptSuggestion makes the suggestion the translation; it answers
// {"result": "accepted"}, as Weblate 2026.8 does.
func (g *gateway) acceptSuggestion(c *call) error {
	s, err := c.pathSuggestion()
	if err != nil {
		return err
	}
	if err = c.authorizeOn("suggestion.accept", s, ""); err != nil {
		return err
	}
	if _, err := g.cfg.Translation.AcceptSuggestion(c.ctx, &translationv1.AcceptSuggestionRequest{Id: s.GetId(), Actor: c.actor()}); err != nil {
		return err
	}
	return c.ok(suggestionResultJSON{Result: "accepted"})
}

// voteSuggestion records the caller's vote {"value": 1 or -1}, where the
// component has voting on; enough votes accept the suggestion.
func (g *gateway) voteSuggestion(c *call) error {
	s, err := c.pathSuggestion()
	if err != nil {
		return err
	}
	b, err := c.readBody()
	if err != nil {
		return err
	}
	b.required("value")
	value, _ := b.int32("value")
	if err = b.err(); err != nil {
		return err
	}
	resp, err := g.cfg.Translation.VoteSuggestion(c.ctx, &translationv1.VoteSuggestionRequest{Id: s.GetId(), Actor: c.actor(), Value: value})
	if err != nil {
		return err
	}
	if resp.GetAccepted() {
		return c.ok(voteResultJSON{Result: "accepted"})
	}
	return c.ok(voteResultJSON{Result: "voted", Suggestion: c.urls.suggestionJSON(resp.GetSuggestion())})
}

// deleteSuggestion rejects a suggestion, {"rejection_reason"} optional.
func (g *gateway) deleteSuggestion(c *call) error {
	s, err := c.ownSuggestion("suggestion.delete")
	if err != nil {
		return err
	}
	b, err := c.readBody()
	if err != nil {
		return err
	}
	reason, _ := b.str("rejection_reason")
	if err := b.err(); err != nil {
		return err
	}
	if _, err := g.cfg.Translation.DeleteSuggestion(c.ctx, &translationv1.DeleteSuggestionRequest{
		Id: s.GetId(), Actor: c.actor(), RejectionReason: reason}); err != nil {
		return err
	}
	return c.noContent()
}
