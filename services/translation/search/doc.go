// Package search implements Weblate's unit search language (the `q`
// parameter of unit lists) and compiles it to an SQL WHERE fragment.
//
// Parse turns a query into a *Query; (*Query).SQL renders it for SQLite or
// PostgreSQL with every user value passed as an argument, never spliced into
// the SQL text. Placeholders are `?` on both dialects, the form gorm's Where
// expects (gorm rewrites them to $n for PostgreSQL); Numbered rewrites them
// for a raw database/sql PostgreSQL driver.
//
// # Syntax (after Weblate's docs/user/search.rst and weblate/utils/search.py)
//
//	word, "quoted phrase", 'quoted phrase'   substring of source OR target OR context
//	source:TEXT target:TEXT context:TEXT     case-insensitive substring of that field
//	note:TEXT location:TEXT key:TEXT         (key is Weblate's alias of context)
//	source:=TEXT                             exact, case-sensitive match of the whole field
//	source:r"regexp"                         regular expression (see Regexp below)
//	state:NAME|NUMBER                        state equals; names: empty, untranslated (= empty),
//	                                         needs-editing, fuzzy, translated, approved,
//	                                         read-only, readonly
//	state:>=translated state:<20 …           comparisons :< :<= :> :>=
//	is:translated|untranslated|fuzzy|needs-editing|approved|read-only|readonly
//	has:suggestion|comment|plural|context|note|translation|explanation
//	project:SLUG language:CODE               the string's project or language, any case
//	                                         (:= the exact text; r"…" a regular expression)
//	component:SLUG                           a component slug containing SLUG, any case
//	                                         (:= equal to it; Weblate also matches names)
//	id:N id:1,2,3 position:>N priority:N     the unit's numbers, comparisons :< :<= :> :>=
//	is:pending                               an edit not yet committed
//	explanation:TEXT has:explanation         the source string's explanation
//	AND OR NOT ( )                           case-insensitive keywords
//
// Precedence is NOT > AND > OR; juxtaposed terms are joined by AND with the
// precedence of AND ("a b OR c" is "(a AND b) OR c"). Weblate's pyparsing
// grammar has a quirk here — juxtaposition sits on the OR level and the whole
// level becomes OR as soon as one explicit OR appears in it — which we do not
// copy: the rule above is what its documentation promises.
//
// A bare word runs to the next blank or to a ")" closing an enclosing group;
// parentheses opened inside a word stay in it (f(x) is one word) and
// apostrophes inside a word are literal (don't). A field prefix is letters
// and underscores before ":"; URL schemes (http:, https:, ftp:, mailto:) are
// not fields, so a pasted URL is a plain word. AND, OR and NOT are keywords
// only when they stand alone; after a field operator they are values
// (source:not). Parse errors report the character position of the offending
// token.
//
// Semantics follow Weblate: `state:translated` is state = 20 while
// `is:translated` is state >= 20; `is:untranslated` is state < 20 while
// `state:untranslated` is state = 0; a comparison operator on a text field is
// taken literally (`source:>x` looks for the substring ">x"). Inside quotes
// only \" (or \'), \\ and the whitespace escapes \n \t \r \f are unescaped;
// other backslashes are kept, so regular expressions need no doubling.
//
// The change fields (changed:, changed_by:, change_time:, change_action:)
// look at the unit's change records in table unit_changes. As in Weblate,
// change conditions joined by AND hold for one record, so AND distributes
// over OR into at most 64 alternatives ("Search query is too complex."
// beyond), and changed: and changed_by: count content changes only.
//
// Fields Weblate knows but this service does not search yet (path,
// screenshot) and has:/is: lookups it does not have (variant, shaping,
// glossary, automatically-translated) are parse errors naming them, never
// silently ignored.
//
// # Matching and its limits
//
// Substring search escapes %, _ and \ in the value and uses LIKE … ESCAPE '\'.
// PostgreSQL uses ILIKE, which folds case by the database's LC_CTYPE: a
// cluster created with the C locale folds ASCII only. SQLite compares
// lower(column) with lower(value) so that both sides go through the same
// function; SQLite's built-in lower() folds ASCII only, so a store on SQLite
// calls RegisterSQLiteFunctions, which overrides it with a Unicode-aware one
// (strings.ToLower) on every connection of the pure-Go driver. Exact matches (:=) are case-sensitive and compare
// the whole stored field, plural forms joined with "\x1e\x1e" included, as
// Weblate does. NULL columns count as empty strings.
//
// Regular expressions are validated with Go's regexp package at parse time
// and evaluated by the database: PostgreSQL's `~` (POSIX ARE syntax, which
// agrees with Go's RE2 on the common subset) and SQLite's REGEXP operator,
// which RegisterSQLiteFunctions backs with Regexp.
package search
