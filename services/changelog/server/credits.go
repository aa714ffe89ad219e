package server

import (
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
)

// contentActions are the change actions that credit their author with a
// translation (Weblate's content changes): what ListCredits counts with
// content_changes.
var contentActions = []typev1.ChangeAction{
	typev1.ChangeAction_CHANGE_ACTION_CHANGE,
	typev1.ChangeAction_CHANGE_ACTION_NEW,
	typev1.ChangeAction_CHANGE_ACTION_AUTO,
	typev1.ChangeAction_CHANGE_ACTION_ACCEPT,
	typev1.ChangeAction_CHANGE_ACTION_REVERT,
	typev1.ChangeAction_CHANGE_ACTION_UPLOAD,
	typev1.ChangeAction_CHANGE_ACTION_REPLACE,
	typev1.ChangeAction_CHANGE_ACTION_APPROVE,
	typev1.ChangeAction_CHANGE_ACTION_MARKED_EDIT,
}

// activity is the user statistics of the REST API (COMPAT.md §7): the
// records counted under each of its four numbers.
type activity struct {
	translated, suggested, uploaded, commented int64
}

// add counts n records of action a.
func (u *activity) add(a typev1.ChangeAction, n int64) {
	switch a {
	case typev1.ChangeAction_CHANGE_ACTION_NEW, typev1.ChangeAction_CHANGE_ACTION_CHANGE,
		typev1.ChangeAction_CHANGE_ACTION_APPROVE:
		u.translated += n
	case typev1.ChangeAction_CHANGE_ACTION_SUGGESTION:
		u.suggested += n
	case typev1.ChangeAction_CHANGE_ACTION_UPLOAD:
		u.uploaded += n
	case typev1.ChangeAction_CHANGE_ACTION_COMMENT:
		u.commented += n
	}
}
