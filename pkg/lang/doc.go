// Package lang is the built-in language table of the service: the languages
// Weblate creates on a fresh install (codes, English names, text direction,
// default gettext plural rules, alias codes and speaker counts), the lookup
// rules Weblate applies to codes found in file names and API requests, and
// the helpers around gettext plural formulas (parsing a PO "Plural-Forms"
// header, evaluating a formula, classifying it into Weblate's plural types).
//
// The table in table.go is generated from WeblateOrg/language-data; the plural
// type tables in plural_data.go follow weblate/lang/data.py.
package lang
