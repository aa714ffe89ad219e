package server

import (
	"context"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/tmsproject/tms/services/catalog/store"
)

// Projects, categories and components carry the inheritable settings
// under the same proto field names (license, inherit_license,
// effective_license, ...), so one set of helpers moves them between the
// store's rows and any of the three messages.

// settingField is the proto field of an inheritable setting: the
// secondary language is kept by code.
func settingField(name string) string {
	if name == "secondary_language" {
		return "secondary_language_code"
	}
	return name
}

// inheritField is the proto field of a setting's inherit flag.
func inheritField(name string) string { return "inherit_" + name }

// effectiveField is the proto field of a setting's effective value.
func effectiveField(name string) string { return "effective_" + settingField(name) }

// effectiveReadOnly adds the effective settings to a message's read-only
// fields.
func effectiveReadOnly(set fieldSet) fieldSet {
	for _, n := range store.SettingNames {
		set[effectiveField(n)] = true
	}
	set["effective_check_flags"] = true
	return set
}

// putSettings writes the settings, the inherit flags and the effective
// settings into m (a Project, Category or Component).
func putSettings(m proto.Message, own store.Settings, inherit store.Inherit, eff store.Effective) {
	r := m.ProtoReflect()
	fd := r.Descriptor().Fields()
	owns, flags, effs := own.Ptrs(), inherit.Ptrs(), eff.Ptrs()
	for i, n := range store.SettingNames {
		r.Set(fd.ByName(protoreflect.Name(settingField(n))), protoreflect.ValueOfString(*owns[i]))
		r.Set(fd.ByName(protoreflect.Name(inheritField(n))), protoreflect.ValueOfBool(*flags[i]))
		r.Set(fd.ByName(protoreflect.Name(effectiveField(n))), protoreflect.ValueOfString(*effs[i]))
	}
	r.Set(fd.ByName("effective_check_flags"), protoreflect.ValueOfString(eff.CheckFlags))
}

// takeSettings reads the settings and the inherit flags of m.
func takeSettings(m proto.Message) (store.Settings, store.Inherit) {
	var own store.Settings
	var inherit store.Inherit
	r := m.ProtoReflect()
	fd := r.Descriptor().Fields()
	owns, flags := own.Ptrs(), inherit.Ptrs()
	for i, n := range store.SettingNames {
		*owns[i] = r.Get(fd.ByName(protoreflect.Name(settingField(n)))).String()
		*flags[i] = r.Get(fd.ByName(protoreflect.Name(inheritField(n)))).Bool()
	}
	return own, inherit
}

// createInheritance sets the inherit flags of a new m as Weblate's
// serializers do: a flag the request sets stays; otherwise a setting is
// inherited when the request does not set it and there is a parent to
// inherit from (a project has none: no workspaces here).
func createInheritance(m proto.Message, set fieldSet, hasParent bool) {
	r := m.ProtoReflect()
	fd := r.Descriptor().Fields()
	for _, n := range store.SettingNames {
		if set[inheritField(n)] {
			continue
		}
		inherit := hasParent && !set[settingField(n)]
		r.Set(fd.ByName(protoreflect.Name(inheritField(n))), protoreflect.ValueOfBool(inherit))
	}
}

// updateInheritance stops inheriting each setting whose own value an
// update changed from before, as Weblate's models do on save (even when
// the same request asked to inherit it).
func updateInheritance(m proto.Message, before store.Settings) {
	own, _ := takeSettings(m)
	r := m.ProtoReflect()
	fd := r.Descriptor().Fields()
	now, was := own.Ptrs(), before.Ptrs()
	for i, n := range store.SettingNames {
		if *now[i] != *was[i] {
			r.Set(fd.ByName(protoreflect.Name(inheritField(n))), protoreflect.ValueOfBool(false))
		}
	}
}

// licenseLength is Weblate's license max_length.
const licenseLength = 150

// checkInheritable validates the inheritable settings of m: the choices,
// the license's length and the secondary language, which it canonicalises.
func (s *Server) checkInheritable(ctx context.Context, c *checker, m proto.Message) error {
	own, _ := takeSettings(m)
	c.choice("new_lang", own.NewLang, newLangChoices...)
	c.choice("language_code_style", own.LanguageCodeStyle, codeStyleChoices...)
	c.maxLen("license", own.License, licenseLength)
	code := own.SecondaryLanguageCode
	if err := s.languageField(ctx, c, "secondary_language", &code, true); err != nil {
		return err
	}
	r := m.ProtoReflect()
	r.Set(r.Descriptor().Fields().ByName("secondary_language_code"), protoreflect.ValueOfString(code))
	return nil
}
