// Package writeback applies the database's view of a translation to its
// file, whatever its format (services/translation/formats): the targets and
// states of edited units, strings added or removed through the API, and the
// header fields Weblate updates when it saves a file with a header. Formats
// keep untouched content byte-identical, so an edit shows as a diff of the
// edited units (and the header).
package writeback
