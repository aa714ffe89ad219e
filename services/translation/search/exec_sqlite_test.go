package search

import (
	"database/sql"
	"database/sql/driver"
	"strings"
	"testing"

	sqlite "github.com/glebarez/go-sqlite"
)

func init() {
	// What a store does on SQLite: a Unicode-aware lower() (overriding the
	// ASCII-only built-in) and the regexp() function behind REGEXP.
	sqlite.MustRegisterDeterministicScalarFunction("lower", 1,
		func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
			switch v := args[0].(type) {
			case string:
				return strings.ToLower(v), nil
			case []byte:
				return strings.ToLower(string(v)), nil
			}
			return args[0], nil
		})
	sqlite.MustRegisterDeterministicScalarFunction("regexp", 2,
		func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
			pattern, _ := args[0].(string)
			text, _ := args[1].(string)
			return Regexp(pattern, text)
		})
}

func TestExecSQLite(t *testing.T) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // one in-memory database
	runExecSuite(t, db, DialectSQLite)
}
