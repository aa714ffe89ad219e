package weblate

import (
	"strings"

	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
)

// action is one change action: the enum value, the reference's number
// (weblate/trans/actions.py ActionEvents) and its display name, the REST
// API's action_name.
type action struct {
	enum   typev1.ChangeAction
	number int32
	name   string
}

// actions lists every action of the reference, by number.
var actions = []action{
	{typev1.ChangeAction_CHANGE_ACTION_UPDATE, 0, "Resource updated"},
	{typev1.ChangeAction_CHANGE_ACTION_COMPLETE, 1, "Translation completed"},
	{typev1.ChangeAction_CHANGE_ACTION_CHANGE, 2, "Translation changed"},
	{typev1.ChangeAction_CHANGE_ACTION_COMMENT, 3, "Comment added"},
	{typev1.ChangeAction_CHANGE_ACTION_SUGGESTION, 4, "Suggestion added"},
	{typev1.ChangeAction_CHANGE_ACTION_NEW, 5, "Translation added"},
	{typev1.ChangeAction_CHANGE_ACTION_AUTO, 6, "Automatically translated"},
	{typev1.ChangeAction_CHANGE_ACTION_ACCEPT, 7, "Suggestion accepted"},
	{typev1.ChangeAction_CHANGE_ACTION_REVERT, 8, "Translation reverted"},
	{typev1.ChangeAction_CHANGE_ACTION_UPLOAD, 9, "Translation uploaded"},
	{typev1.ChangeAction_CHANGE_ACTION_NEW_SOURCE, 13, "Source string added"},
	{typev1.ChangeAction_CHANGE_ACTION_LOCK, 14, "Component locked"},
	{typev1.ChangeAction_CHANGE_ACTION_UNLOCK, 15, "Component unlocked"},
	{typev1.ChangeAction_CHANGE_ACTION_COMMIT, 17, "Changes committed"},
	{typev1.ChangeAction_CHANGE_ACTION_PUSH, 18, "Changes pushed"},
	{typev1.ChangeAction_CHANGE_ACTION_RESET, 19, "Repository reset"},
	{typev1.ChangeAction_CHANGE_ACTION_MERGE, 20, "Repository merged"},
	{typev1.ChangeAction_CHANGE_ACTION_REBASE, 21, "Repository rebased"},
	{typev1.ChangeAction_CHANGE_ACTION_FAILED_MERGE, 22, "Repository merge failed"},
	{typev1.ChangeAction_CHANGE_ACTION_FAILED_REBASE, 23, "Repository rebase failed"},
	{typev1.ChangeAction_CHANGE_ACTION_PARSE_ERROR, 24, "Parsing failed"},
	{typev1.ChangeAction_CHANGE_ACTION_REMOVE_TRANSLATION, 25, "Translation removed"},
	{typev1.ChangeAction_CHANGE_ACTION_SUGGESTION_DELETE, 26, "Suggestion removed"},
	{typev1.ChangeAction_CHANGE_ACTION_REPLACE, 27, "Translation replaced"},
	{typev1.ChangeAction_CHANGE_ACTION_FAILED_PUSH, 28, "Repository push failed"},
	{typev1.ChangeAction_CHANGE_ACTION_SUGGESTION_CLEANUP, 29, "Suggestion removed during cleanup"},
	{typev1.ChangeAction_CHANGE_ACTION_SOURCE_CHANGE, 30, "Source string changed"},
	{typev1.ChangeAction_CHANGE_ACTION_NEW_UNIT, 31, "String added"},
	{typev1.ChangeAction_CHANGE_ACTION_BULK_EDIT, 32, "Bulk status changed"},
	{typev1.ChangeAction_CHANGE_ACTION_ACCESS_EDIT, 33, "Visibility changed"},
	{typev1.ChangeAction_CHANGE_ACTION_ADD_USER, 34, "User added"},
	{typev1.ChangeAction_CHANGE_ACTION_REMOVE_USER, 35, "User removed"},
	{typev1.ChangeAction_CHANGE_ACTION_APPROVE, 36, "Translation approved"},
	{typev1.ChangeAction_CHANGE_ACTION_MARKED_EDIT, 37, "Marked for edit"},
	{typev1.ChangeAction_CHANGE_ACTION_REMOVE_COMPONENT, 38, "Component removed"},
	{typev1.ChangeAction_CHANGE_ACTION_REMOVE_PROJECT, 39, "Project removed"},
	{typev1.ChangeAction_CHANGE_ACTION_RENAME_PROJECT, 41, "Project renamed"},
	{typev1.ChangeAction_CHANGE_ACTION_RENAME_COMPONENT, 42, "Component renamed"},
	{typev1.ChangeAction_CHANGE_ACTION_MOVE_COMPONENT, 43, "Moved component"},
	{typev1.ChangeAction_CHANGE_ACTION_NEW_CONTRIBUTOR, 45, "Contributor joined"},
	{typev1.ChangeAction_CHANGE_ACTION_ANNOUNCEMENT, 46, "Announcement posted"},
	{typev1.ChangeAction_CHANGE_ACTION_ALERT, 47, "Alert triggered"},
	{typev1.ChangeAction_CHANGE_ACTION_ADDED_LANGUAGE, 48, "Language added"},
	{typev1.ChangeAction_CHANGE_ACTION_REQUESTED_LANGUAGE, 49, "Language requested"},
	{typev1.ChangeAction_CHANGE_ACTION_CREATE_PROJECT, 50, "Project created"},
	{typev1.ChangeAction_CHANGE_ACTION_CREATE_COMPONENT, 51, "Component created"},
	{typev1.ChangeAction_CHANGE_ACTION_INVITE_USER, 52, "User invited"},
	{typev1.ChangeAction_CHANGE_ACTION_HOOK, 53, "Repository notification received"},
	{typev1.ChangeAction_CHANGE_ACTION_REPLACE_UPLOAD, 54, "Translation replaced file by upload"},
	{typev1.ChangeAction_CHANGE_ACTION_LICENSE_CHANGE, 55, "License changed"},
	{typev1.ChangeAction_CHANGE_ACTION_AGREEMENT_CHANGE, 56, "Contributor license agreement changed"},
	{typev1.ChangeAction_CHANGE_ACTION_SCREENSHOT_ADDED, 57, "Screenshot added"},
	{typev1.ChangeAction_CHANGE_ACTION_SCREENSHOT_UPLOADED, 58, "Screenshot uploaded"},
	{typev1.ChangeAction_CHANGE_ACTION_STRING_REPO_UPDATE, 59, "String updated in the repository"},
	{typev1.ChangeAction_CHANGE_ACTION_ADDON_CREATE, 60, "Add-on installed"},
	{typev1.ChangeAction_CHANGE_ACTION_ADDON_CHANGE, 61, "Add-on configuration changed"},
	{typev1.ChangeAction_CHANGE_ACTION_ADDON_REMOVE, 62, "Add-on uninstalled"},
	{typev1.ChangeAction_CHANGE_ACTION_STRING_REMOVE, 63, "String removed"},
	{typev1.ChangeAction_CHANGE_ACTION_COMMENT_DELETE, 64, "Comment removed"},
	{typev1.ChangeAction_CHANGE_ACTION_COMMENT_RESOLVE, 65, "Comment resolved"},
	{typev1.ChangeAction_CHANGE_ACTION_EXPLANATION, 66, "Explanation updated"},
	{typev1.ChangeAction_CHANGE_ACTION_REMOVE_CATEGORY, 67, "Category removed"},
	{typev1.ChangeAction_CHANGE_ACTION_RENAME_CATEGORY, 68, "Category renamed"},
	{typev1.ChangeAction_CHANGE_ACTION_MOVE_CATEGORY, 69, "Category moved"},
	{typev1.ChangeAction_CHANGE_ACTION_SAVE_FAILED, 70, "Saving string failed"},
	{typev1.ChangeAction_CHANGE_ACTION_NEW_UNIT_REPO, 71, "String added in the repository"},
	{typev1.ChangeAction_CHANGE_ACTION_STRING_UPLOAD_UPDATE, 72, "String updated in the upload"},
	{typev1.ChangeAction_CHANGE_ACTION_NEW_UNIT_UPLOAD, 73, "String added in the upload"},
	{typev1.ChangeAction_CHANGE_ACTION_SOURCE_UPLOAD, 74, "Translation updated by source upload"},
	{typev1.ChangeAction_CHANGE_ACTION_COMPLETED_COMPONENT, 75, "Component translation completed"},
	{typev1.ChangeAction_CHANGE_ACTION_ENFORCED_CHECK, 76, "Applied enforced check"},
	{typev1.ChangeAction_CHANGE_ACTION_PROPAGATED_EDIT, 77, "Propagated change"},
	{typev1.ChangeAction_CHANGE_ACTION_FILE_UPLOAD, 78, "File uploaded"},
	{typev1.ChangeAction_CHANGE_ACTION_EXTRA_FLAGS, 79, "Extra flags updated"},
	{typev1.ChangeAction_CHANGE_ACTION_FONT_CREATE, 80, "Font uploaded"},
	{typev1.ChangeAction_CHANGE_ACTION_FONT_CHANGE, 81, "Font changed"},
	{typev1.ChangeAction_CHANGE_ACTION_FONT_REMOVE, 82, "Font removed"},
	{typev1.ChangeAction_CHANGE_ACTION_FORCE_SYNC, 83, "Forced synchronization of translations"},
	{typev1.ChangeAction_CHANGE_ACTION_FORCE_SCAN, 84, "Forced rescan of translations"},
	{typev1.ChangeAction_CHANGE_ACTION_SCREENSHOT_REMOVED, 85, "Screenshot removed"},
	{typev1.ChangeAction_CHANGE_ACTION_LABEL_ADD, 86, "Label added"},
	{typev1.ChangeAction_CHANGE_ACTION_LABEL_REMOVE, 87, "Label removed"},
	{typev1.ChangeAction_CHANGE_ACTION_REPO_CLEANUP, 88, "Repository cleanup"},
	// Extensions: the reference records no change for these.
	{typev1.ChangeAction_CHANGE_ACTION_CHECK_DISMISSED, 1001, "Check dismissed"},
	{typev1.ChangeAction_CHANGE_ACTION_CHECK_RESTORED, 1002, "Check restored"},
}

