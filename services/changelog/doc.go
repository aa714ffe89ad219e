// Package changelog is the changelog service: it stores the change records
// that other services append through their transactional outboxes (idempotent
// by event id) and serves them newest first with the REST change-list
// filters. Subpackage store holds the database code, server the gRPC API.
package changelog
