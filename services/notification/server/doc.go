// Package server implements the NotificationService gRPC API on top of the
// store: API-token authentication, accounts and notification
// subscriptions, with Django REST framework wording in validation errors.
package server
