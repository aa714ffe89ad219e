package rest

import "github.com/tmsproject/tms/gateway/rest/wire"

// AppendJSON writes the unit as encoding/json writes unitJSON, field for
// field in its order, without reflection: a units page is fifty of them
// (TestUnitJSONAgrees holds the two to the same bytes).
func (u *unitJSON) AppendJSON(b []byte) ([]byte, error) {
	str := func(name, v string) { b = wire.AppendString(wire.AppendKey(b, name, false), v) }
	num := func(name string, v int64) { b = wire.AppendInt(wire.AppendKey(b, name, false), v) }
	flag := func(name string, v bool) { b = wire.AppendBool(wire.AppendKey(b, name, false), v) }
	b = append(b, '{')
	b = wire.AppendString(wire.AppendKey(b, "translation", true), u.Translation)
	str("language_code", u.LanguageCode)
	b = wire.AppendStrings(wire.AppendKey(b, "source", false), u.Source)
	str("previous_source", u.PreviousSource)
	b = wire.AppendStrings(wire.AppendKey(b, "target", false), u.Target)
	num("id_hash", u.IDHash)
	num("content_hash", u.ContentHash)
	str("location", u.Location)
	str("context", u.Context)
	str("note", u.Note)
	str("flags", u.Flags)
	b = appendLabels(wire.AppendKey(b, "labels", false), u.Labels)
	num("state", int64(u.State))
	flag("fuzzy", u.Fuzzy)
	flag("translated", u.Translated)
	flag("approved", u.Approved)
	num("position", u.Position)
	flag("has_suggestion", u.HasSuggestion)
	flag("has_comment", u.HasComment)
	flag("has_failing_check", u.HasFailingCheck)
	num("num_words", u.NumWords)
	str("source_unit", u.SourceUnit)
	num("priority", int64(u.Priority))
	num("id", u.ID)
	str("web_url", u.WebURL)
	str("url", u.URL)
	str("explanation", u.Explanation)
	str("extra_flags", u.ExtraFlags)
	flag("pending", u.Pending)
	b = wire.AppendTime(wire.AppendKey(b, "timestamp", false), u.Timestamp)
	if u.LastUpdated != nil {
		b = wire.AppendTime(wire.AppendKey(b, "last_updated", false), *u.LastUpdated)
	}
	return append(b, '}'), nil
}

// MarshalJSON is AppendJSON, for a unit inside another answer.
func (u *unitJSON) MarshalJSON() ([]byte, error) { return u.AppendJSON(nil) }

// appendLabels writes labels as encoding/json writes a []labelJSON.
func appendLabels(b []byte, ls []labelJSON) []byte {
	return wire.AppendList(b, ls, func(b []byte, l labelJSON) []byte {
		b = wire.AppendInt(wire.AppendKey(append(b, '{'), "id", true), l.ID)
		b = wire.AppendString(wire.AppendKey(b, "name", false), l.Name)
		b = wire.AppendString(wire.AppendKey(b, "description", false), l.Description)
		b = wire.AppendString(wire.AppendKey(b, "color", false), l.Color)
		return append(b, '}')
	})
}

// AppendJSON writes the page envelope; a page of units goes through their
// AppendJSON, any other list through encoding/json.
func (p *pageBody) AppendJSON(b []byte) ([]byte, error) {
	b = wire.AppendInt(wire.AppendKey(append(b, '{'), "count", true), p.Count)
	for _, link := range []struct {
		name string
		v    *string
	}{{"next", p.Next}, {"previous", p.Previous}} {
		b = wire.AppendKey(b, link.name, false)
		if link.v == nil {
			b = append(b, "null"...)
		} else {
			b = wire.AppendString(b, *link.v)
		}
	}
	b = wire.AppendKey(b, "results", false)
	units, ok := p.Results.([]*unitJSON)
	if !ok || units == nil {
		var err error
		if b, err = wire.AppendValue(b, p.Results); err != nil {
			return nil, err
		}
		return append(b, '}'), nil
	}
	b = wire.AppendList(b, units, func(b []byte, u *unitJSON) []byte {
		b, _ = u.AppendJSON(b) // a unit's never fails
		return b
	})
	return append(b, '}'), nil
}
