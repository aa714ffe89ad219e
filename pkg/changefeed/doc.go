// Package changefeed records change-log entries through the transactional
// outbox and relays them to the changelog service.
//
// A service calls Record inside the transaction that makes the state change,
// so the record exists if and only if the change does. The relay delivers
// the stored records to the changelog service over gRPC, retrying until it
// accepts them; the changelog drops duplicates by event id, so a record
// delivered twice (a crash between delivery and marking) is stored once.
package changefeed
