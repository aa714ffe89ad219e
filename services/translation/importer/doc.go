// Package importer turns the PO files of a component's working copy into
// translations and units: it matches the file mask, parses the files in
// parallel, computes hashes, word and character counts and states, asks the
// catalog for each language met, and hands one ImportSpec per file to the
// store (one transaction per translation).
package importer
