package policy

import (
	"context"
	"net/url"
	"regexp"
	"strings"
)

// Redacted is the credentials part shown to callers who may edit a
// component: that there are credentials, never what they are.
const Redacted = "***"

// RedactURL removes the credentials of a repository URL
// (https://user:pass@host/x.git): with mark they read "***", else they
// are dropped. URLs without credentials, and scp-like addresses
// (git@host:x.git, whose user is a login name, not a secret), are
// returned as they are.
func RedactURL(raw string, mark bool) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil || u.Host == "" {
		return raw
	}
	u.User = nil
	out := u.String()
	if mark {
		out = strings.Replace(out, "://", "://"+Redacted+"@", 1)
	}
	return out
}

// ShowURL is a repository URL as the caller of ctx may see it: whole for
// the services' own work, credentials marked for superusers (who may edit
// every component), dropped for everybody else.
func ShowURL(ctx context.Context, raw string) string {
	c, ok := FromContext(ctx)
	if !ok {
		return raw
	}
	return RedactURL(raw, c.Superuser)
}

// credentials matches the user information of URLs inside free text.
var credentials = regexp.MustCompile(`([a-zA-Z][a-zA-Z0-9+.-]*://)[^/@\s]+@`)

// ScrubText removes URL credentials from a message (an error of git, a
// log line) before it is stored or shown.
func ScrubText(s string) string {
	if !strings.Contains(s, "@") {
		return s
	}
	return credentials.ReplaceAllString(s, "${1}"+Redacted+"@")
}
