// Package changedetails converts the details of a change record (the
// google.protobuf.Struct Change.details) to and from JSON text: the form
// the changelog service stores, the REST API answers and webhooks post.
//
// The text is what encoding/json writes for the equivalent map: keys
// sorted, HTML characters escaped (\u003c), numbers as Go prints a
// float64. That is the text every service wrote when details were carried
// as a JSON string, so records stored then and now render to the same
// bytes.
package changedetails
