package rest

import (
	"cmp"
	"slices"
	"strings"

	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
)

// profileJSON is Weblate's ProfileSerializer: the account's settings, its
// work counted from the change log, and links to its languages, watched
// projects and dashboard component list as far as the caller may see them.
type profileJSON struct {
	Language             string   `json:"language"`
	Languages            []string `json:"languages"`
	SecondaryLanguages   []string `json:"secondary_languages"`
	Suggested            int64    `json:"suggested"`
	Translated           int64    `json:"translated"`
	Uploaded             int64    `json:"uploaded"`
	Commented            int64    `json:"commented"`
	Theme                string   `json:"theme"`
	HideCompleted        bool     `json:"hide_completed"`
	SecondaryInZen       bool     `json:"secondary_in_zen"`
	HideSourceSecondary  bool     `json:"hide_source_secondary"`
	WideTables           bool     `json:"wide_tables"`
	EditorLink           string   `json:"editor_link"`
	TranslateMode        int32    `json:"translate_mode"`
	ZenMode              int32    `json:"zen_mode"`
	SpecialChars         string   `json:"special_chars"`
	NearbyStrings        int32    `json:"nearby_strings"`
	AutoWatch            bool     `json:"auto_watch"`
	ContributePersonalTM bool     `json:"contribute_personal_tm"`
	DashboardView        int32    `json:"dashboard_view"`
	// DashboardComponentList is the list's URL, null when none is set or
	// the caller may not see it.
	DashboardComponentList *string  `json:"dashboard_component_list"`
	Watched                []string `json:"watched"`
	Website                string   `json:"website"`
	Contact                string   `json:"contact"`
	Liberapay              string   `json:"liberapay"`
	Fediverse              string   `json:"fediverse"`
	Codesite               string   `json:"codesite"`
	Github                 string   `json:"github"`
	Twitter                string   `json:"twitter"`
	Linkedin               string   `json:"linkedin"`
	Location               string   `json:"location"`
	Company                string   `json:"company"`
	PublicEmail            string   `json:"public_email"`
	CommitEmail            string   `json:"commit_email"`
	CommitName             int32    `json:"commit_name"`
	// Last2FA is the last second factor used; this service has none, so
	// it is always Weblate's "" (none).
	Last2FA string `json:"last_2fa"`
}

// profileJSON renders an account's settings. The counts are the user's
// statistics (within what the caller may see); a watched project or the
// dashboard's list the caller may not see is left out, as Weblate's
// AllowedProjectsField and AllowedComponentListField do.
func (c *call) profileJSON(u *notificationv1.User) (*profileJSON, error) {
	p := u.GetProfile()
	out := &profileJSON{Language: p.GetLanguage(), Theme: p.GetTheme(), HideCompleted: p.GetHideCompleted(),
		SecondaryInZen: p.GetSecondaryInZen(), HideSourceSecondary: p.GetHideSourceSecondary(), WideTables: p.GetWideTables(),
		EditorLink: p.GetEditorLink(), TranslateMode: p.GetTranslateMode(), ZenMode: p.GetZenMode(),
		SpecialChars: p.GetSpecialChars(), NearbyStrings: p.GetNearbyStrings(), AutoWatch: p.GetAutoWatch(),
		ContributePersonalTM: p.GetContributePersonalTm(), DashboardView: p.GetDashboardView(),
		Website: p.GetWebsite(), Contact: p.GetContact(), Liberapay: p.GetLiberapay(), Fediverse: p.GetFediverse(),
		Codesite: p.GetCodesite(), Github: p.GetGithub(), Twitter: p.GetTwitter(), Linkedin: p.GetLinkedin(),
		Location: p.GetLocation(), Company: p.GetCompany(), PublicEmail: p.GetPublicEmail(),
		CommitEmail: p.GetCommitEmail(), CommitName: p.GetCommitName(),
		Languages: c.languageURLs(p.GetLanguages()), SecondaryLanguages: c.languageURLs(p.GetSecondaryLanguages())}
	stats, err := c.userActivity(u.GetUsername())
	if err != nil {
		return nil, err
	}
	out.Suggested, out.Translated, out.Uploaded, out.Commented = stats.Suggested, stats.Translated, stats.Uploaded, stats.Commented
	if out.Watched, err = c.watchedURLs(p.GetWatched()); err != nil {
		return nil, err
	}
	if slug := p.GetDashboardComponentList(); slug != "" {
		_, err := c.g.cfg.Catalog.GetComponentList(c.ctx, &catalogv1.GetComponentListRequest{Slug: slug})
		switch {
		case err == nil:
			out.DashboardComponentList = optional(c.urls.API("component-lists", slug))
		case !isNotFound(err):
			return nil, err
		}
	}
	return out, nil
}

