// Package suite is the REST API's main test suite: it starts every real
// service in-process and drives the API as clients do, resource by
// resource (projects, components, units, memory, webhooks, access...),
// validating every answer against the service's own OpenAPI document and
// comparing it with Weblate 2026.8's (testdata/weblate-differences.txt);
// one of its tests walks every API link found in the answers and checks
// that each resolves.
package suite
