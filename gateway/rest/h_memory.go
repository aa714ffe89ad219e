package rest

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"

	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

// memoryJSON is the reference's MemorySerializer: languages by id, the
// project by id (null for none), whether the entry came from a file, and
// whether it is in the shared memory (its project contributes, and a
// translation made it rather than a file).
type memoryJSON struct {
	ID             int64  `json:"id"`
	Source         string `json:"source"`
	Target         string `json:"target"`
	SourceLanguage *int64 `json:"source_language"`
	TargetLanguage *int64 `json:"target_language"`
	Origin         string `json:"origin"`
	Project        *int64 `json:"project"`
	FromFile       bool   `json:"from_file"`
	Shared         bool   `json:"shared"`
}

func (c *call) memoryJSON(e *translationv1.MemoryEntry) (memoryJSON, error) {
	out := memoryJSON{ID: e.GetId(), Source: e.GetSource(), Target: e.GetTarget(), Origin: e.GetOrigin(), FromFile: e.GetFromFile()}
	var err error
	if out.SourceLanguage, err = c.languageIDOrNil(e.GetSourceLanguage()); err != nil {
		return out, err
	}
	if out.TargetLanguage, err = c.languageIDOrNil(e.GetTargetLanguage()); err != nil {
		return out, err
	}
	if p, perr := c.project(e.GetProjectSlug()); perr == nil {
		id := p.GetId()
		out.Project, out.Shared = &id, p.GetContributeSharedTm() && !e.GetFromFile()
	} else if !isNotFound(perr) {
		return out, perr
	}
	return out, nil
}

// languageIDOrNil is the id of a language, nil when the catalog does not
// know the code (a TMX file may bring any).
func (c *call) languageIDOrNil(code string) (*int64, error) {
	id, err := c.languageID(code)
	if isNotFound(err) {
		return nil, nil
	}
	return id, err
}

// listMemory is GET /api/memory/: signed-in callers, the entries of the
// projects they may see, filtered as the reference's MemoryFilter.
func (g *gateway) listMemory(c *call) error {
	if err := c.requireUser(); err != nil {
		return err
	}
	q := c.r.URL.Query()
	return c.servicePage(func(offset, limit int64) (any, int64, error) {
		resp, err := g.cfg.Memory.ListMemory(c.ctx, &translationv1.ListMemoryRequest{Source: q.Get("source"),
			SourceLanguage: q.Get("source_language"), TargetLanguage: q.Get("target_language"),
			ProjectSlug: q.Get("project"), Origin: q.Get("origin"), Offset: offset, Limit: limit})
		return pageRows(resp.GetEntries(), resp.GetTotal(), err, c.memoryJSON)
	})
}

func (g *gateway) getMemory(c *call) error {
	if err := c.requireUser(); err != nil {
		return err
	}
	n, err := c.pathID()
	if err != nil {
		return err
	}
	resp, err := g.cfg.Memory.GetMemory(c.ctx, &translationv1.GetMemoryRequest{Id: n})
	if err != nil {
		return err
	}
	return c.okRendered(c.memoryJSON(resp.GetEntry()))
}

func (g *gateway) deleteMemory(c *call) error {
	if err := c.requireUser(); err != nil {
		return err
	}
	n, err := c.pathID()
	if err != nil {
		return err
	}
	if _, err = g.cfg.Memory.DeleteMemory(c.ctx, &translationv1.DeleteMemoryRequest{Id: n}); err != nil {
		return err
	}
	return c.noContent()
}

// lookupIn is the body of POST /api/memory/lookup/.
type lookupIn struct {
	Strings []string `json:"strings" doc:"1 to 100 strings, each up to 2000 characters."`
}

// lookupJSON is one string's answer; match is null when nothing reaches
// the threshold.
type lookupJSON struct {
	Query string           `json:"query"`
	Match *memoryMatchJSON `json:"match"`
}

type memoryMatchJSON struct {
	ID      int64  `json:"id"`
	Source  string `json:"source"`
	Target  string `json:"target"`
	Origin  string `json:"origin"`
	Exact   bool   `json:"exact"`
	Quality int32  `json:"quality"`
}

// lookupMemory is POST /api/memory/lookup/?source_language=&target_language=
// [&project=][&exact=]: the best match of each string.
func (g *gateway) lookupMemory(c *call) error {
	if err := c.requireUser(); err != nil {
		return err
	}
	q := c.r.URL.Query()
	req := &translationv1.LookupMemoryRequest{SourceLanguage: q.Get("source_language"), TargetLanguage: q.Get("target_language"),
		ProjectSlug: q.Get("project")}
	b, err := c.readBody()
	if err != nil {
		return err
	}
	if v := q.Get("exact"); v != "" {
		exact, perr := strconv.ParseBool(v)
		if perr != nil {
			b.errs.Add("exact", "invalid", "Must be a valid boolean.")
		}
		req.Exact = exact
	}
	if v := q.Get("threshold"); v != "" {
		t, perr := strconv.ParseInt(v, 10, 32)
		if perr != nil || t < 1 || t > 100 {
			b.errs.Add("threshold", "invalid", "Ensure this value is between 1 and 100.")
		}
		req.Threshold = int32(t) //nolint:gosec // G115: checked above
	}
	b.required("strings")
	req.Strings, _ = b.strList("strings")
	if err = b.err(); err != nil {
		return err
	}
	if err = c.knownLanguages(req.GetSourceLanguage(), req.GetTargetLanguage()); err != nil {
		return err
	}
	resp, err := g.cfg.Memory.LookupMemory(c.ctx, req)
	if err != nil {
		return err
	}
	out := make([]lookupJSON, 0, len(resp.GetResults()))
	for _, r := range resp.GetResults() {
		l := lookupJSON{Query: r.GetQuery()}
		if m := r.GetMatch(); m != nil {
			e := m.GetEntry()
			l.Match = &memoryMatchJSON{ID: e.GetId(), Source: e.GetSource(), Target: e.GetTarget(), Origin: e.GetOrigin(),
				Exact: m.GetExact(), Quality: m.GetQuality()}
		}
		out = append(out, l)
	}
	return c.ok(out)
}