func (c *call) languageURLs(codes []string) []string {
	out := make([]string, len(codes))
	for i, code := range codes {
		out[i] = c.urls.API("languages", code)
	}
	return out
}

// watchedURLs links the watched projects the caller may see, by name.
func (c *call) watchedURLs(slugs []string) ([]string, error) {
	var seen []*catalogv1.Project
	for _, slug := range slugs {
		p, err := c.project(slug)
		if isNotFound(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		seen = append(seen, p)
	}
	slices.SortFunc(seen, func(a, b *catalogv1.Project) int { return cmp.Compare(a.GetName(), b.GetName()) })
	out := make([]string, len(seen))
	for i, p := range seen {
		out[i] = c.urls.API("projects", p.GetSlug())
	}
	return out, nil
}

// userActivity counts the user's work from the change log, within the
// projects the caller may see (the user statistics and profile counts).
func (c *call) userActivity(username string) (userStatisticsJSON, error) {
	resp, err := c.g.cfg.Changelog.GetUserActivity(c.ctx, &changelogv1.GetUserActivityRequest{User: username})
	if err != nil {
		return userStatisticsJSON{}, err
	}
	// The change log groups the actions: the same numbers for every caller.
	return userStatisticsJSON{Languages: resp.GetLanguages(), Translated: resp.GetTranslated(),
		Suggested: resp.GetSuggested(), Uploaded: resp.GetUploaded(), Commented: resp.GetCommented()}, nil
}

// profileLists are the settings written as lists of references: language
// codes and project slugs (Weblate's PROFILE_M2M_FIELDS).
var profileLists = map[string]bool{"languages": true, "secondary_languages": true, "watched": true}

// profileBody reads the "profile" object of a user update into the
// settings it sets and their update paths ("profile.<field>"), checking
// that the languages, projects and component list it names exist and, for
// projects and lists, that the caller may see them. Errors name
// "profile.<field>", as Weblate's nested serializer does.
func (c *call) profileBody(b *body) (*notificationv1.Profile, []string) {
	raw, ok := b.fields["profile"]
	if !ok || raw == nil {
		return nil, nil
	}
	obj, isObj := raw.(map[string]any)
	if !isObj {
		b.errs.Add("profile", "invalid", "Invalid data. Expected a dictionary, but got "+jsonKind(raw)+".")
		return nil, nil
	}
	pb := &body{fields: map[string]any{}}
	p := &notificationv1.Profile{}
	var paths []string
	for key, v := range obj {
		switch {
		case v == nil && (profileLists[key] || key == "dashboard_component_list"):
			paths = append(paths, "profile."+key) // null clears
		case isProfileCount(key):
			// read-only, ignored as Weblate ignores them
		default:
			pb.fields[key] = v
		}
	}
	for _, f := range applyBody(pb, p) {
		paths = append(paths, "profile."+f)
	}
	c.checkProfileRefs(pb, p)
	for _, e := range pb.errs {
		b.errs.Add("profile."+e.Field, e.Code, e.Description)
	}
	slices.Sort(paths)
	return p, paths
}

func isProfileCount(key string) bool {
	return slices.Contains([]string{"suggested", "translated", "uploaded", "commented", "last_2fa"}, key)
}

// checkProfileRefs records "Invalid value: …" for languages that do not
// exist, and projects or a component list the caller may not see.
func (c *call) checkProfileRefs(pb *body, p *notificationv1.Profile) {
	for key, refs := range map[string][]string{"languages": p.GetLanguages(), "secondary_languages": p.GetSecondaryLanguages(),
		"watched": p.GetWatched()} {
		var missing []string
		for _, ref := range refs {
			var err error
			if key == "watched" {
				_, err = c.project(ref)
			} else {
				_, err = c.language(ref)
			}
			if err != nil {
				missing = append(missing, ref)
			}
		}
		if len(missing) > 0 {
			slices.Sort(missing)
			pb.errs.Add(key, "invalid", "Invalid value: "+strings.Join(missing, ", "))
		}
	}
	if slug := p.GetDashboardComponentList(); slug != "" {
		if _, err := c.g.cfg.Catalog.GetComponentList(c.ctx, &catalogv1.GetComponentListRequest{Slug: slug}); err != nil {
			pb.errs.Add("dashboard_component_list", "invalid", "Invalid value: "+slug)
		}
	}
}
