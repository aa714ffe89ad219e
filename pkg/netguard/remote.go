package netguard

import (
	"net/url"
	"regexp"
	"strings"
)

// remoteSchemes are the URL schemes accepted for remote repositories.
var remoteSchemes = map[string]bool{"https": true, "http": true, "ssh": true, "git": true, "git+ssh": true, "ssh+git": true}

// scpLike matches user@host:path and host:path (git's scp-like syntax): a
// colon before any slash, and a host that is not a single drive letter.
var scpLike = regexp.MustCompile(`^(?:[A-Za-z0-9._~-]+@)?[A-Za-z0-9][A-Za-z0-9.-]+:[^/]?`)

// transportPrefix matches git's "<transport>::<address>" remote helpers
// (ext::, fd::, …), which can run commands.
var transportPrefix = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*::`)

// RemoteProblem checks a git remote's address (a component's repo or push
// URL) and words what is wrong with it, as Weblate does, "" when nothing
// is. Hostile forms (control characters, a leading "-", remote helpers
// such as "ext::") are refused always; local paths, file:// and hosts on
// the loopback, private or link-local networks only unless allowLocal
// (the dial-time checks catch names that resolve there). code is the
// validation code: "blank" or "invalid".
func RemoteProblem(raw string, allowLocal bool) (code, problem string) {
	const invalid = "Invalid repository URL."
	switch {
	case strings.TrimSpace(raw) == "":
		return "blank", "This field may not be blank."
	case strings.IndexFunc(raw, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0, strings.HasPrefix(raw, "-"):
		return "invalid", invalid
	case transportPrefix.MatchString(raw):
		return "invalid", "Fetching VCS repository using " + strings.SplitN(raw, "::", 2)[0] + " is not allowed."
	}
	if i := strings.Index(raw, "://"); i > 0 {
		return "invalid", urlProblem(raw, allowLocal)
	}
	if scpLike.MatchString(raw) && !strings.HasPrefix(raw, "/") && !strings.HasPrefix(raw, ".") {
		if !allowLocal && LocalHost(scpHost(raw)) {
			return "invalid", localRefused("a local or private network address")
		}
		return "", ""
	}
	if !allowLocal {
		return "invalid", localRefused("local path")
	}
	return "", ""
}

// urlProblem checks a remote written as a URL.
func urlProblem(raw string, allowLocal bool) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return "Invalid repository URL."
	}
	scheme := strings.ToLower(u.Scheme)
	switch {
	case scheme == "file" && !allowLocal:
		return localRefused("file")
	case scheme == "file":
		return ""
	case !remoteSchemes[scheme]:
		return "Fetching VCS repository using " + scheme + " is not allowed."
	case u.Host == "" || strings.HasPrefix(u.Hostname(), "-"):
		return "Invalid repository URL."
	case !allowLocal && LocalHost(u.Hostname()):
		return localRefused("a local or private network address")
	}
	return ""
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