// ChangeActions maps change actions to the reference's numbers.
var ChangeActions = func() *Table[typev1.ChangeAction, int32] {
	rows := make([]Pair[typev1.ChangeAction, int32], len(actions))
	for i, a := range actions {
		rows[i] = Pair[typev1.ChangeAction, int32]{a.enum, a.number}
	}
	return newTable(rows...)
}()

var actionNames = func() map[typev1.ChangeAction]string {
	m := make(map[typev1.ChangeAction]string, len(actions))
	for _, a := range actions {
		m[a.enum] = a.name
	}
	return m
}()

// ActionName is the reference's display name of a, or "" for a value the
// reference does not have.
func ActionName(a typev1.ChangeAction) string {
	return actionNames[a]
}

// ActionNumber finds a change action by the names the reference's search
// accepts (change_action:): its display name as written ("Translation
// changed"), else that name in lower case with hyphens for spaces
// ("translation-changed"). It answers the reference's number.
func ActionNumber(name string) (int32, bool) {
	for _, a := range actions {
		if a.name == name {
			return a.number, true
		}
	}
	for _, a := range actions {
		if strings.ReplaceAll(strings.ToLower(a.name), " ", "-") == name {
			return a.number, true
		}
	}
	return 0, false
}

// ContentActions are the actions that change a string's content (the
// reference's ACTIONS_CONTENT), which search's changed: and changed_by:
// look at.
var ContentActions = []typev1.ChangeAction{
	typev1.ChangeAction_CHANGE_ACTION_CHANGE, typev1.ChangeAction_CHANGE_ACTION_NEW,
	typev1.ChangeAction_CHANGE_ACTION_AUTO, typev1.ChangeAction_CHANGE_ACTION_ACCEPT,
	typev1.ChangeAction_CHANGE_ACTION_REVERT, typev1.ChangeAction_CHANGE_ACTION_UPLOAD,
	typev1.ChangeAction_CHANGE_ACTION_REPLACE, typev1.ChangeAction_CHANGE_ACTION_BULK_EDIT,
	typev1.ChangeAction_CHANGE_ACTION_APPROVE, typev1.ChangeAction_CHANGE_ACTION_MARKED_EDIT,
	typev1.ChangeAction_CHANGE_ACTION_PROPAGATED_EDIT, typev1.ChangeAction_CHANGE_ACTION_SOURCE_CHANGE,
	typev1.ChangeAction_CHANGE_ACTION_EXPLANATION, typev1.ChangeAction_CHANGE_ACTION_EXTRA_FLAGS,
	typev1.ChangeAction_CHANGE_ACTION_NEW_UNIT, typev1.ChangeAction_CHANGE_ACTION_ENFORCED_CHECK,
}
