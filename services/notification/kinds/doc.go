// Package kinds holds what is behaviour, not vocabulary, of notification
// subscriptions: the default subscriptions every new user starts with
// (COMPAT.md §8). The kinds, scopes and frequencies themselves are the
// enums of tms.type.v1, stored as the reference's names and numbers
// (github.com/tmsproject/tms/pkg/weblate).
package kinds
