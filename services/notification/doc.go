// Package notification is the notification service: accounts (with the
// built-in admin superuser and the anonymous account), API tokens kept as
// SHA-256 hashes, and per-account notification subscriptions. Subpackage
// store holds the database code, server the gRPC API, kinds the catalogue
// of notification kinds, scopes and frequencies, token the token format.
//
// Delivering notifications for change events is not implemented yet.
package notification
