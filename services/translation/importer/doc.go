// Package importer turns the PO files of a component's working copy into
// translations and units: it matches the file mask, parses the files one
// at a time (twice: to check them all and collect the source strings, then
// to store each, so that memory holds one parsed file, not all), computes
// hashes, word and character counts and states, asks the catalog for each
// language met, and hands one ImportSpec per file to the store (one
// transaction per translation).
package importer
