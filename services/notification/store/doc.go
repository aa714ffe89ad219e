// Package store keeps the notification service's accounts, their API token
// hashes and their notification subscriptions. It is the only code of the
// service that touches the database; the schema lives in versioned SQL
// migrations, one set per engine, embedded here.
package store
