package rest

import (
	"fmt"
	"strings"

	"github.com/tmsproject/tms/gateway/rest/wire"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

type commitJSON struct {
	Revision      string     `json:"revision"`
	ShortRevision string     `json:"shortrevision"`
	Author        string     `json:"author"`
	AuthorName    string     `json:"author_name"`
	AuthorEmail   string     `json:"author_email"`
	AuthorDate    *wire.Time `json:"authordate"`
	Message       string     `json:"message"`
	Summary       string     `json:"summary"`
}

func newCommitJSON(c *translationv1.Commit) *commitJSON {
	if c == nil || c.GetRevision() == "" {
		return nil
	}
	summary, _, _ := strings.Cut(c.GetMessage(), "\n")
	return &commitJSON{Revision: c.GetRevision(), ShortRevision: c.GetShortRevision(),
		Author: fmt.Sprintf("%s <%s>", c.GetAuthorName(), c.GetAuthorEmail()), AuthorName: c.GetAuthorName(),
		AuthorEmail: c.GetAuthorEmail(), AuthorDate: wire.TimeOf(c.GetAuthorTime()),
		Message: c.GetMessage(), Summary: summary}
}

type repositoryJSON struct {
	NeedsCommit   bool        `json:"needs_commit"`
	NeedsMerge    bool        `json:"needs_merge"`
	NeedsPush     bool        `json:"needs_push"`
	URL           string      `json:"url"`
	RemoteCommit  *commitJSON `json:"remote_commit"`
	WeblateCommit *commitJSON `json:"weblate_commit"`
	Status        string      `json:"status"`
	MergeFailure  *string     `json:"merge_failure"`
}

// repository answers the repository state of the components (a project's
// or one), needs_commit limited to language when set.
func (g *gateway) repository(c *call, ids []int64, language string) error {
	resp, err := g.cfg.Translation.GetRepository(c.ctx, &translationv1.GetRepositoryRequest{ComponentIds: ids, LanguageCode: language})
	if err != nil {
		return err
	}
	r := resp.GetRepository()
	return c.ok(repositoryJSON{NeedsCommit: r.GetNeedsCommit(), NeedsMerge: r.GetNeedsMerge(), NeedsPush: r.GetNeedsPush(),
		URL: r.GetUrl(), RemoteCommit: newCommitJSON(r.GetRemoteCommit()), WeblateCommit: newCommitJSON(r.GetLocalCommit()),
		Status: r.GetStatus(), MergeFailure: optional(r.GetMergeFailure())})
}

type operationJSON struct {
	Result bool   `json:"result"`
	Detail string `json:"detail,omitempty"`
}

var operations = map[string]bool{"commit": true, "push": true, "pull": true, "reset": true, "cleanup": true}

// repositoryOp runs {"operation": ...} on the components.
func (g *gateway) repositoryOp(c *call, ids []int64, language string) error {
	if err := c.requireSuperuser(); err != nil {
		return err
	}
	b, err := c.readBody()
	if err != nil {
		return err
	}
	b.required("operation")
	op, ok := b.str("operation")
	if ok && !operations[op] {
		b.errs.Add("operation", "invalid_choice", fmt.Sprintf("%q is not a valid choice.", op))
	}
	if err := b.err(); err != nil {
		return err
	}
	resp, err := g.cfg.Translation.RunRepositoryOperation(c.ctx, &translationv1.RunRepositoryOperationRequest{
		ComponentIds: ids, LanguageCode: language, Operation: op, Actor: c.actor()})
	if err != nil {
		return err
	}
	return c.ok(operationJSON{Result: resp.GetResult(), Detail: resp.GetDetail()})
}

// repoScope is the components (and language, "" for all) whose
// repositories a path names: a project's, a component's or a translation's.
type repoScope func(c *call) (ids []int64, language string, err error)

func projectRepo(c *call) ([]int64, string, error) {
	_, comps, err := c.pathProjectComponents()
	return componentIDs(comps), "", err
}

func componentRepo(c *call) ([]int64, string, error) {
	comp, err := c.pathComponent()
	if err != nil {
		return nil, "", err
	}
	return []int64{comp.GetId()}, "", nil
}

func translationRepo(c *call) ([]int64, string, error) {
	comp, t, err := c.pathTranslation()
	if err != nil {
		return nil, "", err
	}
	return []int64{comp.GetId()}, t.GetLanguageCode(), nil
}

// onRepo serves h (repository or repositoryOp) on the repositories of scope.
func (g *gateway) onRepo(scope repoScope, h func(c *call, ids []int64, language string) error) handlerFunc {
	return func(c *call) error {
		ids, language, err := scope(c)
		if err != nil {
			return err
		}
		return h(c, ids, language)
	}
}
