package rest

import (
	"net/http"

	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

type uploadJSON struct {
	NotFound int64 `json:"not_found"`
	Skipped  int64 `json:"skipped"`
	Accepted int64 `json:"accepted"`
	Total    int64 `json:"total"`
	Result   bool  `json:"result"`
	Count    int64 `json:"count"`
}

// uploadTranslationFile merges a multipart upload (file, method, conflicts,
// fuzzy) into a translation (COMPAT.md §5).
func (g *gateway) uploadTranslationFile(c *call) error {
	comp, t, err := c.pathTranslation()
	if err != nil {
		return err
	}
	if err := c.authorizePath("upload.perform", ""); err != nil {
		return err
	}
	b, err := c.readBody()
	if err != nil {
		return err
	}
	b.required("file")
	f, isFile := b.fields["file"].(fileField)
	if b.has("file") && !isFile {
		b.errs.Add("file", "invalid", "The submitted data was not a file. Check the encoding type on the form.")
	}
	method, _ := b.str("method")
	conflicts, _ := b.str("conflicts")
	fuzzy, _ := b.str("fuzzy")
	if err := b.err(); err != nil {
		return err
	}
	if len(f.data) == 0 {
		b.errs.Add("file", "empty", "The submitted file is empty.")
		return b.err()
	}
	resp, err := g.cfg.Translation.UploadFile(c.ctx, &translationv1.UploadFileRequest{
		ComponentId: comp.GetId(), LanguageCode: t.GetLanguageCode(), Content: f.data,
		Method: method, Conflicts: conflicts, Fuzzy: fuzzy, Actor: c.actor()})
	if err != nil {
		return err
	}
	return c.write(http.StatusOK, uploadJSON{NotFound: resp.GetNotFound(), Skipped: resp.GetSkipped(),
		Accepted: resp.GetAccepted(), Total: resp.GetTotal(), Result: resp.GetResult(), Count: resp.GetCount()})
}
