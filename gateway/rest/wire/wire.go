package wire

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"sync"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/tmsproject/tms/pkg/textstat"
)

// Percent is a percentage printed with exactly one decimal (100.0, 0.0,
// 66.6): Go would print 100 and clients compare the text form.
type Percent float64

// MarshalJSON prints one decimal digit.
func (p Percent) MarshalJSON() ([]byte, error) {
	return strconv.AppendFloat(nil, float64(p), 'f', 1, 64), nil
}

// PercentOf is Weblate's rounding (textstat.Percent); an empty total
// yields whenEmpty, which differs between the groups (COMPAT.md §6).
func PercentOf(n, total int64, whenEmpty Percent) Percent {
	if total <= 0 {
		return whenEmpty
	}
	return Percent(textstat.Percent(n, total))
}

// Time is a UTC timestamp with microseconds, the fraction left out when it
// is zero (2026-03-29T18:42:42.617681Z, 2026-03-29T18:42:42Z).
type Time struct{ time.Time }

// TimeLayout is the layout of a Time with a fraction.
const TimeLayout = "2006-01-02T15:04:05.000000Z"

// Format renders t the way the API prints timestamps.
func Format(t time.Time) string {
	return string(appendTime(nil, t))
}

// appendTime appends Format(t) to b.
func appendTime(b []byte, t time.Time) []byte {
	t = t.UTC().Truncate(time.Microsecond)
	if t.Nanosecond() == 0 {
		return t.AppendFormat(b, "2006-01-02T15:04:05Z")
	}
	return t.AppendFormat(b, TimeLayout)
}

// MarshalJSON quotes Format(t); its characters need no escaping. (A units
// page prints two per unit: formatting into one buffer halved their cost.)
func (t Time) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, len(TimeLayout)+2)
	b = append(b, '"')
	b = appendTime(b, t.Time)
	return append(b, '"'), nil
}

// TimeOf converts a protobuf timestamp; nil or unset gives nil (JSON null).
func TimeOf(ts *timestamppb.Timestamp) *Time {
	if ts == nil || (ts.GetSeconds() == 0 && ts.GetNanos() == 0) {
		return nil
	}
	return &Time{ts.AsTime()}
}

// Encode writes v as compact JSON without HTML escaping and without the
// trailing newline json.Encoder adds.
func Encode(w io.Writer, v any) error {
	if a, ok := v.(Appender); ok {
		buf := buffers.Get().(*[]byte)
		b, err := a.AppendJSON((*buf)[:0])
		if err == nil {
			_, err = w.Write(b)
		}
		if cap(b) <= maxPooledBuffer {
			*buf = b
			buffers.Put(buf)
		}
		return err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	return err
}

// buffers holds the encoding buffers of answers written: a units page is
// tens of kilobytes, and growing a fresh buffer to that size for every
// request was a third of the bytes a page allocated.
var buffers = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// maxPooledBuffer bounds the buffers kept: one huge answer does not pin
// its buffer for good.
const maxPooledBuffer = 1 << 20
