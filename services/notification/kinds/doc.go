// Package kinds lists what a notification subscription may say: the
// notification kinds (Weblate's class names, misspellings included, because
// clients send them verbatim), the scopes and frequencies, and the default
// subscriptions every new user starts with (COMPAT.md §8).
package kinds
