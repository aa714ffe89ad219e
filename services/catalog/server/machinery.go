package server

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"sort"

	"google.golang.org/protobuf/types/known/structpb"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
)

// machineryField is one setting of a machine translation service, as the
// reference's settings forms have it.
type machineryField struct {
	name     string
	required bool
	secret   bool     // stored, never returned
	url      bool     // an http(s) URL
	choices  []string // when set, the value is one of them
}

// machineryService is a service the reference can configure per project.
type machineryService struct {
	name   string
	fields []machineryField
}

func apiKey() machineryField     { return machineryField{name: "key", required: true, secret: true} }
func serviceURL() machineryField { return machineryField{name: "url", required: true, url: true} }

// machineryServices are the reference's machinery services with project
// settings, by id, with their fields.
var machineryServices = map[string]machineryService{
	"apertium-apy": {"Apertium APy", []machineryField{serviceURL()}},
	"aws": {"Amazon Translate", []machineryField{apiKey(), {name: "secret", required: true, secret: true},
		{name: "region", required: true}}},
	"baidu": {"Baidu", []machineryField{apiKey(), {name: "secret", required: true, secret: true}}},
	"deepl": {"DeepL", []machineryField{apiKey(), {name: "url", url: true},
		{name: "formality", choices: []string{"default", "more", "less", "prefer_more", "prefer_less"}},
		{name: "context"}}},
	"google-translate": {"Google Translate", []machineryField{apiKey()}},
	"google-translate-api-v3": {"Google Cloud Translation Advanced", []machineryField{
		{name: "credentials", required: true, secret: true}, {name: "project", required: true},
		{name: "location", required: true}, {name: "bucket_name"}}},
	"ibm":            {"IBM Watson Language Translator", []machineryField{apiKey(), serviceURL()}},
	"libretranslate": {"LibreTranslate", []machineryField{serviceURL(), {name: "key", secret: true}}},
	"microsoft-translator": {"Azure AI Translator", []machineryField{apiKey(), {name: "base_url"},
		{name: "endpoint_url"}, {name: "region"}}},
	"modernmt":      {"ModernMT", []machineryField{apiKey(), {name: "url", url: true}}},
	"mymemory":      {"MyMemory", []machineryField{{name: "email"}, {name: "username"}, {name: "key", secret: true}}},
	"netease-sight": {"Netease Sight API machine translation", []machineryField{apiKey(), {name: "secret", required: true, secret: true}}},
	"openai": {"OpenAI", []machineryField{apiKey(), {name: "model", required: true}, {name: "base_url", url: true},
		{name: "persona"}, {name: "style"}}},
	"systran":                    {"Systran", []machineryField{apiKey()}},
	"tmserver":                   {"tmserver", []machineryField{serviceURL()}},
	"weblate":                    {"Weblate", nil},
	"weblate-translation-memory": {"Weblate Translation Memory", nil},
	"yandex":                     {"Yandex", []machineryField{apiKey()}},
	"youdao-zhiyun":              {"Youdao Zhiyun", []machineryField{apiKey(), {name: "secret", required: true, secret: true}}},
}

// GetMachinerySettings answers a project's settings without secrets, or
// with them to the services' own calls.
func (s *Server) GetMachinerySettings(ctx context.Context, req *catalogv1.GetMachinerySettingsRequest) (*catalogv1.GetMachinerySettingsResponse, error) {
	if _, caller := policy.FromContext(ctx); caller && req.GetIncludeSecrets() {
		return nil, errs.New(errs.PermissionDenied, "Only the services read machinery secrets.")
	}
	p, err := s.editableProject(ctx, req.GetProjectSlug())
	if err != nil {
		return nil, err
	}
	all, err := s.st.GetMachinerySettings(ctx, p.ID)
	if err != nil {
		return nil, storeErr(err, nil)
	}
	out := &catalogv1.GetMachinerySettingsResponse{Services: map[string]*structpb.Struct{}}
	for id, cfg := range all {
		shown := map[string]any{}
		for k, v := range cfg {
			if req.GetIncludeSecrets() || !isSecret(id, k) {
				shown[k] = v
			}
		}
		st, err := structpb.NewStruct(shown)
		if err != nil {
			return nil, errs.Wrap(errs.Internal, err, "Internal server error.")
		}
		out.Services[id] = st
	}
	return out, nil
}

// SetMachinerySettings validates and stores one service's configuration.
func (s *Server) SetMachinerySettings(ctx context.Context, req *catalogv1.SetMachinerySettingsRequest) (*catalogv1.SetMachinerySettingsResponse, error) {
	p, err := s.editableProject(ctx, req.GetProjectSlug())
	if err != nil {
		return nil, err
	}
	svc, ok := machineryServices[req.GetService()]
	if !ok {
		return nil, errs.Invalid("service", "invalid", "Service not found")
	}
	cfg := req.GetConfiguration().AsMap()
	if err := validateMachinery(svc, cfg); err != nil {
		return nil, err
	}
	if err := s.st.SetMachinerySetting(ctx, p.ID, req.GetService(), cfg); err != nil {
		return nil, storeErr(err, nil)
	}
	return &catalogv1.SetMachinerySettingsResponse{Name: svc.name}, nil
}

// validateMachinery checks a configuration against the service's fields:
// required ones present and non-empty, values strings, URLs http(s),
// choices known, nothing the service does not take.
func validateMachinery(svc machineryService, cfg map[string]any) error {
	var v errs.Violations
	known := map[string]machineryField{}
	for _, f := range svc.fields {
		known[f.name] = f
	}
	names := make([]string, 0, len(cfg))
	for k := range cfg {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		f, ok := known[k]
		if !ok {
			v.Add("configuration."+k, "invalid", "Unknown setting.")
			continue
		}
		checkMachineryValue(&v, f, cfg[k])
	}
	for _, f := range svc.fields {
		if _, present := cfg[f.name]; f.required && !present {
			v.Add("configuration."+f.name, "required", msgRequired)
		}
	}
	return v.Err()
}

func checkMachineryValue(v *errs.Violations, f machineryField, value any) {
	field := "configuration." + f.name
	s, ok := value.(string)
	switch {
	case !ok:
		v.Add(field, "invalid", "Not a valid string.")
	case s == "" && f.required:
		v.Add(field, "blank", msgBlank)
	case s == "":
	case f.url:
		if u, err := url.Parse(s); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			v.Add(field, "invalid", "Enter a valid URL.")
		}
	case f.choices != nil && !slices.Contains(f.choices, s):
		v.Add(field, "invalid_choice", fmt.Sprintf("Select a valid choice. %s is not one of the available choices.", s))
	}
}

func isSecret(service, field string) bool {
	for _, f := range machineryServices[service].fields {
		if f.name == field {
			return f.secret
		}
	}
	return true // a setting this service no longer knows is kept out too
}
