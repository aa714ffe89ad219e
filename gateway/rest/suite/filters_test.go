package suite

import (
	"encoding/json"
	"net/url"
	"slices"
	"testing"
	"time"
)

// change is the part of a change record the filters look at.
type change struct {
	ID        int64
	Action    int
	User      *string
	Timestamp string
}

func (ch change) time(t *testing.T) time.Time {
	v, err := time.Parse(time.RFC3339Nano, ch.Timestamp)
	if err != nil {
		t.Fatalf("change %d timestamp %q: %v", ch.ID, ch.Timestamp, err)
	}
	return v
}

// changes reads every record of a change list URL (one page of 1000).
func (c client) changes(list string, query url.Values) []change {
	c.t.Helper()
	query.Set("page_size", "1000")
	var page struct {
		Next    *string
		Results []change
	}
	code, body := c.do("GET", list+"?"+query.Encode(), nil)
	if code != 200 || json.Unmarshal(body, &page) != nil || page.Next != nil {
		c.t.Fatalf("GET %s?%s: %d %s", list, query.Encode(), code, body)
	}
	return page.Results
}

// checkChangeFilters has a second user edit and suggest, then checks that
// user, action and timestamp filters (COMPAT.md §7) answer exactly the
// records they select from the whole list.
func checkChangeFilters(t *testing.T, c client, unitURL string) {
	c.want(201, "POST", c.base+"users/", map[string]any{"username": "translator", "full_name": "T. Ranslator"})
	tok, _ := c.want(200, "POST", c.base+"users/translator/token/", nil)["token"].(string)
	tr := client{t: t, base: c.base, token: tok}
	tr.want(200, "PATCH", unitURL, map[string]any{"target": []string{"%d Datei", "%d Dateien"}, "state": 20})
	tr.want(201, "POST", unitURL+"suggestions/", map[string]any{"target": []string{"%d Akte", "%d Akten"}})
	all := settledChanges(t, c, 2)

	trURL := c.base + "users/translator/"
	byUser := func(ch change) bool { return ch.User != nil && *ch.User == trURL }
	expectFilter(t, c, all, url.Values{"user": {"translator"}}, byUser)
	twoActions := func(ch change) bool { return ch.Action == 2 || ch.Action == 63 }
	expectFilter(t, c, all, url.Values{"action": {"2", "63"}}, twoActions)
	expectFilter(t, c, all, url.Values{"user": {"translator"}, "action": {"2"}},
		func(ch change) bool { return byUser(ch) && ch.Action == 2 })

	// A window whose bounds are the timestamps of two records: both stay in
	// (inclusive), records outside on either side do not. The upper bound
	// is written with an offset, the lower one as the API prints it.
	stamps := distinctTimes(t, all)
	if len(stamps) < 4 {
		t.Fatalf("only %d distinct change timestamps", len(stamps))
	}
	lo, hi := stamps[1], stamps[len(stamps)-2]
	window := url.Values{"timestamp_after": {lo.UTC().Format("2006-01-02T15:04:05.999999Z")},
		"timestamp_before": {hi.In(time.FixedZone("", 2*3600)).Format("2006-01-02T15:04:05.999999-07:00")}}
	inWindow := func(ch change) bool { ts := ch.time(t); return !ts.Before(lo) && !ts.After(hi) }
	got := expectFilter(t, c, all, window, inWindow)
	if !got[0].time(t).Equal(hi) || !got[len(got)-1].time(t).Equal(lo) {
		t.Errorf("window %v: records at its bounds missing: newest %s, oldest %s", window, got[0].Timestamp, got[len(got)-1].Timestamp)
	}

	for query, attr := range map[string]string{"action=abc": "action", "action=-1": "action",
		"timestamp_after=yesterday": "timestamp_after", "timestamp_before=2024-02-30": "timestamp_before"} {
		body := c.want(400, "GET", c.base+"changes/?"+query, nil)
		errs, _ := body["errors"].([]any)
		if body["type"] != "validation_error" || len(errs) != 1 || errs[0].(map[string]any)["attr"] != attr {
			t.Errorf("%s: %v, want one validation error on %s", query, body, attr)
		}
	}
}

// settledChanges waits until the records of the last n operations have
// travelled through the outbox and the list stops growing, then returns it.
func settledChanges(t *testing.T, c client, n int) []change {
	var all []change
	waitFor(t, func() bool {
		before := len(c.changes(c.base+"changes/", url.Values{}))
		mine := c.changes(c.base+"changes/", url.Values{"user": {"translator"}})
		time.Sleep(100 * time.Millisecond)
		all = c.changes(c.base+"changes/", url.Values{})
		return len(mine) >= n && len(all) == before
	})
	return all
}

// expectFilter checks that the filter answers the records of all that keep
// selects, in the same order, and that it leaves some out; it returns them.
func expectFilter(t *testing.T, c client, all []change, query url.Values, keep func(change) bool) []change {
	t.Helper()
	var want []int64
	for _, ch := range all {
		if keep(ch) {
			want = append(want, ch.ID)
		}
	}
	got := c.changes(c.base+"changes/", query)
	ids := make([]int64, len(got))
	for i, ch := range got {
		ids[i] = ch.ID
	}
	if len(want) == 0 || len(want) == len(all) {
		t.Fatalf("filter %v: selects %d of %d records, a test that cannot fail", query, len(want), len(all))
	}
	if !slices.Equal(ids, want) {
		t.Errorf("filter %v: ids %v, want %v", query, ids, want)
	}
	return got
}

// distinctTimes are the record timestamps, oldest first, each once.
func distinctTimes(t *testing.T, all []change) []time.Time {
	var out []time.Time
	for _, ch := range all {
		out = append(out, ch.time(t))
	}
	slices.SortFunc(out, func(a, b time.Time) int { return a.Compare(b) })
	return slices.CompactFunc(out, func(a, b time.Time) bool { return a.Equal(b) })
}
