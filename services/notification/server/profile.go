package server

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/tmsproject/tms/pkg/errs"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
)

// defaultProfile is a new account's settings, the reference's model
// defaults (NEARBY_MESSAGES 15, DEFAULT_AUTO_WATCH on, personal memory
// contributed unless DEFAULT_AUTOCLEAN_TM).
func defaultProfile() *notificationv1.Profile {
	return &notificationv1.Profile{Theme: "auto", SecondaryInZen: true, NearbyStrings: 15, AutoWatch: true,
		ContributePersonalTm: true, DashboardView: dashboardWatched}
}

// The dashboard views (the reference's Profile.DASHBOARD_*).
const (
	dashboardWatched        = 1
	dashboardComponentList  = 4
	dashboardSuggestions    = 5
	dashboardComponentLists = 6
	dashboardManaged        = 7
)

// profileJSON writes settings as stored: every field, by its proto name,
// so that a false or zero is kept rather than read back as a default.
var profileJSON = protojson.MarshalOptions{UseProtoNames: true, EmitUnpopulated: true}

// decodeProfile reads stored settings; "" (never written) and anything
// unreadable are the defaults, and so is a setting the stored JSON lacks
// (the store writes only "watched" for an account it watches a project
// for).
func decodeProfile(raw string) *notificationv1.Profile {
	p := &notificationv1.Profile{}
	var keys map[string]json.RawMessage
	if raw == "" || protojson.Unmarshal([]byte(raw), p) != nil || json.Unmarshal([]byte(raw), &keys) != nil {
		return defaultProfile()
	}
	def, m := defaultProfile().ProtoReflect(), p.ProtoReflect()
	fields := m.Descriptor().Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		if _, stored := keys[string(fd.Name())]; !stored && def.Has(fd) {
			m.Set(fd, def.Get(fd))
		}
	}
	return p
}

func encodeProfile(p *notificationv1.Profile) (string, error) {
	b, err := profileJSON.Marshal(p)
	return string(b), err
}

// applyProfile copies the settings named by the paths "profile.<field>"
// from in to the stored settings of u, and validates the result. A path
// naming no setting is a read_only violation, as other unknown paths.
func applyProfile(u *string, email string, in *notificationv1.Profile, fields []string) error {
	if len(fields) == 0 {
		return nil
	}
	p := decodeProfile(*u)
	src, dst := in.ProtoReflect(), p.ProtoReflect()
	for _, f := range fields {
		fd := dst.Descriptor().Fields().ByName(protoreflect.Name(f))
		if fd == nil {
			return errs.Invalid("profile."+f, "read_only", "This field can not be changed.")
		}
		if fd.IsList() {
			dst.Clear(fd)
			if src.Has(fd) {
				dst.Set(fd, src.Get(fd))
			}
			continue
		}
		dst.Set(fd, src.Get(fd))
	}
	if err := dashboardRules(p, fields); err != nil {
		return err
	}
	if err := validateProfile(p, email); err != nil {
		return err
	}
	raw, err := encodeProfile(p)
	if err != nil {
		return err
	}
	*u = raw
	return nil
}

// dashboardRules ties dashboard_view to dashboard_component_list as the
// reference's profile serializer does: naming a list shows it (view 4),
// clearing it leaves view 4 for the watched translations, and a view set
// explicitly must agree with the list.
func dashboardRules(p *notificationv1.Profile, fields []string) error {
	if slices.Contains(fields, "dashboard_component_list") {
		switch {
		case p.GetDashboardComponentList() != "":
			if !slices.Contains(fields, "dashboard_view") {
				p.DashboardView = dashboardComponentList
			}
		case p.GetDashboardView() == dashboardComponentList:
			p.DashboardView = dashboardWatched
		}
	}
	if !slices.Contains(fields, "dashboard_view") {
		return nil
	}
	switch {
	case p.GetDashboardView() == dashboardComponentList && p.GetDashboardComponentList() == "":
		return errs.Invalid("profile.dashboard_view", "invalid", "A component list is required for this view.")
	case p.GetDashboardView() != dashboardComponentList && p.GetDashboardComponentList() != "":
		return errs.Invalid("profile.dashboard_view", "invalid", "Clear the dashboard component list when selecting this view.")
	}
	return nil
}

// interfaceLanguages are the reference's interface languages (its
// LANGUAGES setting), the values of Profile.language.
var interfaceLanguages = strings.Fields(`ar az ba be be-latn bg br ca cs cy da de en el en-gb es fi fr ga gl he hu hr
	id is it ja kab kk ko lo nb nl pl pt pt-br ro ru sk sl sq sr sr-latn sv ta th tr uk vi zh-hans zh-hant`)

var profileSlug = regexp.MustCompile(`^[-a-zA-Z0-9_]*$`)

// validateProfile checks settings as the reference's profile form does,
// naming each violation "profile.<field>".
func validateProfile(p *notificationv1.Profile, email string) error {
	var v errs.Violations
	bad := func(field, code, msg string) { v.Add("profile."+field, code, msg) }
	choice := func(field string, ok bool, value any) {
		if !ok {
			bad(field, "invalid_choice", fmt.Sprintf("%q is not a valid choice.", fmt.Sprint(value)))
		}
	}
	choice("language", p.GetLanguage() == "" || slices.Contains(interfaceLanguages, p.GetLanguage()), p.GetLanguage())
	choice("theme", slices.Contains([]string{"auto", "light", "dark"}, p.GetTheme()), p.GetTheme())
	choice("translate_mode", p.GetTranslateMode() == 0 || p.GetTranslateMode() == 1, p.GetTranslateMode())
	choice("zen_mode", p.GetZenMode() == 0 || p.GetZenMode() == 1, p.GetZenMode())
	choice("commit_name", p.GetCommitName() >= 0 && p.GetCommitName() <= 2, p.GetCommitName())
	choice("dashboard_view", slices.Contains([]int32{dashboardWatched, dashboardComponentList, dashboardSuggestions,
		dashboardComponentLists, dashboardManaged}, p.GetDashboardView()), p.GetDashboardView())
	if n := p.GetNearbyStrings(); n < 1 || n > 50 {
		bad("nearby_strings", "invalid", "Ensure this value is between 1 and 50.")
	}
	for field, limit := range map[string]int{"editor_link": 200, "special_chars": 30, "location": 100, "company": 100} {
		if utf8.RuneCountInString(profileString(p, field)) > limit {
			bad(field, "max_length", fmt.Sprintf("Ensure this field has no more than %d characters.", limit))
		}
	}
	for _, field := range []string{"website", "contact", "fediverse", "codesite"} {
		if s := profileString(p, field); s != "" && !webURL(s) {
			bad(field, "invalid", "Enter a valid URL.")
		}
	}
	for _, field := range []string{"liberapay", "github", "twitter", "linkedin"} {
		if s := profileString(p, field); !profileSlug.MatchString(s) || utf8.RuneCountInString(s) > 50 {
			bad(field, "invalid", "Enter a valid “slug” consisting of letters, numbers, underscores or hyphens.")
		}
	}
	for _, field := range []string{"public_email", "commit_email"} {
		if s := profileString(p, field); s != "" && !strings.EqualFold(s, email) {
			bad(field, "invalid_choice", fmt.Sprintf("%q is not a valid choice.", s))
		}
	}
	return v.Err()
}

func profileString(p *notificationv1.Profile, field string) string {
	m := p.ProtoReflect()
	return m.Get(m.Descriptor().Fields().ByName(protoreflect.Name(field))).String()
}

// webURL accepts an absolute http or https URL of at most 200 characters.
func webURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && utf8.RuneCountInString(s) <= 200
}
