// Package writeback applies the database's view of a translation to its PO
// file: the targets and states of edited units, strings added or removed
// through the API, and the header fields Weblate updates when it saves a
// file. It works on a parsed pkg/po File, so untouched entries keep their
// bytes and an edit shows as a diff of the edited entries and the header.
package writeback
