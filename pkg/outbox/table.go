package outbox

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strings"
	"testing/fstest"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/db"
)

// Table is an outbox table. Events, the default, holds what the relays of
// every service deliver to the change log. A consumer of its own gets a
// table of its own (its Migrations beside the service's, a Relay built
// WithTable), so that no other relay takes its events: a relay delivers
// every event of its table, and an older version of a service, running
// beside a newer one during a rollout, knows nothing of newer topics.
type Table string

// Events is the default outbox table (outbox_events).
const Events Table = "outbox_events"

var tableName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// name is t as an SQL identifier; it panics on a name that is not one, a
// programming error.
func (t Table) name() string {
	if !tableName.MatchString(string(t)) {
		panic(fmt.Sprintf("outbox: %q is not a table name", string(t)))
	}
	return string(t)
}

// Migrations creates t with the columns and indexes of outbox_events,
// versioned apart from them (source "outbox.<table>"). Events.Migrations is
// Migrations.
func (t Table) Migrations() db.Source {
	if t == Events {
		return Migrations
	}
	name := t.name()
	files := fstest.MapFS{}
	err := fs.WalkDir(Migrations.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ".sql" {
			return err
		}
		body, err := fs.ReadFile(Migrations.FS, p)
		if err != nil {
			return err
		}
		files[p] = &fstest.MapFile{Data: []byte(strings.ReplaceAll(string(body), string(Events), name))}
		return nil
	})
	if err != nil {
		panic(fmt.Sprintf("outbox: migrations of %s: %v", name, err)) // embedded: cannot fail
	}
	return db.Source{Name: "outbox." + name, FS: files}
}

// Undelivered lists the events of t not delivered yet, in id order: what
// its consumer has still to take.
func (t Table) Undelivered(q *gorm.DB) ([]Event, error) {
	var recs []record
	if err := q.Table(t.name()).Where("delivered_at IS NULL").Order("id").Find(&recs).Error; err != nil {
		return nil, err
	}
	out := make([]Event, len(recs))
	for i, rec := range recs {
		out[i] = rec.event()
	}
	return out, nil
}
