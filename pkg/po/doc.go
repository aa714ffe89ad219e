// Package po is a lossless codec for gettext PO files.
//
// Parse keeps every input byte: each Entry owns the raw bytes it was parsed
// from (its comments, its keywords and the blank lines after it), so
// File.Bytes reproduces the input exactly until something is edited. Edited
// entries (SetTarget, SetHeaderField, AddEntry) are re-rendered the way the
// reference service (Weblate) saves them with translate-toolkit's pypo
// writer: its comment order and keyword layout, and its wrapping, which since
// translate-toolkit 3.17 is gettext_wrap of the unicode-segmentation-rs
// crate (UAX #29 word segments, punctuation glued to its neighbours, lines
// of 77 columns, East Asian wide characters counted double, a leading `""`
// when there are several lines or the only one exceeds 71 characters).
// Untouched entries stay byte-identical, so a one-string edit produces a
// one-hunk diff.
//
// The package also reproduces GNU gettext's wrapping (msgmerge and msgcat
// 0.23 with libunistring 1.3: UAX #14 line breaking for Unicode 16, no break
// inside escapes or python-format / python-brace-format directives, the
// keyword counted on the first line), which the reference service's msgmerge
// add-on rewrites whole files with; most of a file's entries are last
// written that way. The corpus tests check that every entry of the reference
// corpus is reproduced by one of the two writers.
//
// MO writes the translated, non-fuzzy entries as a GNU .mo catalogue.
package po
