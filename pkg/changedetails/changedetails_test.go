package changedetails

import (
	"encoding/json"
	"errors"
	"math"
	"testing"

	"google.golang.org/protobuf/types/known/structpb"
)

// TestRoundTrip: the text of details built from a map is what
// encoding/json wrote for that map before details were a Struct.
func TestRoundTrip(t *testing.T) {
	cases := []struct {
		name string
		in   map[string]any
		want string
	}{
		{"keys sorted, integers as integers", map[string]any{"state": 20, "old_state": -1, "context": "", "source": "Hello"},
			`{"context":"","old_state":-1,"source":"Hello","state":20}`},
		{"html escaped as encoding/json does", map[string]any{"comment": "<b>a & b</b>"},
			`{"comment":"\u003cb\u003ea \u0026 b\u003c/b\u003e"}`},
		{"nested values", map[string]any{"auto": false, "list": []any{1, "x"}, "obj": map[string]any{"k": nil}},
			`{"auto":false,"list":[1,"x"],"obj":{"k":null}}`},
		{"empty map is no details", map[string]any{}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := JSON(FromMap(c.in))
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("JSON = %s, want %s", got, c.want)
			}
			back, err := FromJSON(got)
			if err != nil {
				t.Fatalf("FromJSON(%s): %v", got, err)
			}
			if again, _ := JSON(back); again != c.want {
				t.Errorf("parsed back = %s, want %s", again, c.want)
			}
		})
	}
}

func TestFromJSON(t *testing.T) {
	cases := []struct {
		name    string
		text    string
		wantErr bool
		wantNil bool
	}{
		{"empty text", "", false, true},
		{"object", `{"a": 1}`, false, false},
		{"array", `[1, 2]`, true, true},
		{"null", `null`, true, true},
		{"not json", `not json`, true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := FromJSON(c.text)
			if (err != nil) != c.wantErr {
				t.Fatalf("err = %v, want error %v", err, c.wantErr)
			}
			if c.wantErr && !errors.Is(err, ErrNotObject) {
				t.Errorf("err = %v, want ErrNotObject", err)
			}
			if (s == nil) != c.wantNil {
				t.Errorf("details = %v, want nil %v", s, c.wantNil)
			}
		})
	}
}

func TestObject(t *testing.T) {
	nan := &structpb.Struct{Fields: map[string]*structpb.Value{"x": structpb.NewNumberValue(math.NaN())}}
	cases := []struct {
		name string
		in   *structpb.Struct
		want string
	}{
		{"nil", nil, "{}"},
		{"empty", &structpb.Struct{}, "{}"},
		{"no JSON form", nan, "{}"},
		{"object", FromMap(map[string]string{"reason": "new file"}), `{"reason":"new file"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := string(Object(c.in)); got != c.want {
				t.Errorf("Object = %s, want %s", got, c.want)
			}
		})
	}
	nested := &structpb.Struct{Fields: map[string]*structpb.Value{"l": structpb.NewListValue(
		&structpb.ListValue{Values: []*structpb.Value{structpb.NewNumberValue(math.Inf(1))}})}}
	for name, s := range map[string]*structpb.Struct{"NaN": nan, "infinity in a list": nested} {
		t.Run("JSON refuses "+name, func(t *testing.T) {
			if _, err := JSON(s); !errors.Is(err, ErrNotFinite) {
				t.Errorf("err = %v, want ErrNotFinite", err)
			}
		})
	}
}

// TestFromMapDirectMatchesJSON: the direct conversion gives what the JSON
// round trip gives, and values it does not take still convert.
func TestFromMapDirectMatchesJSON(t *testing.T) {
	for name, m := range map[string]map[string]any{
		"plain":       {"state": 20, "old_state": int64(10), "source": "Hello <b>", "fuzzy": false, "none": nil, "ratio": 0.5},
		"bad utf-8":   {"target": "a\xffb"},
		"nested":      {"list": []string{"a", "b"}, "obj": map[string]any{"k": 1}},
		"big integer": {"id": int64(1) << 60},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := JSON(FromMap(m))
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(m)
			s, err := FromJSON(string(b))
			if err != nil {
				t.Fatal(err)
			}
			want, _ := JSON(s)
			if got != want {
				t.Errorf("FromMap gives %s, the JSON round trip %s", got, want)
			}
		})
	}
}
