// Package outbox implements the transactional outbox (ARCHITECTURE.md rule
// 3): a state change and the events it causes are written in one local
// transaction, and a Relay delivers the committed events afterwards.
//
// A service adds Migrations to its migration sources, calls Add inside the
// transaction that changes its state, and calls Relay.Notify after the
// commit so the relay delivers at once instead of at its next poll.
//
// Delivery is at least once: the relay retries a failed batch with capped
// exponential backoff for as long as it takes and never drops an event, and
// a crash between delivery and marking delivers a batch again. Consumers
// must therefore be idempotent by Event.EventID. Events are delivered in id
// order; on PostgreSQL, ids of transactions that commit concurrently may
// commit out of order, so consumers must not assume a global order across
// independent transactions. On PostgreSQL an advisory lock elects one
// delivering relay per table and schema, so several replicas of a service
// may each run a relay.
//
// Events go to the default table (Events) unless a consumer has a table
// of its own (Table, with its Migrations and a Relay WithTable): a relay
// delivers every event of its table, so events for another consumer live
// in another table.
package outbox
