// Package server implements translationv1.TranslationServiceServer over the
// store: request validation, permission rules of unit edits (COMPAT.md §5),
// background import tasks, and conversion between proto and store rows.
package server
