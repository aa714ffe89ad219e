// Package apidoc builds the OpenAPI document of the REST API from its route
// table and the Go types its handlers answer with: a route's pattern gives
// the path and its parameters, each method the type of its answer (and of
// its request body), and reflection over those types' JSON tags gives the
// schemas. Nothing is written by hand, so the document cannot drift from
// what the handlers send; the REST suites validate every answer against it.
//
// The document is OpenAPI 3.1; Downgrade rewrites it as 3.0 for generators
// that do not read 3.1 (type arrays become nullable, const becomes enum).
package apidoc
