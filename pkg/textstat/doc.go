// Package textstat holds the counting and hashing rules the API shares with
// Weblate (COMPAT.md §6): source word and character counts, the percentage
// rounding of statistics, and the SipHash-based id_hash / content_hash of
// units, so that numbers and ids match the reference implementation.
package textstat
