// Package store keeps the catalog's state: projects, components (the
// repository binding and every setting of a component, with its lock) and
// languages with their plural rules. It is the only code of the catalog that
// touches the database; the schema lives in versioned SQL migrations for
// SQLite and PostgreSQL embedded in this package.
//
// Writes that the change log must know about take the change record to store
// and write it through the transactional outbox (package changefeed) in the
// same transaction as the state change.
package store
