// Package store is the translation service's database: translations with
// their maintained statistics counters, units, import tasks, the state of
// each component's working copy, and the recent content changes that feed
// recent_changes; suggestions (with votes) and comments, whose presence
// is kept on each unit (has_suggestion, has_comment: unresolved ones) and
// counted per translation, and which an edit or a repository update making
// them obsolete cleans up (action 29); strings added or removed through the API
// (pending units, unit_removals for the committer), each uncommitted change
// keeping its author (units.pending_author, unit_removals.author) for the
// commit to credit; and unit search
// (search.Query rendered against the units table). It is the only code of
// the service that runs SQL.
//
// Statistics are maintained, not recomputed (ARCHITECTURE.md rule 6): the
// import writes each translation's counters from the units it stores, and a
// unit edit adjusts them by the difference of the unit's buckets in the same
// transaction. Reads over components, projects and languages are SQL sums of
// translation rows.
package store
