package store

import (
	"testing"
	"time"
)

// TestTextTime: the times SQLite stores read back as the instants written,
// by the quick parse of the driver's default layout and by the fallback
// layouts; anything else is an error, not a zero time.
func TestTextTime(t *testing.T) {
	at := time.Date(2026, 11, 29, 8, 46, 8, 6591000, time.UTC)
	east := time.FixedZone("", 5*3600+30*60)
	for _, tc := range []struct {
		in   any
		want time.Time
		bad  bool
	}{
		{in: "2026-11-29 08:46:08.006591+00:00", want: at},
		{in: []byte("2026-11-29 08:46:08.006591+00:00"), want: at},
		{in: "2026-11-29 08:46:08+00:00", want: at.Truncate(time.Second)},
		{in: "2026-11-29 14:16:08.006591+05:30", want: at},
		{in: "2026-11-29 03:16:08.006591-05:30", want: at},
		{in: "2026-11-29 08:46:08.123456789+00:00", want: at.Truncate(time.Second).Add(123456789)},
		{in: "2026-11-29T08:46:08.006591+00:00", want: at},
		{in: "2026-11-29 08:46:08.006591", want: at},
		{in: "2026-11-29 08:46:08.006591 +0000 UTC", want: at},
		{in: at.In(east), want: at},
		{in: "2026-02-31 08:46:08+00:00", bad: true},
		{in: "2026-11-29 25:46:08+00:00", bad: true},
		{in: "yesterday", bad: true},
		{in: 42, bad: true},
	} {
		var got time.Time
		err := textTime{&got}.Scan(tc.in)
		if tc.bad {
			if err == nil {
				t.Errorf("%v: read as %v, want an error", tc.in, got)
			}
			continue
		}
		if err != nil || !got.Equal(tc.want) {
			t.Errorf("%v: %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}
