// Package pagetoken implements the page_size/page_token paging (AIP-158)
// that every List RPC of the services offers beside offset/limit.
//
// A token is opaque to callers. It holds the offset of the next page, a
// fingerprint of the request it continues (the request message with its
// paging fields cleared, so every filter counts) and a checksum over both:
// a token that was altered, or that is sent with other filters or to
// another RPC, is refused with InvalidArgument on "page_token" instead of
// answering a page of some other list. Tokens carry no secret and need
// none: an offset is nothing a caller could not ask for with offset.
//
// Requests are read by field name (offset, limit, page_size, page_token),
// so one implementation serves every List request message, whether its
// offset is an int32 or an int64.
package pagetoken

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"math"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/tmsproject/tms/pkg/errs"
)

// The request fields this package reads; the fingerprint leaves them out.
const (
	fieldOffset    = "offset"
	fieldLimit     = "limit"
	fieldPageSize  = "page_size"
	fieldPageToken = "page_token"
)

// version is the first byte of every token; another layout gets another
// version so that old tokens are refused, not misread.
const version byte = 1

const (
	fingerprintLen = 8
	checksumLen    = 6
)

// Limits are one RPC's page sizes: Default serves a page_size of 0, and a
// larger page_size than Max is served as Max (AIP-158 coerces, not fails).
type Limits struct {
	Default int32
	Max     int32
}

// Page is the slice of the list a request asks for.
type Page struct {
	// Offset is the number of rows to skip. In offset/limit form it is
	// the request's offset as sent (the RPC validates it as it always has).
	Offset int64
	// Limit is the number of rows to answer at most. In offset/limit form
	// it is the request's limit as sent (0 keeps the RPC's meaning).
	Limit int64

	tokens      bool
	fingerprint [fingerprintLen]byte
}

// Tokens reports whether the request pages with page_size/page_token; the
// response then carries next_page_token.
func (p Page) Tokens() bool { return p.tokens }

// Read resolves the paging of a List request. Without page_size and
// page_token it is the request's offset and limit, unchanged; a negative
// offset is InvalidArgument on "offset". With either,
// offset and limit must be 0; page_size must not be negative; page_token,
// when set, must be one this package issued for the same RPC and filters.
// Errors are InvalidArgument with the offending field named.
func (l Limits) Read(req proto.Message) (Page, error) {
	m := req.ProtoReflect()
	offset, limit := intField(m, fieldOffset), intField(m, fieldLimit)
	size, token := intField(m, fieldPageSize), stringField(m, fieldPageToken)
	if size == 0 && token == "" {
		// One rule for every service: a negative offset is refused, not
		// read as 0 (the limit's meaning is each RPC's own).
		if offset < 0 {
			return Page{}, errs.Invalid(fieldOffset, "min_value", "Ensure this value is greater than or equal to 0.")
		}
		return Page{Offset: offset, Limit: limit}, nil
	}
	if offset != 0 || limit != 0 {
		return Page{}, errs.Invalid(fieldPageToken, "invalid",
			"page_size and page_token cannot be combined with offset or limit.")
	}
	if size < 0 {
		return Page{}, errs.Invalid(fieldPageSize, "min_value", "Ensure this value is greater than or equal to 0.")
	}
	p := Page{Limit: l.size(size), tokens: true, fingerprint: fingerprint(m)}
	if token != "" {
		var err error
		if p.Offset, err = decode(token, p.fingerprint); err != nil {
			return Page{}, err
		}
	}
	return p, nil
}

// size is the page size served for a requested one (not negative).
func (l Limits) size(requested int64) int64 {
	switch {
	case requested == 0:
		return int64(l.Default)
	case requested > int64(l.Max):
		return int64(l.Max)
	}
	return requested
}

// Next is the next_page_token of a response whose list has total rows in
// all: empty on the last page, and always in offset/limit form.
func (p Page) Next(total int64) string {
	if !p.tokens || p.Limit <= 0 || p.Offset >= total-p.Limit {
		return ""
	}
	return encode(p.Offset+p.Limit, p.fingerprint)
}

// fingerprint identifies the RPC (by request type) and every filter of a
// request: the request without its paging fields, marshalled
// deterministically.
func fingerprint(m protoreflect.Message) [fingerprintLen]byte {
	c := proto.Clone(m.Interface()).ProtoReflect()
	fields := c.Descriptor().Fields()
	for _, name := range []protoreflect.Name{fieldOffset, fieldLimit, fieldPageSize, fieldPageToken} {
		if fd := fields.ByName(name); fd != nil {
			c.Clear(fd)
		}
	}
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(c.Interface())
	if err != nil { // a message that was unmarshalled marshals again
		b = nil
	}
	h := sha256.New()
	h.Write([]byte(c.Descriptor().FullName()))
	h.Write([]byte{0})
	h.Write(b)
	var fp [fingerprintLen]byte
	copy(fp[:], h.Sum(nil))
	return fp
}

// encode lays out version, offset (uvarint), fingerprint and checksum.
func encode(offset int64, fp [fingerprintLen]byte) string {
	b := []byte{version}
	b = binary.AppendUvarint(b, uint64(offset)) //nolint:gosec // G115: offsets of the token form are never negative
	b = append(b, fp[:]...)
	b = append(b, checksum(b)...)
	return base64.RawURLEncoding.EncodeToString(b)
}

// decode is the offset of a token issued for a request with fingerprint
// fp.
func decode(token string, fp [fingerprintLen]byte) (int64, error) {
	malformed := errs.Invalid(fieldPageToken, "invalid",
		"page_token is not a token this service issued; start again without one.")
	b, err := base64.RawURLEncoding.Strict().DecodeString(token)
	if err != nil || len(b) < 1+1+fingerprintLen+checksumLen || b[0] != version {
		return 0, malformed
	}
	body, sum := b[:len(b)-checksumLen], b[len(b)-checksumLen:]
	if !bytes.Equal(sum, checksum(body)) {
		return 0, malformed
	}
	offset, n := binary.Uvarint(body[1:])
	if n <= 0 || 1+n+fingerprintLen != len(body) || offset > math.MaxInt64 {
		return 0, malformed
	}
	if !bytes.Equal(body[1+n:], fp[:]) {
		return 0, errs.Invalid(fieldPageToken, "invalid",
			"page_token was issued for another request; send the same filters, or start again without it.")
	}
	return int64(offset), nil
}

// checksum guards a token's body against changes: any altered byte makes
// the token invalid rather than a page from elsewhere.
func checksum(body []byte) []byte {
	h := sha256.New()
	h.Write([]byte("tms.pagetoken"))
	h.Write(body)
	return h.Sum(nil)[:checksumLen]
}

// intField reads an integer field by name; 0 when the message has none.
func intField(m protoreflect.Message, name protoreflect.Name) int64 {
	fd := m.Descriptor().Fields().ByName(name)
	if fd == nil {
		return 0
	}
	switch fd.Kind() {
	case protoreflect.Int32Kind, protoreflect.Int64Kind, protoreflect.Sint32Kind,
		protoreflect.Sint64Kind, protoreflect.Sfixed32Kind, protoreflect.Sfixed64Kind:
		return m.Get(fd).Int()
	}
	return 0
}

// stringField reads a string field by name; "" when the message has none.
func stringField(m protoreflect.Message, name protoreflect.Name) string {
	fd := m.Descriptor().Fields().ByName(name)
	if fd == nil || fd.Kind() != protoreflect.StringKind {
		return ""
	}
	return m.Get(fd).String()
}
