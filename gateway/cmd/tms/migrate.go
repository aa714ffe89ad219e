package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"

	"github.com/tmsproject/tms/gateway/stack"
)

const migrateSynopsis = `
Usage: tms migrate [--service=all] [--data-dir=DIR]

Brings the databases of the services up to date (each service also does it
at start) and exits. The databases are the configured ones: TMS_DATABASE_URL
or TMS_<SERVICE>_DATABASE_URL, else the SQLite files of the data directory.`

func migrate(args []string, stdout, stderr io.Writer) int {
	cfg, err := stack.FromEnv()
	if err != nil {
		fmt.Fprintln(stderr, "tms migrate:", err)
		return exitUsage
	}
	fs := newFlags("migrate", migrateSynopsis, stdout, stderr)
	service := fs.String("service", "all", "all, or a comma list of catalog, translation, changelog, notification")
	fs.StringVar(&cfg.DataDir, "data-dir", cfg.DataDir, "data directory of the SQLite databases (TMS_DATA_DIR)")
	if code, done := fs.parse(args); done {
		return code
	}
	names, err := stack.ParseServices(*service)
	if err == nil && fs.NArg() > 0 {
		err = fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if err != nil {
		fmt.Fprintln(stderr, "tms migrate:", err)
		return exitUsage
	}
	names = slices.DeleteFunc(names, func(n string) bool { return n == stack.Gateway })
	log := slog.New(slog.NewTextHandler(stderr, nil))
	if err := stack.Migrate(context.Background(), cfg, names, log); err != nil {
		fmt.Fprintln(stderr, "tms migrate:", err)
		return exitFailure
	}
	return exitOK
}
