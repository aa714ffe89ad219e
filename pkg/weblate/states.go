package weblate

import typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"

// Unit states as the reference numbers them (weblate/utils/state.py); the
// numbers are ordered, so stored states compare as the states do.
const (
	StateEmpty      = 0
	StateFuzzy      = 10
	StateTranslated = 20
	StateApproved   = 30
	StateReadOnly   = 100
)

// UnitStates maps unit states to the reference's numbers.
var UnitStates = newTable(
	Pair[typev1.UnitState, int32]{typev1.UnitState_UNIT_STATE_EMPTY, StateEmpty},
	Pair[typev1.UnitState, int32]{typev1.UnitState_UNIT_STATE_FUZZY, StateFuzzy},
	Pair[typev1.UnitState, int32]{typev1.UnitState_UNIT_STATE_TRANSLATED, StateTranslated},
	Pair[typev1.UnitState, int32]{typev1.UnitState_UNIT_STATE_APPROVED, StateApproved},
	Pair[typev1.UnitState, int32]{typev1.UnitState_UNIT_STATE_READONLY, StateReadOnly},
)
