package workcopy

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/netguard"
)

// remoteSchemes are the URL schemes accepted for remote repositories.
var remoteSchemes = map[string]bool{"https": true, "http": true, "ssh": true, "git": true, "git+ssh": true, "ssh+git": true}

// scpLike matches user@host:path and host:path (git's scp-like syntax): a
// colon before any slash, and a host that is not a single drive letter.
var scpLike = regexp.MustCompile(`^(?:[A-Za-z0-9._~-]+@)?[A-Za-z0-9][A-Za-z0-9.-]+:[^/]?`)

// transportPrefix matches git's "<transport>::<address>" remote helpers
// (ext::, fd::, …), which can run commands.
var transportPrefix = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*::`)

// ValidateURL checks a component repository address. Hostile forms
// (control characters, a leading "-", remote helpers such as "ext::") are
// refused always; local paths, file:// and hosts on the loopback, private
// or link-local networks only when allowLocal (the dial-time check of
// AllowLocalNetwork catches names that resolve there).
func ValidateURL(raw string, allowLocal bool) error {
	invalid := func(msg string) error { return errs.Invalid("repo", "invalid", msg) }
	switch {
	case strings.TrimSpace(raw) == "":
		return errs.Invalid("repo", "blank", "This field may not be blank.")
	case strings.IndexFunc(raw, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0:
		return invalid("Invalid repository URL.")
	case strings.HasPrefix(raw, "-"):
		return invalid("Invalid repository URL.")
	case transportPrefix.MatchString(raw):
		return invalid("Fetching VCS repository using " + strings.SplitN(raw, "::", 2)[0] + " is not allowed.")
	}
	if i := strings.Index(raw, "://"); i > 0 {
		u, err := url.Parse(raw)
		if err != nil || u.Scheme == "" {
			return invalid("Invalid repository URL.")
		}
		scheme := strings.ToLower(u.Scheme)
		if scheme == "file" {
			if !allowLocal {
				return invalid(localRefused("file"))
			}
			return nil
		}
		if !remoteSchemes[scheme] {
			return invalid("Fetching VCS repository using " + scheme + " is not allowed.")
		}
		if u.Host == "" || strings.HasPrefix(u.Hostname(), "-") {
			return invalid("Invalid repository URL.")
		}
		if !allowLocal && netguard.LocalHost(u.Hostname()) {
			return invalid(localRefused("a local or private network address"))
		}
		return nil
	}
	if scpLike.MatchString(raw) && !strings.HasPrefix(raw, "/") && !strings.HasPrefix(raw, ".") {
		if !allowLocal && netguard.LocalHost(scpHost(raw)) {
			return invalid(localRefused("a local or private network address"))
		}
		return nil
	}
	if !allowLocal {
		return invalid(localRefused("local path"))
	}
	return nil
}

// localRefused is Weblate's refusal of a local repository, naming the
// setting that allows it here.
func localRefused(what string) string {
	return "Fetching VCS repository using " + what + " is not allowed; the server allows it when TMS_ALLOW_LOCAL_REPOS=true."
}

// scpHost is the host of a scp-like address ([user@]host:path).
func scpHost(raw string) string {
	host, _, _ := strings.Cut(raw, ":")
	if i := strings.LastIndexByte(host, '@'); i >= 0 {
		host = host[i+1:]
	}
	return host
}
