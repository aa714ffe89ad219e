package rest

import (
	"fmt"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/tmsproject/tms/pkg/weblate"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
)

// restState is a unit's state as the REST API numbers it. The services
// never answer an unspecified state; it would show as empty (0).
func restState(s typev1.UnitState) int32 {
	return weblate.UnitStates.RefOf(s)
}

// bodyEnums read the enum fields of request bodies: the reference's
// number or string for each, by the enum's full name.
var bodyEnums = map[protoreflect.FullName]func(b *body, key string) (protoreflect.EnumNumber, bool){
	"tms.type.v1.AccessControl": func(b *body, key string) (protoreflect.EnumNumber, bool) {
		return numberChoice(b, key, weblate.AccessControls)
	},
	"tms.type.v1.CommitPolicy": func(b *body, key string) (protoreflect.EnumNumber, bool) {
		return numberChoice(b, key, weblate.CommitPolicies)
	},
	"tms.type.v1.MergeStyle": func(b *body, key string) (protoreflect.EnumNumber, bool) {
		return stringChoice(b, key, weblate.MergeStyles)
	},
	"tms.type.v1.NotificationKind": func(b *body, key string) (protoreflect.EnumNumber, bool) {
		return stringChoice(b, key, weblate.NotificationKinds)
	},
	"tms.type.v1.NotificationScope": func(b *body, key string) (protoreflect.EnumNumber, bool) {
		return numberChoice(b, key, weblate.NotificationScopes)
	},
	"tms.type.v1.NotificationFrequency": func(b *body, key string) (protoreflect.EnumNumber, bool) {
		return numberChoice(b, key, weblate.NotificationFrequencies)
	},
}

// readEnum reads the enum field fd from key; a field of an enum without a
// REST form is left alone.
func readEnum(b *body, key string, fd protoreflect.FieldDescriptor) (protoreflect.Value, bool) {
	read, ok := bodyEnums[fd.Enum().FullName()]
	if !ok {
		return protoreflect.Value{}, false
	}
	n, ok := read(b, key)
	return protoreflect.ValueOfEnum(n), ok
}

// numberChoice reads an integer choice, refused as the reference refuses
// a value of none of its choices.
func numberChoice[E ~int32](b *body, key string, t *weblate.Table[E, int32]) (protoreflect.EnumNumber, bool) {
	n, ok := b.int32(key)
	if !ok {
		return 0, false
	}
	e, ok := t.Enum(n)
	if !ok {
		b.errs.Add(key, "invalid_choice", fmt.Sprintf("\"%d\" is not a valid choice.", n))
	}
	return protoreflect.EnumNumber(e), ok
}

// stringChoice reads a string choice, refused as numberChoice.
func stringChoice[E ~int32](b *body, key string, t *weblate.Table[E, string]) (protoreflect.EnumNumber, bool) {
	s, ok := b.str(key)
	if !ok {
		return 0, false
	}
	e, ok := t.Enum(s)
	if !ok {
		b.errs.Add(key, "invalid_choice", fmt.Sprintf("\"%s\" is not a valid choice.", s))
	}
	return protoreflect.EnumNumber(e), ok
}
