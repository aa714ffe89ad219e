package search

import (
	"database/sql/driver"
	"strings"
	"sync"

	sqlite "modernc.org/sqlite"
)

var registerOnce sync.Once

// RegisterSQLiteFunctions installs, for every connection the pure-Go SQLite
// driver opens, what the generated SQL needs there: a Unicode-aware lower()
// (the built-in folds ASCII only) and regexp() behind the REGEXP operator.
// Safe to call more than once.
func RegisterSQLiteFunctions() {
	registerOnce.Do(func() {
		sqlite.MustRegisterDeterministicScalarFunction("lower", 1, sqliteLower)
		sqlite.MustRegisterDeterministicScalarFunction("regexp", 2, sqliteRegexp)
	})
}

func sqliteLower(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
	switch v := args[0].(type) {
	case string:
		return strings.ToLower(v), nil
	case []byte:
		return strings.ToLower(string(v)), nil
	}
	return args[0], nil
}

func sqliteRegexp(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
	pattern, _ := args[0].(string)
	text, ok := args[1].(string)
	if !ok {
		if b, isBytes := args[1].([]byte); isBytes {
			text = string(b)
		}
	}
	return Regexp(pattern, text)
}
