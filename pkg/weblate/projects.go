package weblate

import typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"

// Access control levels of a project as the reference numbers them
// (weblate/trans/models/project.py ACCESS_*).
const (
	AccessPublic    = 0
	AccessProtected = 1
	AccessPrivate   = 100
	AccessCustom    = 200
)

// AccessControls maps access control levels to the reference's numbers.
var AccessControls = newTable(
	Pair[typev1.AccessControl, int32]{typev1.AccessControl_ACCESS_CONTROL_PUBLIC, AccessPublic},
	Pair[typev1.AccessControl, int32]{typev1.AccessControl_ACCESS_CONTROL_PROTECTED, AccessProtected},
	Pair[typev1.AccessControl, int32]{typev1.AccessControl_ACCESS_CONTROL_PRIVATE, AccessPrivate},
	Pair[typev1.AccessControl, int32]{typev1.AccessControl_ACCESS_CONTROL_CUSTOM, AccessCustom},
)

// Commit policies as the reference numbers them
// (weblate/trans/models/project.py CommitPolicyChoices).
const (
	CommitAll                 = 0
	CommitWithoutNeedsEditing = 10
	CommitApprovedOnly        = 30
)

// CommitPolicies maps commit policies to the reference's numbers.
var CommitPolicies = newTable(
	Pair[typev1.CommitPolicy, int32]{typev1.CommitPolicy_COMMIT_POLICY_ALL, CommitAll},
	Pair[typev1.CommitPolicy, int32]{typev1.CommitPolicy_COMMIT_POLICY_WITHOUT_NEEDS_EDITING, CommitWithoutNeedsEditing},
	Pair[typev1.CommitPolicy, int32]{typev1.CommitPolicy_COMMIT_POLICY_APPROVED_ONLY, CommitApprovedOnly},
)

// Merge styles as the reference names them (weblate/vcs/models.py).
const (
	MergeMerge     = "merge"
	MergeRebase    = "rebase"
	MergeMergeNoFF = "merge_noff"
)

// MergeStyles maps merge styles to the reference's strings.
var MergeStyles = newTable(
	Pair[typev1.MergeStyle, string]{typev1.MergeStyle_MERGE_STYLE_MERGE, MergeMerge},
	Pair[typev1.MergeStyle, string]{typev1.MergeStyle_MERGE_STYLE_REBASE, MergeRebase},
	Pair[typev1.MergeStyle, string]{typev1.MergeStyle_MERGE_STYLE_MERGE_NOFF, MergeMergeNoFF},
)
