package rest

import (
	"fmt"
	"strings"

	"github.com/tmsproject/tms/gateway/rest/wire"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

// commitJSON is a commit as the reference describes it (its git log
// fields: author and committer, their dates, message and summary).
type commitJSON struct {
	Revision      string     `json:"revision"`
	ShortRevision string     `json:"shortrevision"`
	Author        string     `json:"author"`
	AuthorName    string     `json:"author_name"`
	AuthorEmail   string     `json:"author_email"`
	AuthorDate    *wire.Time `json:"authordate"`
	Commit        string     `json:"commit"`
	CommitName    string     `json:"commit_name"`
	CommitEmail   string     `json:"commit_email"`
	CommitDate    *wire.Time `json:"commitdate"`
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
		Commit:     fmt.Sprintf("%s <%s>", c.GetCommitterName(), c.GetCommitterEmail()),
		CommitName: c.GetCommitterName(), CommitEmail: c.GetCommitterEmail(), CommitDate: wire.TimeOf(c.GetCommitTime()),
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
func (g *gateway) repository(c *call, r repos) error {
	resp, err := g.cfg.Translation.GetRepository(c.ctx, &translationv1.GetRepositoryRequest{ComponentIds: r.ids, LanguageCode: r.language})
	if err != nil {
		return err
	}
	st := resp.GetRepository()
	// url is the endpoint itself, as the reference answers (not the
	// remote, whose address may hold credentials).
	self := c.urls.API(strings.Split(strings.Trim(strings.TrimPrefix(c.origPath(), "/api/"), "/"), "/")...)
	if c.param("component") == "" {
		return c.ok(projectRepositoryJSON{NeedsCommit: st.GetNeedsCommit(), NeedsMerge: st.GetNeedsMerge(),
			NeedsPush: st.GetNeedsPush(), URL: self})
	}
	return c.ok(repositoryJSON{NeedsCommit: st.GetNeedsCommit(), NeedsMerge: st.GetNeedsMerge(), NeedsPush: st.GetNeedsPush(),
		URL: self, RemoteCommit: newCommitJSON(st.GetRemoteCommit()), WeblateCommit: newCommitJSON(st.GetLocalCommit()),
		Status: st.GetStatus(), MergeFailure: optional(st.GetMergeFailure())})
}

// projectRepositoryJSON is the project-wide status: the reference sums
// the flags only.
type projectRepositoryJSON struct {
	NeedsCommit bool   `json:"needs_commit"`
	NeedsMerge  bool   `json:"needs_merge"`
	NeedsPush   bool   `json:"needs_push"`
	URL         string `json:"url"`
}

type operationJSON struct {
	Result bool   `json:"result"`
	Detail string `json:"detail,omitempty"`
}

// operations are the repository operations and the permission each needs.
var operations = map[string]string{"commit": "vcs.commit", "push": "vcs.push", "pull": "vcs.update",
	"reset": "vcs.reset", "cleanup": "vcs.reset"}

// repositoryOp runs {"operation": ...} on the components.
func (g *gateway) repositoryOp(c *call, r repos) error {
	if err := c.requireUser(); err != nil {
		return err
	}
	b, err := c.readBody()
	if err != nil {
		return err
	}
	b.required("operation")
	op, ok := b.str("operation")
	if _, known := operations[op]; ok && !known {
		b.errs.Add("operation", "invalid_choice", fmt.Sprintf("%q is not a valid choice.", op))
	}
	if err = b.err(); err != nil {
		return err
	}
	if err = c.authorizePath(operations[op]); err != nil {
		return err
	}
	resp, err := g.cfg.Translation.RunRepositoryOperation(c.ctx, &translationv1.RunRepositoryOperationRequest{
		ComponentIds: r.ids, LanguageCode: r.language, Operation: op, Actor: c.actor()})
	if err != nil {
		return err
	}
	return c.ok(operationJSON{Result: resp.GetResult(), Detail: resp.GetDetail()})
}

// repos are the components (and language, "" for all) whose repositories
// a path names: a project's, a component's or a translation's. The
// functions below read them for scoped.
type repos struct {
	ids      []int64
	language string
}

func projectRepo(c *call) (repos, error) {
	_, comps, err := c.pathProjectComponents()
	return repos{ids: componentIDs(comps)}, err
}

func componentRepo(c *call) (repos, error) {
	comp, err := c.pathComponent()
	if err != nil {
		return repos{}, err
	}
	return repos{ids: []int64{comp.GetId()}}, nil
}

func translationRepo(c *call) (repos, error) {
	comp, t, err := c.pathTranslation()
	if err != nil {
		return repos{}, err
	}
	return repos{ids: []int64{comp.GetId()}, language: t.GetLanguageCode()}, nil
}
