package rest

import (
	"net/http"

	"github.com/tmsproject/tms/gateway/rest/apidoc"
)

// op is one method of a route: its handler and what the API document
// (apidoc) says it answers. The route table builds ops with the helpers
// below, so that the document is written where the routes are.
type op struct {
	h   handlerFunc
	doc apidoc.Op
}

// one answers a single object of out's type.
func one(h handlerFunc, out any) op { return op{h: h, doc: apidoc.Op{Out: out}} }

// page answers a page of objects of item's type.
func page(h handlerFunc, item any) op { return op{h: h, doc: apidoc.Op{Out: item, List: true}} }

// made answers 201 with out, having made it from a body of in's type.
func made(h handlerFunc, in, out any) op {
	return op{h: h, doc: apidoc.Op{In: in, Out: out, Status: http.StatusCreated}}
}

// change answers out after a body of in's type changed it.
func change(h handlerFunc, in, out any) op { return op{h: h, doc: apidoc.Op{In: in, Out: out}} }

// gone answers 204 with no body.
func gone(h handlerFunc) op { return op{h: h, doc: apidoc.Op{Status: http.StatusNoContent}} }

// file answers a file of one of the media types.
func file(h handlerFunc, media ...string) op { return op{h: h, doc: apidoc.Op{Files: media}} }

// with takes a request body of in's type.
func (o op) with(in any) op { o.doc.In = in; return o }

// status answers code on success.
func (o op) status(code int) op { o.doc.Status = code; return o }

// ext marks the service's own operation and says why it has it.
func (o op) ext(why string) op { o.doc.Extension = why; return o }

// query names the query parameters it reads (page and page_size apart).
func (o op) query(params ...apidoc.Param) op { o.doc.Query = append(o.doc.Query, params...); return o }

// note describes the operation.
func (o op) note(doc string) op { o.doc.Doc = doc; return o }

// upload takes a multipart body with a file, described by in.
func (o op) upload(in any) op { o.doc.In, o.doc.Upload = in, true; return o }
