package search

import (
	"database/sql"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/tmsproject/tms/pkg/pgtest"
)

// TestMain starts the throwaway PostgreSQL cluster once for the package.
func TestMain(m *testing.M) { pgtest.Main(m) }

func TestExecPostgres(t *testing.T) {
	db, err := sql.Open("pgx", utf8Database(t, pgtest.URL(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	runExecSuite(t, db, DialectPostgres)
}

// utf8Database creates, next to the fresh database at dsn, one whose
// character classification is C.UTF-8 and returns its URL. ILIKE and
// lower() fold case by the database's LC_CTYPE: under the C locale of the
// test cluster they leave non-ASCII letters alone, so the suite's "école"
// cases need a UTF-8 ctype, as a production database has.
func utf8Database(t *testing.T, dsn string) string {
	t.Helper()
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = admin.Close() }) // after the drop below (cleanups run last first)
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("%s_utf8_%d", strings.TrimPrefix(u.Path, "/"), time.Now().UnixNano()%1e9)
	_, err = admin.Exec(`CREATE DATABASE ` + name + ` TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C.UTF-8'`)
	if err != nil {
		t.Fatalf("create a C.UTF-8 database: %v", err)
	}
	t.Cleanup(func() {
		if _, err := admin.Exec(`DROP DATABASE IF EXISTS ` + name + ` WITH (FORCE)`); err != nil {
			t.Logf("drop %s: %v", name, err)
		}
	})
	u.Path = "/" + name
	return u.String()
}
