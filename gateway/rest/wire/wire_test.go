package wire

import (
	"bytes"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"
)

func TestPercentOf(t *testing.T) {
	cases := []struct {
		n, total int64
		empty    Percent
		want     string
	}{
		{13, 15, 0, "86.6"},
		{4, 128, 0, "3.1"},
		{10, 15, 0, "66.6"},
		{2, 15, 0, "13.3"},
		{15, 15, 0, "100.0"},
		{0, 15, 0, "0.0"},
		{1, 100000, 0, "0.1"},
		{0, 0, 100, "100.0"},
		{0, 0, 0, "0.0"},
		{1, 15, 0, "6.6"},
	}
	for _, c := range cases {
		got, _ := PercentOf(c.n, c.total, c.empty).MarshalJSON()
		if string(got) != c.want {
			t.Errorf("PercentOf(%d, %d) = %s, want %s", c.n, c.total, got, c.want)
		}
	}
}

func TestTime(t *testing.T) {
	cases := []struct {
		in   time.Time
		want string
	}{
		{time.Date(2026, 3, 29, 18, 42, 42, 617681000, time.UTC), `"2026-03-29T18:42:42.617681Z"`},
		{time.Date(2026, 3, 29, 18, 42, 42, 0, time.UTC), `"2026-03-29T18:42:42Z"`},
		{time.Date(2026, 3, 29, 18, 42, 42, 100, time.UTC), `"2026-03-29T18:42:42Z"`},
		{time.Date(2026, 3, 29, 20, 42, 42, 5000, time.FixedZone("x", 7200)), `"2026-03-29T18:42:42.000005Z"`},
	}
	for _, c := range cases {
		got, _ := Time{c.in}.MarshalJSON()
		if string(got) != c.want {
			t.Errorf("Time(%v) = %s, want %s", c.in, got, c.want)
		}
	}
	if TimeOf(nil) != nil || TimeOf(&timestamppb.Timestamp{}) != nil {
		t.Error("unset timestamps must be nil")
	}
}

func TestEncodeNoEscapes(t *testing.T) {
	var buf bytes.Buffer
	if err := Encode(&buf, map[string]any{"a": "<b>&ü", "n": int64(-9223372036854775808)}); err != nil {
		t.Fatal(err)
	}
	if got, want := buf.String(), `{"a":"<b>&ü","n":-9223372036854775808}`; got != want {
		t.Errorf("Encode = %s, want %s", got, want)
	}
}
