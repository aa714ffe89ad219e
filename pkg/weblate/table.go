package weblate

// Table maps the values of an enum E to the reference's values R (numbers
// or strings) and back. A Table is built once at package initialisation
// and only read afterwards, so it is safe for concurrent use.
type Table[E ~int32, R comparable] struct {
	toRef  map[E]R
	toEnum map[R]E
	values []E
}

// Pair is one row of a Table.
type Pair[E ~int32, R comparable] struct {
	Enum E
	Ref  R
}

// newTable builds a table from rows in display order. A duplicate on
// either side is a programming error in this package: it panics at start.
func newTable[E ~int32, R comparable](rows ...Pair[E, R]) *Table[E, R] {
	t := &Table[E, R]{toRef: make(map[E]R, len(rows)), toEnum: make(map[R]E, len(rows))}
	for _, r := range rows {
		if _, dup := t.toRef[r.Enum]; dup {
			panic("weblate: enum value listed twice")
		}
		if _, dup := t.toEnum[r.Ref]; dup {
			panic("weblate: reference value listed twice")
		}
		t.toRef[r.Enum], t.toEnum[r.Ref] = r.Ref, r.Enum
		t.values = append(t.values, r.Enum)
	}
	return t
}

// Ref is the reference's value for e; false for an unlisted value (the
// zero value X_UNSPECIFIED among them).
func (t *Table[E, R]) Ref(e E) (R, bool) {
	r, ok := t.toRef[e]
	return r, ok
}

// Enum is the enum value of the reference's r; false when the reference
// has no such value.
func (t *Table[E, R]) Enum(r R) (E, bool) {
	e, ok := t.toEnum[r]
	return e, ok
}

// Values lists the enum values the table knows, in the table's order.
func (t *Table[E, R]) Values() []E {
	return append([]E(nil), t.values...)
}

// EnumOf is Enum for a value read from storage: the zero value
// (X_UNSPECIFIED) when the reference has no such value.
func (t *Table[E, R]) EnumOf(r R) E {
	return t.toEnum[r]
}

// RefOf is Ref for a value checked before: R's zero value for an
// unlisted e. Check first where that zero value means something.
func (t *Table[E, R]) RefOf(e E) R {
	return t.toRef[e]
}
