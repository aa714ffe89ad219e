package rest

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/tmsproject/tms/gateway/rest/wire"
)

// plainUnit and plainPage are unitJSON and pageBody without their
// methods: encoding/json writes them by reflection, as it did before
// AppendJSON.
type (
	plainUnit unitJSON
	plainPage struct {
		Count    int64        `json:"count"`
		Next     *string      `json:"next"`
		Previous *string      `json:"previous"`
		Results  []*plainUnit `json:"results"`
	}
)

func reflected(t *testing.T, v any) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return string(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// TestUnitJSONAgrees holds the hand-written units page to the bytes
// encoding/json writes of the same values.
func TestUnitJSONAgrees(t *testing.T) {
	later := &wire.Time{Time: time.Date(2026, 3, 29, 18, 42, 42, 617681000, time.UTC)}
	odd := "<a href=\"x\">&</a>\t\n\x01 \u2028 \xff Příliš 🎉 \\"
	units := []*unitJSON{
		{Source: []string{}, Target: []string{}, Labels: []labelJSON{}},
		{Translation: "http://h/api/translations/p/c/cs/", LanguageCode: "cs", Source: []string{"One", "Many"},
			PreviousSource: odd, Target: []string{odd, ""}, IDHash: -9223372036854775808, ContentHash: 42,
			Location: "a.c:1", Context: odd, Note: odd, Flags: "c-format", State: 30, Fuzzy: false, Translated: true,
			Approved: true, Position: 7, HasSuggestion: true, HasComment: true, HasFailingCheck: true, NumWords: 3,
			SourceUnit: "http://h/api/units/1/", Priority: 100, ID: 12, WebURL: "http://h/translate/p/c/cs/?checksum=ab",
			URL: "http://h/api/units/12/", Explanation: odd, ExtraFlags: "max-length:10", Pending: true,
			Labels:    []labelJSON{{ID: 1, Name: odd, Description: "d", Color: "navy"}, {ID: 2, Name: "UI", Color: "gray"}},
			Timestamp: wire.Time{Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}, LastUpdated: later},
		{Source: nil, Target: nil, Labels: nil, Timestamp: *later},
	}
	for i, u := range units {
		got, err := u.AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		if want := reflected(t, (*plainUnit)(u)); string(got) != want {
			t.Errorf("unit %d:\n got %s\nwant %s", i, got, want)
		}
	}
	next := "http://h/api/translations/p/c/cs/units/?page=2&q=" + odd
	for _, p := range []*pageBody{
		{Count: 3, Next: &next, Results: units},
		{Count: 0, Previous: &next, Results: []*unitJSON{}},
		{Count: 0, Results: []*unitJSON(nil)},
	} {
		plain := plainPage{Count: p.Count, Next: p.Next, Previous: p.Previous}
		if us := p.Results.([]*unitJSON); us != nil {
			plain.Results = []*plainUnit{}
			for _, u := range us {
				plain.Results = append(plain.Results, (*plainUnit)(u))
			}
		}
		var buf bytes.Buffer
		if err := wire.Encode(&buf, p); err != nil {
			t.Fatal(err)
		}
		if want := reflected(t, plain); buf.String() != want {
			t.Errorf("page:\n got %s\nwant %s", buf.String(), want)
		}
	}
	// Any other list goes through encoding/json within the envelope.
	other := &pageBody{Count: 1, Results: []labelJSON{{ID: 1, Name: odd}}}
	var buf bytes.Buffer
	if err := wire.Encode(&buf, other); err != nil {
		t.Fatal(err)
	}
	type plainOther pageBody
	if want := reflected(t, (*plainOther)(other)); buf.String() != want {
		t.Errorf("page of labels:\n got %s\nwant %s", buf.String(), want)
	}
}
