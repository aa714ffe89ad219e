package stack

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"

	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	"github.com/tmsproject/tms/services/catalog"
	"github.com/tmsproject/tms/services/changelog"
	"github.com/tmsproject/tms/services/notification"
	"github.com/tmsproject/tms/services/translation"
	"github.com/tmsproject/tms/services/translation/server"
)

// newService constructs one backend with its own database and the clients
// of the backends it calls.
func (st *Stack) newService(ctx context.Context, name string, log *slog.Logger) (service, error) {
	c := st.cfg
	changelogClient := changelogv1.NewChangelogServiceClient(st.conns[Changelog])
	switch name {
	case Changelog:
		return changelog.New(ctx, changelog.Config{DB: c.dbConfig(name), Log: log,
			Catalog: catalogv1.NewCatalogServiceClient(st.conns[Catalog])})
	case Notification:
		return notification.New(ctx, notification.Config{DataDir: c.DataDir, DB: c.dbConfig(name), AdminToken: c.AdminToken, Log: log,
			ChangeLog: changelogClient, Catalog: catalogv1.NewCatalogServiceClient(st.conns[Catalog]),
			SMTPURL: c.SMTPURL, SMTPFrom: c.SMTPFrom, SiteURL: c.SiteURL, AllowLocalWebhooks: c.AllowLocalWebhooks})
	case Catalog:
		return catalog.New(ctx, catalog.Config{DB: c.dbConfig(name), Changelog: changelogClient, Log: log,
			AllowLocalRepos: c.AllowLocalRepos,
			Translation:     translationv1.NewTranslationServiceClient(st.conns[Translation]),
			Access:          notificationv1.NewAccessServiceClient(st.conns[Notification])})
	case Translation:
		upload, err := c.uploadLimits()
		if err != nil {
			return nil, err
		}
		mt, err := c.machinery()
		if err != nil {
			return nil, err
		}
		return translation.New(ctx, translation.Config{
			DataDir:             translationDir(c),
			DB:                  c.dbConfig(name),
			Catalog:             catalogv1.NewCatalogServiceClient(st.conns[Catalog]),
			Changelog:           changelogClient,
			AllowLocalRepos:     c.AllowLocalRepos,
			Users:               notificationv1.NewNotificationServiceClient(st.conns[Notification]),
			SiteURL:             c.SiteURL,
			Git:                 server.GitConfig{CommitterName: c.CommitterName, CommitterEmail: c.CommitterEmail},
			GitTimeout:          c.GitTimeout,
			Upload:              upload,
			Machinery:           mt,
			AllowLocalMachinery: c.AllowLocalMachinery,
			Log:                 log,
		})
	}
	return nil, fmt.Errorf("unknown service %q", name)
}

// translationDir holds the translation service's working copies (and its
// SQLite file).
func translationDir(c Config) string { return filepath.Join(c.DataDir, "translation") }