// knownLanguages answers the reference's 400 for a missing or unknown
// language of a lookup.
func (c *call) knownLanguages(source, target string) error {
	var b body
	for field, code := range map[string]string{"source_language": source, "target_language": target} {
		if code == "" {
			b.errs.Add(field, "required", "This query parameter is required.")
			continue
		}
		if _, err := c.language(code); isNotFound(err) {
			b.errs.Add(field, "invalid", "Language not found.")
		} else if err != nil {
			return err
		}
	}
	return b.err()
}

// tmxIn is the upload of a TMX file.
type tmxIn struct {
	File uploadedFile `json:"file" doc:"The TMX 1.4b file; its name is the entries' origin."`
}

// memoryImportJSON answers a TMX upload: the task reading it.
type memoryImportJSON struct {
	TaskURL string `json:"task_url"`
}

// importMemory is POST /api/projects/<p>/memory/ with a TMX file (the
// "file" part): the service reads it as a task, 202 with its URL.
func (g *gateway) importMemory(c *call) error {
	p, err := c.pathProject()
	if err != nil {
		return err
	}
	if err = c.requireUser(); err != nil {
		return err
	}
	b, done, err := c.readUploadBody()
	if err != nil {
		return err
	}
	defer done()
	f := b.requiredFile("file")
	if err = b.err(); err != nil {
		return err
	}
	stream, err := g.cfg.Memory.ImportMemory(c.ctx)
	if err != nil {
		return err
	}
	if err = stream.Send(&translationv1.ImportMemoryRequest{ProjectSlug: p.GetSlug(), FileName: f.hdr.Filename}); err != nil {
		return memoryStreamError(stream.CloseAndRecv, err)
	}
	file, err := f.hdr.Open()
	if err != nil {
		return err
	}
	defer func() { _ = file.Close() }()
	err = sendChunks(file, func(chunk []byte) error {
		return stream.Send(&translationv1.ImportMemoryRequest{Chunk: chunk})
	})
	if err != nil {
		return memoryStreamError(stream.CloseAndRecv, err)
	}
	resp, err := stream.CloseAndRecv()
	if err != nil {
		return err
	}
	return c.write(http.StatusAccepted, memoryImportJSON{TaskURL: c.urls.API("tasks", resp.GetTask().GetId())})
}

// memoryDeletedJSON counts the entries a delete by origin removed.
type memoryDeletedJSON struct {
	Deleted int64 `json:"deleted"`
}

// deleteMemoryOrigin is DELETE /api/projects/<p>/memory/?origin=: the
// project's entries of that origin go.
func (g *gateway) deleteMemoryOrigin(c *call) error {
	p, err := c.pathProject()
	if err != nil {
		return err
	}
	if err = c.requireUser(); err != nil {
		return err
	}
	resp, err := g.cfg.Memory.DeleteMemoryOrigin(c.ctx, &translationv1.DeleteMemoryOriginRequest{
		ProjectSlug: p.GetSlug(), Origin: c.r.URL.Query().Get("origin")})
	if err != nil {
		return err
	}
	return c.ok(memoryDeletedJSON{Deleted: resp.GetDeleted()})
}

// memoryStreamError is the service's answer when a send failed: the
// stream ended early because the service refused the upload.
func memoryStreamError(closeAndRecv func() (*translationv1.ImportMemoryResponse, error), err error) error {
	if errors.Is(err, io.EOF) {
		if _, rerr := closeAndRecv(); rerr != nil {
			return rerr
		}
	}
	return err
}

// exportMemory is GET /api/projects/<p>/memory/: the project's memory as
// a TMX 1.4b file (source_language and target_language narrow it).
func (g *gateway) exportMemory(c *call) error {
	p, err := c.pathProject()
	if err != nil {
		return err
	}
	if err = c.requireUser(); err != nil {
		return err
	}
	q := c.r.URL.Query()
	stream, err := g.cfg.Memory.ExportMemory(c.ctx, &translationv1.ExportMemoryRequest{ProjectSlug: p.GetSlug(),
		SourceLanguage: q.Get("source_language"), TargetLanguage: q.Get("target_language")})
	if err != nil {
		return err
	}
	first, err := stream.Recv()
	if err != nil {
		return err
	}
	h := c.w.Header()
	h.Set("Content-Type", "application/x-tmx+xml")
	h.Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", p.GetSlug()+".tmx"))
	c.w.WriteHeader(http.StatusOK)
	for msg := first; ; {
		if _, err = c.w.Write(msg.GetChunk()); err != nil {
			return nil // the client left
		}
		if msg, err = stream.Recv(); err != nil {
			if !errors.Is(err, io.EOF) {
				c.g.log.Warn("memory export ended early", "project", p.GetSlug(), "err", err)
			}
			return nil
		}
	}
}
