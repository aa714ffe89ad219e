// Package wire holds the JSON primitives of the REST API: the one-decimal
// percentage, the microsecond UTC timestamp and the encoder settings
// (no HTML escaping) that every response body goes through.
package wire
