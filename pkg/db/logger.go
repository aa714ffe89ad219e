package db

import (
	"context"
	"errors"
	"log"
	"os"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// quietLogger logs slow statements and real failures only. Not-found,
// duplicate-key and foreign-key errors are ordinary control flow that the
// caller turns into API errors, and cancelled contexts are the client's
// doing; logging them here would only add noise.
type quietLogger struct {
	logger.Interface
}

func newQuietLogger() logger.Interface {
	return quietLogger{logger.New(log.New(os.Stderr, "gorm: ", log.LstdFlags), logger.Config{
		SlowThreshold:             time.Second,
		IgnoreRecordNotFoundError: true,
		ParameterizedQueries:      true,
		LogLevel:                  logger.Warn,
	})}
}

func (l quietLogger) LogMode(level logger.LogLevel) logger.Interface {
	return quietLogger{l.Interface.LogMode(level)}
}

func (l quietLogger) Trace(ctx context.Context, begin time.Time, fc func() (string, int64), err error) {
	if expectedError(err) {
		err = nil
	}
	l.Interface.Trace(ctx, begin, fc, err)
}

func expectedError(err error) bool {
	return errors.Is(err, gorm.ErrRecordNotFound) ||
		errors.Is(err, gorm.ErrDuplicatedKey) ||
		errors.Is(err, gorm.ErrForeignKeyViolated) ||
		errors.Is(err, context.Canceled)
}
