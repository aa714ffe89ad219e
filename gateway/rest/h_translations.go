package rest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/tmsproject/tms/pkg/grpcx"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

func (g *gateway) listTranslations(c *call) error { return g.translationList(c, 0) }

func (g *gateway) getTranslation(c *call) error {
	comp, t, err := c.pathTranslation()
	if err != nil {
		return err
	}
	return c.okRendered(c.translationJSON(t, comp))
}

func (g *gateway) deleteTranslation(c *call) error {
	if err := c.authorizePath("translation.delete"); err != nil {
		return err
	}
	comp, t, err := c.pathTranslation()
	if err != nil {
		return err
	}
	if _, err := g.cfg.Translation.DeleteTranslation(c.ctx, &translationv1.DeleteTranslationRequest{
		ComponentId: comp.GetId(), LanguageCode: t.GetLanguageCode(), Actor: c.actor()}); err != nil {
		return err
	}
	return c.noContent()
}

func (g *gateway) translationStatistics(c *call) error {
	_, t, err := c.pathTranslation()
	if err != nil {
		return err
	}
	return c.okRendered(c.translationStats(t))
}

// translationUnits pages a translation's units: the service finds the
// translation of the path's component (one call less than looking it up).
func (g *gateway) translationUnits(c *call) error {
	comp, err := c.pathComponent()
	if err != nil {
		return err
	}
	scope := &translationv1.ListUnitsRequest{ComponentId: comp.GetId(), LanguageCode: c.param("language")}
	return g.unitList(c, scope, defaultPageSize, maxPageSize)
}

func (g *gateway) translationFile(c *call) error {
	comp, t, err := c.pathTranslation()
	if err != nil {
		return err
	}
	head, content, err := c.download(comp.GetId(), t.GetLanguageCode(), fileFormat(c.r.URL.Query().Get("format")))
	if err != nil {
		return err
	}
	name := head.GetFilename()
	if name == "" {
		name = fmt.Sprintf("%s-%s-%s.po", comp.GetProjectSlug(), comp.GetSlug(), t.GetLanguageCode())
	}
	return c.attachment(baseName(name), head.GetContentType(), content)
}

// download streams a translation's file from the service (DownloadFile),
// so that no file is too large for one gRPC message; head is the first
// message (name, type, commit time).
func (c *call) download(componentID int64, lang, format string) (head *translationv1.DownloadFileResponse, content []byte, err error) {
	return c.downloadFile(&translationv1.DownloadFileRequest{ComponentId: componentID, LanguageCode: lang, Format: format})
}

// downloadFile is download of any file DownloadFile serves.
func (c *call) downloadFile(req *translationv1.DownloadFileRequest) (head *translationv1.DownloadFileResponse, content []byte, err error) {
	ctx, cancel := context.WithTimeout(c.ctx, grpcx.LongTimeout)
	defer cancel()
	stream, err := c.g.cfg.Translation.DownloadFile(ctx, req)
	if err != nil {
		return nil, nil, err
	}
	var buf bytes.Buffer
	for {
		msg, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return head, buf.Bytes(), nil
		}
		if err != nil {
			return nil, nil, err
		}
		if head == nil {
			head = msg
		}
		buf.Write(msg.GetChunk())
	}
}

func baseName(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }
