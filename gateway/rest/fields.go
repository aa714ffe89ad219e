package rest

import (
	"net/http"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
)

// readOnly are proto fields a client never sets through a body.
var readOnly = map[string]bool{
	"id": true, "project_id": true, "project_slug": true, "locked": true, "created": true,
	"linked_component": true, "username": true, "category_path": true, "resource_name": true,
	"path": true,
}

// writable reports whether a body may set the proto field name: not a
// read-only one, nor a setting's value in effect (effective_*).
func writable(name string) bool {
	return !readOnly[name] && !strings.HasPrefix(name, "effective_")
}

// isCategoryRef reports whether the proto field name holds a category (a
// component's or a category's parent), written as the category's URL or
// id under the key "category".
func isCategoryRef(name string) bool { return name == "category_id" || name == "parent_id" }

// jsonKey is the REST name of a proto field: language references are
// written as `source_language` (a code or {"code": ...}).
func jsonKey(name string) string {
	if isCategoryRef(name) {
		return "category" // a category's URL, as the reference writes it
	}
	if strings.HasSuffix(name, "_language_code") {
		return strings.TrimSuffix(name, "_code")
	}
	return name
}

// applyBody copies the body keys that name writable fields of msg into msg
// (coercing like DRF) and returns the proto names of the fields set.
// Unknown keys are ignored; type problems are recorded in b.
func applyBody(b *body, msg proto.Message) []string {
	m := msg.ProtoReflect()
	fds := m.Descriptor().Fields()
	var set []string
	for i := 0; i < fds.Len(); i++ {
		fd := fds.Get(i)
		name := string(fd.Name())
		key := jsonKey(name)
		if !writable(name) || !b.has(key) {
			continue
		}
		if fd.IsList() {
			if fd.Kind() != protoreflect.StringKind {
				continue // lists of messages are read by their handlers
			}
			if list, ok := b.strList(key); ok {
				l := m.Mutable(fd).List()
				l.Truncate(0)
				for _, s := range list {
					l.Append(protoreflect.ValueOfString(s))
				}
				set = append(set, name)
			}
			continue
		}
		if v, ok := readField(b, key, name, fd); ok {
			m.Set(fd, v)
			set = append(set, name)
		}
	}
	return set
}

// bodyInto reads the request body into msg (applyBody) and returns the
// fields it set; a PUT must carry every key of put (a full update).
func (c *call) bodyInto(msg proto.Message, put ...string) ([]string, error) {
	b, err := c.readBody()
	if err != nil {
		return nil, err
	}
	if c.r.Method == http.MethodPut {
		b.required(put...)
	}
	fields := applyBody(b, msg)
	return fields, b.err()
}

func readField(b *body, key, name string, fd protoreflect.FieldDescriptor) (protoreflect.Value, bool) {
	switch fd.Kind() {
	case protoreflect.StringKind:
		if strings.HasSuffix(name, "_language_code") {
			s, ok := b.code(key)
			return protoreflect.ValueOfString(s), ok
		}
		s, ok := b.str(key)
		return protoreflect.ValueOfString(s), ok
	case protoreflect.BoolKind:
		v, ok := b.boolean(key)
		return protoreflect.ValueOfBool(v), ok
	case protoreflect.Int32Kind:
		v, ok := b.int32(key)
		return protoreflect.ValueOfInt32(v), ok
	case protoreflect.EnumKind:
		return readEnum(b, key, fd)
	case protoreflect.Int64Kind:
		if isCategoryRef(name) {
			n, ok := b.categoryRef(key)
			return protoreflect.ValueOfInt64(n), ok
		}
		v, ok := b.integer(key)
		return protoreflect.ValueOfInt64(v), ok
	}
	return protoreflect.Value{}, false
}

// mask is the update mask naming the proto fields a body set (applyBody);
// the services read an empty one as each Update RPC documents.
func mask(fields []string) *fieldmaskpb.FieldMask {
	return &fieldmaskpb.FieldMask{Paths: fields}
}
