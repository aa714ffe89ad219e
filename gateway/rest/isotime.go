package rest

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// isoTime is the extended ISO 8601 form that Django's parse_datetime
// accepts (datetime.fromisoformat, then Django's own pattern): a date,
// optionally a time from the hour on (T or a space between), a fraction
// after . or , (digits past the sixth are dropped) and a zone (Z, ±hh,
// ±hhmm, ±hh:mm), blanks allowed before the zone.
var isoTime = regexp.MustCompile(`^(\d{4})-(\d{1,2})-(\d{1,2})` +
	`(?:[T ](\d{1,2})(?::(\d{1,2})(?::(\d{1,2})(?:[.,](\d{1,12}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$`)

// parseTime reads a date/time query value the way Weblate's
// IsoDateTimeField does (Django on Python 3.11+): a value without a zone
// is UTC (Weblate's TIME_ZONE), a date alone is its midnight. The short
// forms of fromisoformat (date alone, hour without minutes) need two-digit
// fields; the basic (20240102T1000) and week forms are not accepted.
func parseTime(s string) (time.Time, bool) {
	m := isoTime.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return time.Time{}, false
	}
	short := m[5] == ""
	if short && (len(m[2]) != 2 || len(m[3]) != 2 || (m[4] != "" && len(m[4]) != 2)) {
		return time.Time{}, false
	}
	if m[4] == "" && m[8] != "" {
		return time.Time{}, false // a zone needs a time
	}
	n := make([]int, 7)
	for i := 1; i <= 6; i++ {
		n[i], _ = strconv.Atoi(m[i]) // "" (absent) reads as 0
	}
	frac := (m[7] + "000000")[:6]
	micro, _ := strconv.Atoi(frac)
	zone, ok := zoneOf(m[8])
	if !ok {
		return time.Time{}, false
	}
	t := time.Date(n[1], time.Month(n[2]), n[3], n[4], n[5], n[6], micro*1000, zone)
	if t.Year() != n[1] || int(t.Month()) != n[2] || t.Day() != n[3] || t.Hour() != n[4] ||
		t.Minute() != n[5] || t.Second() != n[6] {
		return time.Time{}, false // out of range: Feb 30, 24:00, 12:60
	}
	return t.UTC(), true
}

// zoneOf reads Z, ±hh, ±hhmm or ±hh:mm ("" is UTC); Python refuses
// offsets of a day or more.
func zoneOf(z string) (*time.Location, bool) {
	if z == "" || z == "Z" {
		return time.UTC, true
	}
	digits := strings.ReplaceAll(z[1:], ":", "")
	h, _ := strconv.Atoi(digits[:2])
	mins := 0
	if len(digits) == 4 {
		mins, _ = strconv.Atoi(digits[2:])
	}
	if h > 23 || mins > 59 {
		return nil, false
	}
	off := (h*60 + mins) * 60
	if z[0] == '-' {
		off = -off
	}
	return time.FixedZone(z, off), true
}
