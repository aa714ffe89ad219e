package pagetoken

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/tmsproject/tms/pkg/errs"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

var limits = Limits{Default: 2, Max: 3}

func TestOffsetLimitFormUnchanged(t *testing.T) {
	for _, tc := range []struct {
		desc          string
		req           proto.Message
		offset, limit int64
	}{
		{"int64 fields", &translationv1.ListUnitsRequest{Offset: 5, Limit: 7}, 5, 7},
		{"a negative limit kept for the RPC to judge", &translationv1.ListUnitsRequest{Offset: 1, Limit: -2}, 1, -2},
		{"int32 fields", &notificationv1.ListRolesRequest{Offset: 4, Limit: 9}, 4, 9},
		{"nothing set", &translationv1.ListUnitsRequest{}, 0, 0},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			p, err := limits.Read(tc.req)
			if err != nil {
				t.Fatal(err)
			}
			if p.Offset != tc.offset || p.Limit != tc.limit || p.Tokens() {
				t.Fatalf("page = %+v, want offset %d limit %d without tokens", p, tc.offset, tc.limit)
			}
			if next := p.Next(1000); next != "" {
				t.Fatalf("Next in offset form = %q, want empty", next)
			}
		})
	}
}

func TestPageSize(t *testing.T) {
	for _, tc := range []struct {
		size int32
		want int64
	}{
		{0, 2}, // only a token: the default
		{1, 1},
		{3, 3},
		{100, 3}, // capped to Max
	} {
		t.Run(fmt.Sprintf("page_size %d", tc.size), func(t *testing.T) {
			req := &translationv1.ListUnitsRequest{PageSize: tc.size}
			if tc.size == 0 {
				first, err := limits.Read(&translationv1.ListUnitsRequest{PageSize: 1})
				if err != nil {
					t.Fatal(err)
				}
				req.PageToken = first.Next(10)
			}
			p, err := limits.Read(req)
			if err != nil {
				t.Fatal(err)
			}
			if p.Limit != tc.want {
				t.Fatalf("page_size %d: limit = %d, want %d", tc.size, p.Limit, tc.want)
			}
		})
	}
}

// TestPagesToTheEnd follows tokens through a list of 7 rows by pages of 3.
func TestPagesToTheEnd(t *testing.T) {
	const total = 7
	req := &translationv1.ListUnitsRequest{TranslationId: 3, Query: "state:<translated", PageSize: 3}
	var offsets []int64
	for range total {
		p, err := limits.Read(req)
		if err != nil {
			t.Fatal(err)
		}
		offsets = append(offsets, p.Offset)
		req.PageToken = p.Next(total)
		if req.PageToken == "" {
			break
		}
	}
	if want := []int64{0, 3, 6}; !slices.Equal(offsets, want) {
		t.Fatalf("offsets = %v, want %v", offsets, want)
	}
}

func TestNoNextPage(t *testing.T) {
	for _, tc := range []struct {
		desc  string
		total int64
	}{
		{"empty list", 0},
		{"one full page", 3},
		{"less than a page", 2},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			p, err := limits.Read(&translationv1.ListUnitsRequest{PageSize: 3})
			if err != nil {
				t.Fatal(err)
			}
			if next := p.Next(tc.total); next != "" {
				t.Fatalf("Next(%d) = %q, want empty", tc.total, next)
			}
		})
	}
}

func TestRefused(t *testing.T) {
	first, err := limits.Read(&translationv1.ListUnitsRequest{TranslationId: 3, PageSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	token := first.Next(10)
	raw, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil {
		t.Fatal(err)
	}
	tampered := func(i int) string {
		b := append([]byte(nil), raw...)
		b[i] ^= 0x01
		return base64.RawURLEncoding.EncodeToString(b)
	}
	// The last digit of a 16-byte token carries 2 bits and 4 zero bits:
	// another digit that differs in a zero bit decodes to the same bytes
	// unless decoding is strict.
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	last := strings.IndexByte(alphabet, token[len(token)-1])
	noncanonical := token[:len(token)-1] + string(alphabet[last^1])
	for _, tc := range []struct {
		desc  string
		req   proto.Message
		field string
	}{
		{"non-canonical encoding", &translationv1.ListUnitsRequest{TranslationId: 3, PageToken: noncanonical}, fieldPageToken},
		{"offset changed", &translationv1.ListUnitsRequest{TranslationId: 3, PageToken: tampered(1)}, fieldPageToken},
		{"fingerprint changed", &translationv1.ListUnitsRequest{TranslationId: 3, PageToken: tampered(3)}, fieldPageToken},
		{"checksum changed", &translationv1.ListUnitsRequest{TranslationId: 3, PageToken: tampered(len(raw) - 1)}, fieldPageToken},
		{"not base64", &translationv1.ListUnitsRequest{TranslationId: 3, PageToken: "!!"}, fieldPageToken},
		{"truncated", &translationv1.ListUnitsRequest{TranslationId: 3, PageToken: token[:len(token)-4]}, fieldPageToken},
		{"other filter", &translationv1.ListUnitsRequest{TranslationId: 4, PageToken: token}, fieldPageToken},
		{"filter added", &translationv1.ListUnitsRequest{TranslationId: 3, Query: "x", PageToken: token}, fieldPageToken},
		{"other RPC", &notificationv1.ListRolesRequest{PageToken: token}, fieldPageToken},
		{"with offset", &translationv1.ListUnitsRequest{TranslationId: 3, Offset: 2, PageToken: token}, fieldPageToken},
		{"page_size with limit", &translationv1.ListUnitsRequest{Limit: 2, PageSize: 2}, fieldPageToken},
		{"negative page_size", &translationv1.ListUnitsRequest{PageSize: -1}, fieldPageSize},
		{"negative offset", &translationv1.ListUnitsRequest{Offset: -1}, fieldOffset},
		{"negative offset of another service", &notificationv1.ListRolesRequest{Offset: -3}, fieldOffset},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := limits.Read(tc.req)
			if err == nil {
				t.Fatal("accepted")
			}
			e := errs.FromStatus(errs.ToStatus(err))
			if e.Kind != errs.InvalidArgument {
				t.Fatalf("kind = %v, want InvalidArgument", e.Kind)
			}
			if len(e.Fields) != 1 || e.Fields[0].Field != tc.field {
				t.Fatalf("fields = %+v, want one on %q", e.Fields, tc.field)
			}
		})
	}
}

// TestOtherPageSizeContinues: a caller may change page_size between
// pages (AIP-158); only the filters are bound to the token.
func TestOtherPageSizeContinues(t *testing.T) {
	first, err := limits.Read(&translationv1.ListUnitsRequest{TranslationId: 3, PageSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	p, err := limits.Read(&translationv1.ListUnitsRequest{TranslationId: 3, PageSize: 3, PageToken: first.Next(10)})
	if err != nil {
		t.Fatal(err)
	}
	if p.Offset != 2 || p.Limit != 3 {
		t.Fatalf("page = %+v, want offset 2 limit 3", p)
	}
}
