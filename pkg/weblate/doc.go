// Package weblate is the one table between the API's enums (tms.type.v1)
// and the numbers and strings the reference, Weblate, uses for the same
// values: in its REST API and webhook payloads, which the gateway and the
// notification service speak, and in this service's databases, which keep
// the reference's numbers as they always stored them.
//
// Each reference number or string is written once, here. Code that works
// on stored values names them by the constants of this package (for
// example StateTranslated in a SQL condition); code that crosses the API
// converts with a Table, never by a cast: the enums carry the reference's
// number for most values, but not for the value the reference numbers 0,
// which every enum's zero value (X_UNSPECIFIED) takes.
package weblate
