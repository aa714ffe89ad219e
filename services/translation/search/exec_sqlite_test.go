package search

import (
	"database/sql"
	"testing"
)

func init() { RegisterSQLiteFunctions() }

func TestExecSQLite(t *testing.T) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // one in-memory database
	runExecSuite(t, db, DialectSQLite)
}
