package weblate

import (
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"

	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
)

// table is what the tests need of a Table, whatever its types.
type table interface {
	enum() protoreflect.EnumDescriptor
	has(n protoreflect.EnumNumber) bool
	sameNumber(n protoreflect.EnumNumber) (same, numbered bool)
}

type intTable[E interface {
	~int32
	Descriptor() protoreflect.EnumDescriptor
}] struct{ t *Table[E, int32] }

func (x intTable[E]) enum() protoreflect.EnumDescriptor { var e E; return e.Descriptor() }
func (x intTable[E]) has(n protoreflect.EnumNumber) bool {
	_, ok := x.t.Ref(E(n))
	return ok
}
func (x intTable[E]) sameNumber(n protoreflect.EnumNumber) (bool, bool) {
	r, _ := x.t.Ref(E(n))
	return r == int32(n), true
}

type stringTable[E interface {
	~int32
	Descriptor() protoreflect.EnumDescriptor
}] struct{ t *Table[E, string] }

func (x stringTable[E]) enum() protoreflect.EnumDescriptor { var e E; return e.Descriptor() }
func (x stringTable[E]) has(n protoreflect.EnumNumber) bool {
	_, ok := x.t.Ref(E(n))
	return ok
}
func (stringTable[E]) sameNumber(protoreflect.EnumNumber) (bool, bool) { return false, false }

var tables = []table{
	intTable[typev1.UnitState]{UnitStates},
	intTable[typev1.ChangeAction]{ChangeActions},
	intTable[typev1.AccessControl]{AccessControls},
	intTable[typev1.CommitPolicy]{CommitPolicies},
	stringTable[typev1.MergeStyle]{MergeStyles},
	stringTable[typev1.NotificationKind]{NotificationKinds},
	intTable[typev1.NotificationScope]{NotificationScopes},
	intTable[typev1.NotificationFrequency]{NotificationFrequencies},
}

// TestTablesCoverEnums: every value of every enum but the unspecified one
// has the reference's counterpart, so no value the API carries is lost.
func TestTablesCoverEnums(t *testing.T) {
	for _, tb := range tables {
		values := tb.enum().Values()
		t.Run(string(tb.enum().Name()), func(t *testing.T) {
			for i := range values.Len() {
				v := values.Get(i)
				if got, want := tb.has(v.Number()), v.Number() != 0; got != want {
					t.Errorf("%s listed: %v, want %v", v.Name(), got, want)
				}
			}
		})
	}
}

// TestNumbering holds the protos' promise: an enum value carries the
// reference's number unless the reference numbers it 0.
func TestNumbering(t *testing.T) {
	for _, tb := range tables {
		values := tb.enum().Values()
		t.Run(string(tb.enum().Name()), func(t *testing.T) {
			zeroes := 0
			for i := 1; i < values.Len(); i++ {
				v := values.Get(i)
				same, numbered := tb.sameNumber(v.Number())
				if !numbered {
					t.Skip("the reference names these values by strings")
				}
				if !same {
					zeroes++
				}
			}
			if zeroes > 1 {
				t.Errorf("%d values differ from the reference's numbers; only its 0 may", zeroes)
			}
		})
	}
}

func TestConversions(t *testing.T) {
	cases := []struct {
		name string
		got  any
		want any
	}{
		{"empty state is the reference's 0", UnitStates.RefOf(typev1.UnitState_UNIT_STATE_EMPTY), int32(StateEmpty)},
		{"0 is the empty state", UnitStates.EnumOf(0), typev1.UnitState_UNIT_STATE_EMPTY},
		{"unknown stored state is unspecified", UnitStates.EnumOf(15), typev1.UnitState_UNIT_STATE_UNSPECIFIED},
		{"resource updated is the reference's 0", ChangeActions.RefOf(typev1.ChangeAction_CHANGE_ACTION_UPDATE), int32(0)},
		{"63 is string removed", ChangeActions.EnumOf(63), typev1.ChangeAction_CHANGE_ACTION_STRING_REMOVE},
		{"retired action 16 is unknown", ChangeActions.EnumOf(16), typev1.ChangeAction_CHANGE_ACTION_UNSPECIFIED},
		{"public is the reference's 0", AccessControls.RefOf(typev1.AccessControl_ACCESS_CONTROL_PUBLIC), int32(AccessPublic)},
		{"merge_noff", MergeStyles.EnumOf("merge_noff"), typev1.MergeStyle_MERGE_STYLE_MERGE_NOFF},
		{"unspecified merge style has no string", MergeStyles.RefOf(typev1.MergeStyle_MERGE_STYLE_UNSPECIFIED), ""},
		{"action name", ActionName(typev1.ChangeAction_CHANGE_ACTION_UPDATE), "Resource updated"},
		{"action name of an announcement", ActionName(typev1.ChangeAction_CHANGE_ACTION_ANNOUNCEMENT), "Announcement posted"},
		{"no name for unspecified", ActionName(typev1.ChangeAction_CHANGE_ACTION_UNSPECIFIED), ""},
		{"the reference's typo names a kind", NotificationKinds.EnumOf("NewCommentNotificaton"), typev1.NotificationKind_NOTIFICATION_KIND_NEW_COMMENT},
		{"the corrected spelling is no kind", NotificationKinds.EnumOf("NewCommentNotification"), typev1.NotificationKind_NOTIFICATION_KIND_UNSPECIFIED},
		{"all projects is the reference's scope 0", NotificationScopes.RefOf(typev1.NotificationScope_NOTIFICATION_SCOPE_ALL), int32(ScopeAll)},
		{"scope 5 is unknown", NotificationScopes.EnumOf(5), typev1.NotificationScope_NOTIFICATION_SCOPE_UNSPECIFIED},
		{"never is the reference's frequency 0", NotificationFrequencies.RefOf(typev1.NotificationFrequency_NOTIFICATION_FREQUENCY_NONE), int32(FrequencyNone)},
		{"weekly is 3", NotificationFrequencies.EnumOf(3), typev1.NotificationFrequency_NOTIFICATION_FREQUENCY_WEEKLY},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.got != c.want {
				t.Errorf("got %v, want %v", c.got, c.want)
			}
		})
	}
}

func TestValuesKeepOrder(t *testing.T) {
	got := CommitPolicies.Values()
	want := []typev1.CommitPolicy{typev1.CommitPolicy_COMMIT_POLICY_ALL,
		typev1.CommitPolicy_COMMIT_POLICY_WITHOUT_NEEDS_EDITING, typev1.CommitPolicy_COMMIT_POLICY_APPROVED_ONLY}
	if len(got) != len(want) {
		t.Fatalf("Values() = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Values()[%d] = %v, want %v", i, got[i], want[i])
		}
	}
}

func TestDuplicatesPanic(t *testing.T) {
	cases := []struct {
		name string
		rows []Pair[typev1.MergeStyle, string]
	}{
		{"enum twice", []Pair[typev1.MergeStyle, string]{{typev1.MergeStyle_MERGE_STYLE_MERGE, "a"}, {typev1.MergeStyle_MERGE_STYLE_MERGE, "b"}}},
		{"reference value twice", []Pair[typev1.MergeStyle, string]{{typev1.MergeStyle_MERGE_STYLE_MERGE, "a"}, {typev1.MergeStyle_MERGE_STYLE_REBASE, "a"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			newTable(c.rows...)
		})
	}
}
