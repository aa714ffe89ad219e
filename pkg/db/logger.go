package db

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/logger"
	"gorm.io/gorm/utils"
)

// slowQuery is the duration above which a statement is logged as slow.
const slowQuery = time.Second

// quietLogger sends gorm's reports to slog, keeping only slow statements
// and real failures. Not-found, duplicate-key and foreign-key errors are
// ordinary control flow that callers turn into API errors, and cancelled
// contexts are the client's doing; logging them would only add noise.
// Statements are logged without their arguments (user data).
type quietLogger struct {
	level logger.LogLevel
}

func newQuietLogger() logger.Interface { return quietLogger{level: logger.Warn} }

func (l quietLogger) LogMode(level logger.LogLevel) logger.Interface {
	return quietLogger{level: level}
}

func (l quietLogger) Info(ctx context.Context, msg string, args ...any) {
	if l.level >= logger.Info {
		slog.InfoContext(ctx, "gorm: "+fmt.Sprintf(msg, args...))
	}
}

func (l quietLogger) Warn(ctx context.Context, msg string, args ...any) {
	if l.level >= logger.Warn {
		slog.WarnContext(ctx, "gorm: "+fmt.Sprintf(msg, args...))
	}
}

func (l quietLogger) Error(ctx context.Context, msg string, args ...any) {
	if l.level >= logger.Error {
		slog.ErrorContext(ctx, "gorm: "+fmt.Sprintf(msg, args...))
	}
}

// Trace must call utils.FileWithLineNum itself: it finds the caller by
// skipping a fixed number of frames from here.
func (l quietLogger) Trace(ctx context.Context, begin time.Time, fc func() (string, int64), err error) {
	elapsed := time.Since(begin)
	switch {
	case errors.Is(err, context.DeadlineExceeded) && l.level >= logger.Warn:
		// The call's bound (TMS_QUERY_TIMEOUT) interrupted it: a slow
		// statement worth knowing, not a failure of the database.
		sql, rows := fc()
		slog.WarnContext(ctx, "gorm: statement interrupted at its deadline", "sql", sql, "rows", rows,
			"elapsed", elapsed, "caller", utils.FileWithLineNum())
	case err != nil && l.level >= logger.Error && !expectedError(err):
		sql, rows := fc()
		slog.ErrorContext(ctx, "gorm: statement failed", "err", err, "sql", sql, "rows", rows,
			"elapsed", elapsed, "caller", utils.FileWithLineNum())
	case elapsed > slowQuery && l.level >= logger.Warn:
		sql, rows := fc()
		slog.WarnContext(ctx, "gorm: slow statement", "sql", sql, "rows", rows,
			"elapsed", elapsed, "caller", utils.FileWithLineNum())
	case l.level >= logger.Info:
		sql, rows := fc()
		slog.DebugContext(ctx, "gorm: statement", "sql", sql, "rows", rows,
			"elapsed", elapsed, "caller", utils.FileWithLineNum())
	}
}

// ParamsFilter keeps arguments out of logged SQL.
func (l quietLogger) ParamsFilter(_ context.Context, sql string, _ ...any) (string, []any) {
	return sql, nil
}

func expectedError(err error) bool {
	return errors.Is(err, gorm.ErrRecordNotFound) ||
		errors.Is(err, gorm.ErrDuplicatedKey) ||
		errors.Is(err, gorm.ErrForeignKeyViolated) ||
		errors.Is(err, context.Canceled)
}
