// Package po is a lossless codec for gettext PO files.
//
// Parse keeps every input byte: each Entry owns the raw bytes it was parsed
// from (its comments, its keywords and the blank lines after it), so
// File.Bytes reproduces the input exactly until something is edited. Edited
// entries (SetTarget, SetHeaderField, AddEntry) are re-rendered the way
// translate-toolkit's pypo writer renders them, which is what the reference
// service (Weblate) writes: comment order, keyword layout, and line wrapping
// at 77 columns with PoWrapper's word-separator rules. Untouched entries stay
// byte-identical, so a one-string edit produces a one-hunk diff.
//
// The wrapping reproduces translate-toolkit 3.8's PoWrapper (the regular
// expression word splitter). Newer translate-toolkit releases and GNU
// msgmerge wrap differently (Unicode line breaking, keyword-aware first
// line); entries last written by those keep their lines until edited.
//
// MO writes the translated, non-fuzzy entries as a GNU .mo catalogue.
package po
