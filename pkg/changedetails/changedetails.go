package changedetails

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"unicode/utf8"

	"google.golang.org/protobuf/types/known/structpb"
)

// ErrNotObject refuses details text that is not a JSON object.
var ErrNotObject = errors.New("details are not a JSON object")

// FromMap is the details holding m, whose values are plain JSON values:
// strings, numbers, booleans, nil, and maps and slices of them. Anything
// else is a programming error and panics, as it would have no JSON form.
func FromMap[V any](m map[string]V) *structpb.Struct {
	if s, ok := direct(m); ok {
		return s
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic(fmt.Sprintf("changedetails: %v", err))
	}
	s, err := FromJSON(string(b))
	if err != nil {
		panic(fmt.Sprintf("changedetails: %v", err))
	}
	return s
}

// direct builds the Struct of m without a JSON round trip when every
// value is a string, bool, nil or a finite number of a common type, as
// the records of an edit or an upload (one per unit) hold: the round trip
// was a measurable share of a large upload. Other values go through JSON.
func direct[V any](m map[string]V) (*structpb.Struct, bool) {
	fields := make(map[string]*structpb.Value, len(m))
	for k, v := range m {
		var val *structpb.Value
		switch x := any(v).(type) {
		case string:
			if !utf8.ValidString(x) { // JSON would replace the bad bytes
				return nil, false
			}
			val = structpb.NewStringValue(x)
		case bool:
			val = structpb.NewBoolValue(x)
		case nil:
			val = structpb.NewNullValue()
		case int:
			val = structpb.NewNumberValue(float64(x))
		case int32:
			val = structpb.NewNumberValue(float64(x))
		case int64:
			val = structpb.NewNumberValue(float64(x))
		case float64:
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, false
			}
			val = structpb.NewNumberValue(x)
		default:
			return nil, false
		}
		fields[k] = val
	}
	return &structpb.Struct{Fields: fields}, true
}

// FromJSON parses stored details text; empty text is no details (nil).
func FromJSON(text string) (*structpb.Struct, error) {
	if text == "" {
		return nil, nil
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotObject, err)
	}
	if m == nil {
		return nil, ErrNotObject // the text was null
	}
	return structpb.NewStruct(m)
}

// JSON is the text of s; empty details (nil or no fields) are "". It
// fails on a number JSON cannot carry (NaN, infinities).
func JSON(s *structpb.Struct) (string, error) {
	if len(s.GetFields()) == 0 {
		return "", nil
	}
	if err := finite(structpb.NewStructValue(s)); err != nil {
		return "", err
	}
	b, err := json.Marshal(s.AsMap())
	if err != nil {
		return "", fmt.Errorf("details: %w", err)
	}
	return string(b), nil
}

// Object is the text of s as a JSON object, {} for empty details or
// details without a JSON form, for answers that always carry an object.
func Object(s *structpb.Struct) json.RawMessage {
	text, err := JSON(s)
	if err != nil || text == "" {
		return json.RawMessage("{}")
	}
	return json.RawMessage(text)
}

// ErrNotFinite refuses a number JSON cannot carry. structpb would write
// it as a string ("NaN"), changing its type unnoticed.
var ErrNotFinite = errors.New("details hold a number that is NaN or infinite")

func finite(v *structpb.Value) error {
	switch k := v.GetKind().(type) {
	case *structpb.Value_NumberValue:
		if math.IsNaN(k.NumberValue) || math.IsInf(k.NumberValue, 0) {
			return ErrNotFinite
		}
	case *structpb.Value_StructValue:
		for _, f := range k.StructValue.GetFields() {
			if err := finite(f); err != nil {
				return err
			}
		}
	case *structpb.Value_ListValue:
		for _, e := range k.ListValue.GetValues() {
			if err := finite(e); err != nil {
				return err
			}
		}
	}
	return nil
}
