// Package server implements catalogv1.CatalogServiceServer on top of the
// catalog store: it converts between proto messages and stored rows, fills
// Weblate's defaults into new components, validates every write with the
// wording of Weblate's REST API (field names are the REST JSON names) and
// builds the change records the store writes with each state change.
package server
