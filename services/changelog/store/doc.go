// Package store keeps change records in the changelog service's database.
//
// It is the only code of the service that touches the database. Records are
// appended idempotently (a unique index on the event id skips replays) and
// listed newest first with the filters of the REST change lists. The schema
// lives in versioned SQL migrations, one set per engine, embedded here.
package store
