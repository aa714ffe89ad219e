package pgserver_test

import (
	"database/sql"
	"os"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/tmsproject/tms/pkg/pgserver"
)

func TestServer(t *testing.T) {
	if os.Getenv("TMS_TEST_SKIP_POSTGRES") == "1" {
		t.Skip("PostgreSQL tests skipped")
	}
	s, err := pgserver.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	if _, badErr := s.CreateDatabase("Bad-Name"); badErr == nil {
		t.Error("a database name that needs quoting was accepted")
	}
	url, err := s.CreateDatabase("app_catalog")
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	var one int
	if err := db.QueryRow("SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Fatalf("query: %v %v", one, err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.DropDatabase("app_catalog"); err != nil {
		t.Fatal(err)
	}
	dir := s.Dir()
	s.Stop()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("directory %s left after Stop: %v", dir, err)
	}
}
