package server

import (
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/tmsproject/tms/pkg/errs"
)

// fieldSet names the fields a request sets, by proto field name.
type fieldSet map[string]bool

// applyFields copies the fields named in names from src into dst, two
// messages of one type, and returns the set it applied. Names of read-only
// fields are skipped (the gateway may echo a whole object back); unknown
// names are a client error. With no names, every field that is set in src
// counts (proto3: non-zero) when onlyPresent, else every writable field.
func applyFields(dst, src proto.Message, names []string, readOnly fieldSet, onlyPresent bool) (fieldSet, error) {
	d, s := dst.ProtoReflect(), src.ProtoReflect()
	fds := d.Descriptor().Fields()
	set := fieldSet{}
	if len(names) == 0 {
		for i := 0; i < fds.Len(); i++ {
			fd := fds.Get(i)
			if !onlyPresent || s.Has(fd) {
				names = append(names, string(fd.Name()))
			}
		}
	}
	var v errs.Violations
	for _, name := range names {
		fd := fds.ByName(protoreflect.Name(name))
		switch {
		case fd == nil:
			v.Add(name, "invalid", "Unknown field.")
			continue
		case readOnly[name]:
			continue
		}
		copyField(d, s, fd)
		set[name] = true
	}
	return set, v.Err()
}

func copyField(d, s protoreflect.Message, fd protoreflect.FieldDescriptor) {
	if !fd.IsList() {
		d.Set(fd, s.Get(fd))
		return
	}
	// A fresh list: the destination must not alias the source's slice.
	d.Clear(fd)
	src := s.Get(fd).List()
	if src.Len() == 0 {
		return
	}
	dst := d.Mutable(fd).List()
	for i := 0; i < src.Len(); i++ {
		dst.Append(src.Get(i))
	}
}
