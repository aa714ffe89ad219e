// Package delivery sends notifications by e-mail and posts changes to
// projects' webhooks. A consumer follows the
// change log by id with a cursor kept in the service's database; for each
// change it picks, for every user, the most specific matching subscription
// (never for the user's own changes, never about a project the user may
// not see) and stores one notification per change and recipient in the
// same transaction as the cursor, so a restart neither loses nor repeats
// one. A sender mails instant notifications at once and daily, weekly and
// monthly ones as one digest when their period ends, with retries. Each
// change of a project with webhooks is queued for each of them in that
// same transaction and posted, signed per the Standard Webhooks
// specification, until the receiver answers 2xx (with backoff).
package delivery
